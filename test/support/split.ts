// The tool as it runs at scale: a web process (ROLE=web) and worker processes (ROLE=worker), each started as
// `npm start` starts it with a DATA_DIR of its own (they share the database and nothing else), on one PostgreSQL
// database; the sandbox as the checking service and a course on a dev platform in this process, and a connection of
// the test's own to read the database.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../src/db/index.js';
import { DEMO_USER, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { openCourse, type TestCourse } from './course.js';
import { createTestDatabase } from './db.js';
import { registerWithCli, servePlatform } from './platform.js';
import { startToolProcess, type ToolProcess } from './process.js';
import { FAST_JOBS, freePort } from './tool.js';

export interface SplitTool {
  sandbox: Sandbox;
  web: ToolProcess;
  /** The test's own connection to the tool's database (application_name "hardening-test"). */
  database: Database;
  /** The settings every process of the installation shares. */
  env: Record<string, string>;
  course: TestCourse;
  /** Starts one more worker process; close() kills those still running. */
  startWorker(): Promise<ToolProcess>;
  close(): Promise<void>;
}

export async function startSplitTool(options: { clientId: string; env?: Record<string, string> }): Promise<SplitTool> {
  const testDatabase = await createTestDatabase();
  const secret = randomBytes(18).toString('hex');
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const sandbox = await startSandbox({ delayMs: 300, callbackUrl: `${publicUrl}/checker/callback/${secret}` });
  // Every process of an installation shares these settings (the queues take them from whichever starts last).
  const shared = {
    ...testDatabase.env,
    ENCRYPTION_KEY: randomBytes(24).toString('hex'),
    CHECKER_URL: sandbox.url,
    CHECKER_USERNAME: DEMO_USER.email,
    CHECKER_PASSWORD: DEMO_USER.password,
    CALLBACK_SECRET: secret,
    PUBLIC_URL: publicUrl,
    HOST: '127.0.0.1',
    JOB_EXPIRE_SECONDS: '5',
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '30',
    POLL_SCHEDULE_SECONDS: '2',
    ...options.env,
  };
  const web = await startToolProcess({ ...shared, ROLE: 'web', PORT: String(port) });
  const lms = await servePlatform(publicUrl, { clientId: options.clientId });
  await registerWithCli(shared, lms.platform.registration());
  const course = await openCourse({ url: publicUrl }, { clientId: options.clientId, lms });
  const database = await openDatabase({
    url: `${testDatabase.url}?application_name=hardening-test`,
    dataDir: testDatabase.dataDir,
    poolSize: 2,
    embedded: 'serve',
  });
  const processes: ToolProcess[] = [web];
  const workerDirs: string[] = [];
  return {
    sandbox,
    web,
    database,
    env: shared,
    course,
    startWorker: async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'olti-worker-'));
      workerDirs.push(dataDir);
      const worker = await startToolProcess({ ...shared, DATA_DIR: dataDir, ROLE: 'worker' });
      processes.push(worker);
      return worker;
    },
    close: async () => {
      for (const child of processes)
        if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
      await database.close();
      await lms.close();
      await sandbox.close();
      await testDatabase.drop();
      for (const dir of workerDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
