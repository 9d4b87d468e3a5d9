// The tool's `platform` table becomes the one registry: it now holds the tool's own key pair for each platform (the
// key id and the private key, sealed; the public key is derived from it), which ltijs kept in its records
// (`lti_record`, collections platform, platformStatus, publickey, privatekey) beside a copy of the platform's
// addresses. ltijs reads platforms through the tool's storage plugin from this table (lti/storage.ts) and no longer
// writes any.
//
// What moves: a platform's key id (ltijs's `kid`, also the key id of the JWKS the tool publishes, so LMSs that
// cached it keep verifying) and its private key. ltijs sealed that key with the ENCRYPTION_KEY, which a migration
// does not have (the CLI may run it anywhere): it moves still sealed in ltijs's format, marked `ltijs-cbc:`, and
// lti/platform-key-pair.ts opens both that and the tool's own format (secrets.ts). A status ltijs kept as switched off
// switches the platform off. ltijs's records of a platform the tool's table does not know could never launch (every
// launch needs the table's deployment) and go with the rest.
import { sql, type Kysely } from 'kysely';

const REGISTRATION_COLLECTIONS = sql`('platform', 'platformStatus', 'publickey', 'privatekey')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('platform')
    .addColumn('key_id', 'text', (col) => col.unique())
    .addColumn('private_key', 'text')
    .execute();
  await sql`
    UPDATE platform SET key_id = record.doc->>'kid'
      FROM lti_record AS record
     WHERE record.collection = 'platform'
       AND record.doc->>'platformUrl' = platform.issuer AND record.doc->>'clientId' = platform.client_id
  `.execute(db);
  await sql`
    UPDATE platform SET private_key = 'ltijs-cbc:' || (record.doc->>'iv') || ':' || (record.doc->>'data')
      FROM lti_record AS record
     WHERE record.collection = 'privatekey' AND record.doc->>'kid' = platform.key_id
  `.execute(db);
  // A key id without its key is no key pair.
  await sql`UPDATE platform SET key_id = NULL WHERE private_key IS NULL`.execute(db);
  await sql`
    UPDATE platform SET active = false
      FROM lti_record AS record
     WHERE record.collection = 'platformStatus' AND record.doc->>'id' = platform.key_id
       AND record.doc->'active' = 'false'::jsonb
  `.execute(db);
  // Registration changes are announced by the platform table's own trigger (migration 0016) from now on.
  await sql`DROP TRIGGER lti_config_record_removed ON lti_record`.execute(db);
  await sql`DROP TRIGGER lti_config_record_written ON lti_record`.execute(db);
  await sql`DELETE FROM lti_record WHERE collection IN ${REGISTRATION_COLLECTIONS}`.execute(db);
  await sql`
    ALTER TABLE platform ADD CONSTRAINT platform_key_pair CHECK ((key_id IS NULL) = (private_key IS NULL))
  `.execute(db);
}

/** Back to ltijs's records: only keys still in ltijs's format can go back; the others are lost with the columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    INSERT INTO lti_record (collection, record_key, doc)
    SELECT 'platform', '[' || to_json(issuer)::text || ',' || to_json(client_id)::text || ']',
           jsonb_build_object('platformName', name, 'platformUrl', issuer, 'clientId', client_id,
             'authEndpoint', auth_url, 'accesstokenEndpoint', token_url,
             'authorizationServer', coalesce(authorization_server, token_url), 'kid', key_id,
             'authConfig', jsonb_build_object('method', 'JWK_SET', 'key', jwks_url))
      FROM platform WHERE private_key LIKE 'ltijs-cbc:%'
    UNION ALL
    SELECT 'privatekey', '[' || to_json(issuer)::text || ',' || to_json(client_id)::text || ']',
           jsonb_build_object('kid', key_id, 'platformUrl', issuer, 'clientId', client_id,
             'iv', split_part(private_key, ':', 2), 'data', split_part(private_key, ':', 3))
      FROM platform WHERE private_key LIKE 'ltijs-cbc:%'
  `.execute(db);
  await sql`
    CREATE TRIGGER lti_config_record_written AFTER INSERT OR UPDATE ON lti_record
    FOR EACH ROW WHEN (NEW.collection IN ${REGISTRATION_COLLECTIONS}) EXECUTE FUNCTION lti_config_changed()`.execute(
    db,
  );
  await sql`
    CREATE TRIGGER lti_config_record_removed AFTER DELETE ON lti_record
    FOR EACH ROW WHEN (OLD.collection IN ${REGISTRATION_COLLECTIONS}) EXECUTE FUNCTION lti_config_changed()`.execute(
    db,
  );
  await sql`ALTER TABLE platform DROP CONSTRAINT platform_key_pair`.execute(db);
  await db.schema.alterTable('platform').dropColumn('key_id').dropColumn('private_key').execute();
}
