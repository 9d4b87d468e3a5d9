// A worker (ROLE=worker) finds the registered platforms and the tool's key for each in the platform table, without
// loading ltijs: it posts grades and asset reports with them, and ltijs serves web requests only. Its own test file,
// so that nothing else of the tests has loaded ltijs into this process.
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { saveRegistration } from '../../src/lti/registrations.js';
import { DEMO_USER, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { severalProcessesSkip } from '../support/db.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const loaded = createRequire(import.meta.url).cache;
const ltijsLoaded = () => Object.keys(loaded).some((path) => path.includes('/node_modules/ltijs/'));

let sandbox: Sandbox;
let worker: TestTool;

before(async () => {
  if (severalProcessesSkip) return;
  // A worker shares the checking service with the web processes: one of its own here.
  sandbox = await startSandbox({ delayMs: 300, callbackUrl: 'http://127.0.0.1:9/checker/callback/unused' });
  worker = await startTestTool({
    ROLE: 'worker',
    CHECKER_URL: sandbox.url,
    CHECKER_USERNAME: DEMO_USER.email,
    CHECKER_PASSWORD: DEMO_USER.password,
  });
});
after(async () => {
  await worker?.stop();
  await sandbox?.close();
});

// A worker of its own needs PostgreSQL: the embedded database serves one process (the configuration says so).
test(
  'a worker looks a platform and its key up in the platform table, and ltijs is not loaded',
  { skip: severalProcessesSkip },
  async () => {
    assert.equal(worker.tool.lti, null);
    const registration = await saveRegistration(
      { db: worker.tool.database.db, provider: worker.tool.platforms },
      {
        name: 'Moodle of a school',
        issuer: 'https://moodle.school.example',
        clientId: 'worker-client',
        deploymentId: '1',
        authUrl: 'https://moodle.school.example/mod/lti/auth.php',
        tokenUrl: 'https://moodle.school.example/mod/lti/token.php',
        jwksUrl: 'https://moodle.school.example/mod/lti/certs.php',
      },
      'cli',
    );
    const platform = await worker.tool.platforms.getPlatform(registration.issuer, registration.clientId);
    assert.ok(platform, 'the worker finds the platform');
    assert.equal(await platform.platformAccessTokenEndpoint(), 'https://moodle.school.example/mod/lti/token.php');
    // Moodle's token endpoint is its own audience: no authorization server of its own was given.
    assert.equal(await platform.platformAuthorizationServer(), 'https://moodle.school.example/mod/lti/token.php');
    assert.equal(createPrivateKey(await platform.platformPrivateKey()).asymmetricKeyDetails?.modulusLength, 4096);
    assert.match(await platform.platformKid(), /^[0-9a-f]{32}$/);
    assert.equal(ltijsLoaded(), false, 'the worker loaded ltijs');
    // The probe sees ltijs once something loads it.
    await import('../../src/lti/ltijs/provider.js');
    assert.equal(ltijsLoaded(), true, 'the probe does not see ltijs loaded');
  },
);
