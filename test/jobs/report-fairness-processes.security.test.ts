// report-fairness.security.test.ts across two ROLE=worker processes (real `node src/main.ts`, each with a DATA_DIR of its
// own) that share only the PostgreSQL database, and the web side in this process: LMS A's slow report service holds
// at most each process's places less one, and LMS B's first report still comes within seconds of its notice.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEMO_USER, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { severalProcessesSkip as skip } from '../support/db.js';
import { startToolProcess, type ToolProcess } from '../support/process.js';
import * as slow from '../support/slow-lms.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const WORKERS = 2;
let web: TestTool;
let sandbox: Sandbox;
let schools: slow.School;
const workers: ToolProcess[] = [];
const dirs: string[] = [];

before(async () => {
  if (skip) return;
  sandbox = await startSandbox({ delayMs: 300 });
  const shared = {
    ...slow.jobSettings,
    ENCRYPTION_KEY: randomBytes(24).toString('hex'),
    CHECKER_URL: sandbox.url,
    CHECKER_USERNAME: DEMO_USER.email,
    CHECKER_PASSWORD: DEMO_USER.password,
  };
  web = await startTestTool({ ...shared, ROLE: 'web' });
  schools = await slow.openSchools(web);
  const workerEnv = { ...shared, DATABASE_URL: web.database.url!, HOST: '127.0.0.1', ROLE: 'worker' };
  for (let i = 0; i < WORKERS; i += 1) {
    const dir = mkdtempSync(join(tmpdir(), 'olti-fair-worker-'));
    dirs.push(dir);
    workers.push(await startToolProcess({ ...workerEnv, DATA_DIR: dir }, { timeoutMs: 120_000 }));
  }
});
after(async () => {
  if (skip) return;
  for (const worker of workers) worker.child.kill('SIGKILL');
  await slow.closeSchools(schools);
  await web?.stop();
  await sandbox?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('one LMS slow to take reports cannot stall another school, across two worker processes', { skip }, () => {
  test(
    "LMS B's first report comes within seconds behind LMS A's 16 slow ones; A holds at most its places in each process",
    { timeout: 240_000 },
    async () => {
      const places = WORKERS * (slow.CONCURRENCY - 1);
      const { firstReportMs, mostOfA } = await slow.delayBehindSlowLms(schools, places);
      console.log(
        `${WORKERS} worker processes: LMS B's first report ${firstReportMs} ms after its notice, behind ${slow.A_FILES} files of LMS A whose reports take ${slow.SLOW_MS} ms each; A held ${mostOfA} of ${WORKERS * slow.CONCURRENCY} places at most`,
      );
      assert.ok(firstReportMs < slow.B_WITHIN_MS, `B's first report came ${firstReportMs} ms after its notice`);
      assert.equal(mostOfA, places, "A's reports held every place but one of each process, and no more");
    },
  );
});
