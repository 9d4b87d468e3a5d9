// Migration 0031 on a database made by the code before it: a platform registered the way that code did (the tool's
// row and deployment, then ltijs's own registerPlatform writing its records and the tool's key pair through the
// storage plugin as it was), migrated, then used by today's tool. The platform's records move into the platform
// table, keys included (sealed again as the tool seals its secrets when the tool starts), no copy is left, and what the LMS already holds goes on working: the key id and public key
// it fetched from /lti/keys, its launches, the tool's deep-linking answer and service tokens signed with the moved
// key, and its notices.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createPublicKey } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import '../../src/lti/ltijs/without-mongoose.js';
// eslint-disable-next-line no-restricted-imports -- the records to migrate are the ones ltijs itself wrote
import ltijs from 'ltijs';
import { launch } from '../../src/devplatform/agent.js';
import type { DevPlatform } from '../../src/devplatform/index.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { accessToken } from '../../src/grades/ags.js';
import { PostgresLtiStorage } from '../../src/lti/storage.js';
import { attachToActivity } from '../support/asset-processor.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { servePlatform, type ServedPlatform } from '../support/platform.js';
import { freePort, startTestTool, type TestTool } from '../support/tool.js';

const ENCRYPTION_KEY = 'migration-test-encryption-key-0123456789';
const REGISTRATION_COLLECTIONS = ['platform', 'platformStatus', 'publickey', 'privatekey'];
const ACTIVITY = { id: 'a7c0e1f2-0000-4000-8000-000000000031', title: 'Essay before the migration' };
/** The key fields of ltijs's registration records, as the storage plugin before 0031 keyed them. */
const KEY_FIELDS: Record<string, string[]> = {
  platform: ['platformUrl', 'clientId'],
  platformStatus: ['id'],
  publickey: ['platformUrl', 'clientId'],
  privatekey: ['platformUrl', 'clientId'],
};

type Doc = Record<string, unknown>;

/**
 * The storage plugin's registration collections as they were before 0031 (lti_record rows, an encrypted item beside
 * its plain index fields), as much of it as ltijs's registerPlatform uses. Its encryption is the plugin's, unchanged.
 */
function pluginBefore0031({ db, pool }: Database) {
  const crypto = new PostgresLtiStorage(pool, async () => []);
  const stored = async (key: string | false, item: Doc, index?: Doc) =>
    key ? { ...index, ...(await crypto.Encrypt(JSON.stringify(item), key)) } : item;
  return {
    async Get(key: string | false, collection: string, query: Doc = {}): Promise<Doc[] | false> {
      const { rows } = await sql<{ doc: Doc }>`
        SELECT doc FROM lti_record WHERE collection = ${collection} AND doc @> ${JSON.stringify(query)}::jsonb
         ORDER BY id`.execute(db);
      if (rows.length === 0) return false;
      if (!key) return rows.map((row) => row.doc);
      return Promise.all(
        rows.map(async (row) => JSON.parse(await crypto.Decrypt(String(row.doc.data), String(row.doc.iv), key)) as Doc),
      );
    },
    async Replace(key: string | false, collection: string, query: Doc, item: Doc, index?: Doc): Promise<true> {
      const doc = await stored(key, item, index);
      const recordKey = JSON.stringify(KEY_FIELDS[collection]!.map((field) => ({ ...doc, ...query })[field] ?? null));
      await sql`
        INSERT INTO lti_record (collection, record_key, doc) VALUES (${collection}, ${recordKey}, ${JSON.stringify(doc)}::jsonb)
        ON CONFLICT (collection, record_key) DO UPDATE SET doc = excluded.doc`.execute(db);
      return true;
    },
    async Delete(collection: string, query: Doc): Promise<true> {
      await sql`DELETE FROM lti_record WHERE collection = ${collection} AND doc @> ${JSON.stringify(query)}::jsonb`.execute(
        db,
      );
      return true;
    },
  };
}

/** Registers a platform as the code before 0031 did (lti/registrations.ts's saveRegistration then). */
async function registerBefore0031(opened: Database, platform: ReturnType<DevPlatform['registration']>): Promise<void> {
  const provider = ltijs.Provider as unknown as {
    registerPlatform(record: Doc, getPlatform: undefined, key: string, database: unknown): Promise<unknown>;
  };
  await provider.registerPlatform(
    {
      url: platform.issuer,
      clientId: platform.clientId,
      name: platform.name,
      authenticationEndpoint: platform.authUrl,
      accesstokenEndpoint: platform.tokenUrl,
      authorizationServer: platform.tokenUrl,
      authConfig: { method: 'JWK_SET', key: platform.jwksUrl },
    },
    undefined,
    ENCRYPTION_KEY,
    pluginBefore0031(opened),
  );
  await sql`
    WITH platform AS (
      INSERT INTO platform (name, issuer, client_id, auth_url, token_url, jwks_url, registered_by)
      VALUES (${platform.name}, ${platform.issuer}, ${platform.clientId}, ${platform.authUrl}, ${platform.tokenUrl},
              ${platform.jwksUrl}, 'cli')
      RETURNING id
    )
    INSERT INTO platform_deployment (platform_id, deployment_id) SELECT id, ${platform.deploymentId} FROM platform
  `.execute(opened.db);
}

let database: TestDatabase;
let tool: TestTool;
let lms: ServedPlatform;
/** What ltijs held before the migration: the tool's key id and key pair for the LMS. */
let before0031: { kid: string; privateKey: string; publicKey: string };

