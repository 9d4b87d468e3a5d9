// Service accounts: a platform with its own account at the checking service sends its papers there; the others use
// the default account. Set up with the CLI, as an administrator would; the password is stored sealed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { listRegistrations } from '../../src/lti/registrations.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runToExit } from '../support/process.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { startTestPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';

const UNIVERSITY = { email: 'integration@uni-b.example.edu', password: 'uni-b secret 7%$', name: 'University B' };

let tool: TestTool;
let ownAccount: Sandbox;
let courseA: TestCourse;
let courseB: TestCourse;
let cliEnv: Record<string, string>;

before(async () => {
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '200',
    POLL_SCHEDULE_SECONDS: '1',
    ...FAST_JOBS,
  });
  ownAccount = await startSandbox({
    users: [UNIVERSITY],
    delayMs: 200,
    callbackUrl: `${tool.url}/checker/callback/${tool.config.callbackSecret}`,
  });
  cliEnv = { ...tool.database.env, ENCRYPTION_KEY: tool.config.encryptionKey, PUBLIC_URL: tool.url };
});
after(async () => {
  await courseA?.lms.close();
  await courseB?.lms.close();
  await ownAccount.close();
  await tool.stop();
});

async function scored(id: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const row = await tool.tool.database.db
      .selectFrom('submission')
      .select('state')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (row.state === 'scored' || row.state === 'graded') return;
    if (Date.now() > deadline) throw new Error(`submission ${id} stayed ${row.state}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('a platform with its own account sends its papers there; the other platform uses the default account', async () => {
  const added = await runToExit(
    'cli/main.ts',
    ['account', 'add', '--name', 'University B', '--url', ownAccount.url, '--username', UNIVERSITY.email],
    cliEnv,
    { input: `${UNIVERSITY.password}\n` },
  );
  assert.equal(added.code, 0, added.stderr);
  const accountId = /id: +([0-9a-f-]{36})/.exec(added.stdout)?.[1];
  assert.ok(accountId, added.stdout);
  assert.doesNotMatch(added.stdout + added.stderr, /uni-b secret/, 'the password is never printed');
  const stored = await tool.tool.database.db
    .selectFrom('checker_account')
    .select('password_encrypted')
    .executeTakeFirstOrThrow();
  assert.doesNotMatch(stored.password_encrypted, /uni-b secret/, 'the password is stored sealed');

  const tested = await runToExit('cli/main.ts', ['account', 'test', accountId], cliEnv);
  assert.equal(tested.code, 0, tested.stderr);
  assert.match(tested.stdout, /The login works/);

  // The platform is registered first, then given its account; its assignment is created after that.
  courseA = await openCourse(tool, { clientId: 'uni-a' });
  const lmsB = await startTestPlatform(tool, { clientId: 'uni-b' });
  const platformB = (await listRegistrations(tool.tool.database.db)).find(
    (registration) => registration.issuer === lmsB.platform.registration().issuer,
  )!;
  const used = await runToExit('cli/main.ts', ['account', 'use', accountId, '--platform', platformB.id], cliEnv);
  assert.equal(used.code, 0, used.stderr);

  const defaultBefore = tool.tool.sandbox!.stats().papers;
  courseB = await openCourse(tool, { clientId: 'uni-b', lms: lmsB });
  const fromA = await courseA.submit('student-1', 'Rivers carve valleys over long ages. '.repeat(30));
  const fromB = await courseB.submit('student-1', 'Glaciers grind mountains into plains. '.repeat(30));
  await Promise.all([scored(fromA), scored(fromB)]);
  assert.equal(tool.tool.sandbox!.stats().papers - defaultBefore, 1, "platform A's paper is in the default account");
  assert.equal(ownAccount.stats().papers, 1, "platform B's paper is in its own account");

  const listed = await runToExit('cli/main.ts', ['account', 'list'], cliEnv);
  assert.match(listed.stdout, /used by: +1 platform\(s\), 1 assignment\(s\)/);
  const refused = await runToExit('cli/main.ts', ['account', 'remove', accountId], cliEnv);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /Assignments keep their folders in this account/);
});

test('a wrong password is named as such by "account test"; a missing password is refused', async () => {
  const added = await runToExit(
    'cli/main.ts',
    ['account', 'add', '--name', 'Mistyped', '--url', ownAccount.url, '--username', 'nobody@uni-b.example.edu'],
    cliEnv,
    { input: 'wrong\n' },
  );
  assert.equal(added.code, 0, added.stderr);
  const accountId = /id: +([0-9a-f-]{36})/.exec(added.stdout)![1]!;
  const tested = await runToExit('cli/main.ts', ['account', 'test', accountId], cliEnv);
  assert.equal(tested.code, 1);
  assert.match(tested.stderr, /The login failed: .*(password|credentials|unauthori[sz]ed)/i);
  const empty = await runToExit(
    'cli/main.ts',
    ['account', 'add', '--name', 'Empty', '--url', ownAccount.url, '--username', 'x@uni-b.example.edu'],
    cliEnv,
    { input: '' },
  );
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /^The password is required: read from standard input or ACCOUNT_PASSWORD/m);
  const removed = await runToExit('cli/main.ts', ['account', 'remove', accountId], cliEnv);
  assert.equal(removed.code, 0, removed.stderr);
});
