// The smoke test an administrator runs against a new installation (`npm run cli -- smoke`), run against a running
// tool: it plays an LMS, launches, submits, sees the result on the instructor's list and in the played LMS's
// gradebook, and leaves no registration behind; without the loopback network allowed it says what to set.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { listRegistrations } from '../../src/lti/registrations.js';
import { runToExit } from '../support/process.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '300', JOB_POLLING_SECONDS: '0.5', POLL_SCHEDULE_SECONDS: '1,1,2' });
});
after(() => tool?.stop());

test('npm run cli -- smoke launches, submits and reads the result through the running tool, then removes what it made', async () => {
  const env = { ...tool.database.env, ENCRYPTION_KEY: tool.config.encryptionKey, PUBLIC_URL: tool.url };
  const before = (await listRegistrations(tool.tool.database.db)).length;
  const papersBefore = tool.tool.sandbox!.stats().papers;
  const run = await runToExit('cli/main.ts', ['smoke', '--base', tool.url, '--minutes', '3'], env);
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  const steps = run.stdout.split('\n').filter((line) => line.startsWith('✔ '));
  assert.deepEqual(
    steps.map((line) => line.replace(/:.*$/, '')),
    [
      '✔ register a played LMS',
      '✔ launch as the instructor',
      '✔ launch as a student and submit a paper',
      "✔ the result on the instructor's list",
      "✔ the result in the LMS's gradebook",
      '✔ delete the paper, at the service too',
    ],
  );
  assert.match(run.stdout, /similarity \d+ %/);
  assert.match(run.stdout, /gradebook: \w+, comment "Similarity \d+%\./, "the gradebook's comment is the result");
  assert.equal(tool.tool.sandbox!.stats().papers, papersBefore, 'the smoke paper is deleted at the service');
  assert.equal((await listRegistrations(tool.tool.database.db)).length, before, 'the played LMS is removed');
});

test('without the loopback network allowed, the smoke test says what to set and registers nothing', async () => {
  const env = {
    ...tool.database.env,
    ENCRYPTION_KEY: tool.config.encryptionKey,
    PUBLIC_URL: tool.url,
    PLATFORM_PRIVATE_NETWORKS: 'none',
  };
  const run = await runToExit('cli/main.ts', ['smoke', '--base', tool.url], env);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /set PLATFORM_PRIVATE_NETWORKS=127\.0\.0\.1\/32/);
  const bad = await runToExit('cli/main.ts', ['smoke', '--base', 'lti.example.edu'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^--base must be the tool's full http or https address/m);
});