before(async () => {
  database = await createTestDatabase();
  const port = await freePort();
  const toolUrl = `http://127.0.0.1:${port}`;
  lms = await servePlatform(toolUrl, { rules: 'canvas', clientId: 'before-0031' });
  const opened = await openDatabase({
    url: database.url,
    dataDir: database.dataDir,
    poolSize: 4,
    embedded: 'serve',
  });
  try {
    const migrated = await new Migrator({ db: opened.db, provider: migrationProvider }).migrateTo(
      '0030_received_files',
    );
    assert.equal(migrated.error, undefined);
    await registerBefore0031(opened, lms.platform.registration());
    // A record of ltijs's alone (the tool's table does not know it): it could never launch, and goes.
    await registerBefore0031(opened, { ...lms.platform.registration(), clientId: 'ltijs-only' });
    await sql`DELETE FROM platform WHERE client_id = 'ltijs-only'`.execute(opened.db);
    const plugin = pluginBefore0031(opened);
    const [record] = (await plugin.Get(false, 'platform', { clientId: 'before-0031' })) || [];
    const kid = String(record?.kid);
    const [privateKey] = (await plugin.Get(ENCRYPTION_KEY, 'privatekey', { kid })) || [];
    const [publicKey] = (await plugin.Get(ENCRYPTION_KEY, 'publickey', { kid })) || [];
    before0031 = { kid, privateKey: String(privateKey?.key), publicKey: String(publicKey?.key) };
    assert.match(before0031.privateKey, /BEGIN RSA PRIVATE KEY/);
  } finally {
    await opened.close();
  }
  // Today's tool on that database: it applies 0031 as it starts.
  tool = await startTestTool({
    ...database.env,
    PORT: String(port),
    ENCRYPTION_KEY,
    ASSET_PROCESSOR: 'on',
    DEV_PLATFORM: 'off',
  });
});
after(async () => {
  await lms?.close();
  await tool?.stop();
  await database?.drop();
});

test("ltijs's records move into the platform table, keys included, and no copy is left", async () => {
  const { rows } = await sql<{ collection: string }>`
    SELECT collection FROM lti_record WHERE collection IN (${sql.join(REGISTRATION_COLLECTIONS)})`.execute(
    tool.tool.database.db,
  );
  assert.deepEqual(rows, [], 'ltijs still holds registration records');
  const row = await tool.tool.database.db.selectFrom('platform').select(['client_id', 'key_id']).execute();
  assert.deepEqual(row, [{ client_id: 'before-0031', key_id: before0031.kid }]);
  const platform = await tool.tool.platforms.getPlatform(lms.platform.registration().issuer, 'before-0031');
  assert.ok(platform);
  assert.equal(await platform.platformKid(), before0031.kid);
  assert.equal(await platform.platformPrivateKey(), before0031.privateKey);
  // The migration moved the key sealed as ltijs sealed it; the tool's start sealed it again as it seals its secrets.
  const { private_key: sealed } = await tool.tool.database.db
    .selectFrom('platform')
    .select('private_key')
    .executeTakeFirstOrThrow();
  assert.ok(sealed && !sealed.startsWith('ltijs-cbc:'), 'the key is still sealed as ltijs sealed it');
  assert.ok(
    tool.logs.some((line) => line.includes("The tool's keys for 1 platform(s) sealed again")),
    'the start did not say it sealed the key again',
  );
});

test('/lti/keys publishes the key id and public key the LMS fetched before', async () => {
  const answer = await fetch(`${tool.url}/lti/keys`);
  assert.equal(answer.status, 200);
  const { keys } = (await answer.json()) as { keys: Array<{ kid: string; n: string; e: string }> };
  const expected = createPublicKey(before0031.publicKey).export({ format: 'jwk' });
  assert.deepEqual(
    keys.map(({ kid, n, e }) => ({ kid, n, e })),
    [{ kid: before0031.kid, n: expected.n, e: expected.e }],
  );
});

test("the LMS's launches verify, it accepts the tool's deep-linking answer and service token, and its notices verify", async () => {
  lms.platform.addResourceLink({ id: 'after-0031', title: 'After the migration' });
  const launched = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'after-0031' });
  assert.equal(launched.status, 200, launched.body.slice(0, 300));
  // The deep-linking answer is signed with the moved key, and the platform checks it against /lti/keys.
  await attachToActivity(tool, lms, ACTIVITY);
  const registration = lms.platform.registration();
  const token = await accessToken(
    tool.tool.platforms,
    { issuer: registration.issuer, clientId: registration.clientId },
    'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  );
  assert.ok(token.length > 0);
  const notice = await lms.platform.sign(
    lms.platform.submissionNotice({
      activityId: ACTIVITY.id,
      submissionId: 'sub-0031',
      userId: 'student-1',
      assets: [
        {
          asset_id: 'asset-0031',
          url: `${registration.issuer}/assets/asset-0031`,
          sha256_checksum: 'a'.repeat(64),
          size: 1234,
          content_type: 'application/pdf',
          title: 'essay.pdf',
          filename: 'essay.pdf',
        },
      ],
    }),
  );
  const answer = await fetch(`${tool.url}/asset-processor/notices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ notices: [{ jwt: notice }] }),
  });
  assert.equal(answer.status, 200, await answer.text());
  const kept = await tool.tool.database.db.selectFrom('lms_asset').select('asset_id').execute();
  assert.deepEqual(kept, [{ asset_id: 'asset-0031' }]);
});
