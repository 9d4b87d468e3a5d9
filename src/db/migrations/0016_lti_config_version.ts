// What a launch reads of the registrations (platform, deployments, ltijs's platform record, its status, the
// tool's keys, the learnt frame origins) changes seldom and is kept in each process's memory
// (src/lti/registration-cache.ts). One number says whether that memory is still good: every change to those rows
// raises it in the same transaction, whoever makes it (the CLI, the admin page, another process, SQL by hand),
// and a process that reads a higher number forgets what it kept. Triggers rather than calls in the code, so that
// no writer can forget it; PGlite has no LISTEN/NOTIFY across its socket, so the number is read, not announced.
import { sql, type Kysely } from 'kysely';

/** ltijs's collections a launch reads; nonces, states and tokens are written by launches and never kept. */
const CONFIG_COLLECTIONS = sql`('platform', 'platformStatus', 'publickey', 'privatekey')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE lti_config_version (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      version bigint NOT NULL DEFAULT 1
    )`.execute(db);
  await sql`INSERT INTO lti_config_version DEFAULT VALUES`.execute(db);
  await sql`
    CREATE FUNCTION lti_config_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE lti_config_version SET version = version + 1;
      RETURN NULL;
    END $$`.execute(db);
  // Row triggers: they fire only for rows really written (a learnt frame origin's ON CONFLICT DO NOTHING on every
  // launch changes nothing and must not empty every process's memory).
  for (const table of ['platform', 'platform_deployment', 'platform_frame_origin']) {
    await sql`
      CREATE TRIGGER ${sql.raw(`${table}_changed`)} AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(table)}
      FOR EACH ROW EXECUTE FUNCTION lti_config_changed()`.execute(db);
  }
  await sql`
    CREATE TRIGGER lti_config_record_written AFTER INSERT OR UPDATE ON lti_record
    FOR EACH ROW WHEN (NEW.collection IN ${CONFIG_COLLECTIONS}) EXECUTE FUNCTION lti_config_changed()`.execute(db);
  await sql`
    CREATE TRIGGER lti_config_record_removed AFTER DELETE ON lti_record
    FOR EACH ROW WHEN (OLD.collection IN ${CONFIG_COLLECTIONS}) EXECUTE FUNCTION lti_config_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER lti_config_record_removed ON lti_record`.execute(db);
  await sql`DROP TRIGGER lti_config_record_written ON lti_record`.execute(db);
  for (const table of ['platform', 'platform_deployment', 'platform_frame_origin']) {
    await sql`DROP TRIGGER ${sql.raw(`${table}_changed`)} ON ${sql.table(table)}`.execute(db);
  }
  await sql`DROP FUNCTION lti_config_changed()`.execute(db);
  await sql`DROP TABLE lti_config_version`.execute(db);
}
