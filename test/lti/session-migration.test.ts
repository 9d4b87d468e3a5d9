// Migration 0032 on a database with sessions kept as the release before it kept them: two records per session in the
// shapes ltijs gave them (an idtoken per platform, deployment and user; a contexttoken per context and user, as
// lti/launch-session.ts wrote them before the launch had one shape). They cannot be read as today's launch, so they go;
// what else the storage holds (nonces, service tokens) stays. The person whose session was open gets the sentence of a
// session that ended, in their LMS's frame, and the next launch from the LMS works.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SignJWT } from 'jose';
import { Migrator, sql } from 'kysely';
import { launch } from '../../src/devplatform/agent.js';
import { openDatabase } from '../../src/db/index.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { pageText } from '../support/page-text.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const ENCRYPTION_KEY = 'session-migration-key-0123456789abcdef';
const ISSUER = 'https://lms.example.edu';
const CONTEXT_ID = encodeURIComponent(`${ISSUER}client-1deployment-1course-101_essay_0123abcd`);

let database: TestDatabase;
let tool: TestTool;
let lms: TestPlatform;

/** The rows one launch wrote before 0032, as the launch's statement wrote them (keys and expiry as ltijs's). */
function sessionBefore0032() {
  const idToken = {
    iss: ISSUER,
    user: 'student-1',
    userInfo: { name: 'Sam Student', email: 'sam.student@example.edu' },
    clientId: 'client-1',
    deploymentId: 'deployment-1',
  };
  const contextToken = {
    contextId: CONTEXT_ID,
    user: 'student-1',
    context: { id: 'course-101', title: 'Academic Writing 101' },
    resource: { id: 'essay' },
    messageType: 'LtiResourceLinkRequest',
    version: '1.3.0',
    path: '/lti/launch',
    roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
  };
  return [
    ['idtoken', JSON.stringify([ISSUER, 'client-1', 'deployment-1', 'student-1']), idToken],
    ['contexttoken', JSON.stringify([CONTEXT_ID, 'student-1']), contextToken],
    ['nonce', JSON.stringify(['nonce-before-0032']), { nonce: 'nonce-before-0032' }],
    ['accesstoken', JSON.stringify([ISSUER, 'client-1', 'scope']), { token: 'kept' }],
  ] as const;
}

before(async () => {
  database = await createTestDatabase();
  const opened = await openDatabase({ url: database.url, dataDir: database.dataDir, poolSize: 2, embedded: 'serve' });
  try {
    const migrated = await new Migrator({ db: opened.db, provider: migrationProvider }).migrateTo('0031_one_registry');
    assert.equal(migrated.error, undefined);
    for (const [collection, key, doc] of sessionBefore0032())
      await sql`INSERT INTO lti_record (collection, record_key, doc, expires_at)
                VALUES (${collection}, ${key}, ${JSON.stringify(doc)}::jsonb, now() + interval '1 day')`.execute(
        opened.db,
      );
  } finally {
    await opened.close();
  }
  // Today's tool on that database: it applies 0032 as it starts.
  tool = await startTestTool({ ...database.env, ENCRYPTION_KEY });
  lms = await startTestPlatform(tool, { rules: 'moodle', clientId: 'after-0032' });
  lms.platform.addResourceLink({ id: 'essay', title: 'Essay', lineItem: { label: 'Essay', scoreMaximum: 100 } });
});
after(async () => {
  await lms?.close();
  await tool?.stop();
  await database?.drop();
});

test("the sessions kept in ltijs's two shapes go, and what else the storage holds stays", async () => {
  const { rows } = await sql<{ collection: string }>`
    SELECT collection FROM lti_record ORDER BY collection`.execute(tool.tool.database.db);
  assert.deepEqual(
    rows.map((row) => row.collection).filter((collection) => collection !== 'state'),
    ['accesstoken', 'nonce'],
  );
});

test('the key of a session kept before is told its session ended; a launch from the LMS opens a new one', async () => {
  const ltik = await new SignJWT({
    platformUrl: ISSUER,
    clientId: 'client-1',
    deploymentId: 'deployment-1',
    platformCode: 'lti',
    contextId: CONTEXT_ID,
    user: 'student-1',
    s: 'x',
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(new TextEncoder().encode(ENCRYPTION_KEY));
  const page = await fetch(`${tool.url}/assignments/any/dashboard?ltik=${encodeURIComponent(ltik)}`);
  assert.equal(page.status, 401);
  assert.match(pageText(await page.text()), /Your session with the tool has ended/);

  const again = await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay' });
  assert.equal(again.status, 200, pageText(again.body).slice(0, 300));
  assert.ok(again.ltik);
});
