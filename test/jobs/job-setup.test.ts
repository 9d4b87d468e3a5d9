// The job queues on a real database. Processes of one installation start at once on a fresh database (a
// deployment starts its web and worker processes together): each sets up pg-boss's schema and the tool's queues,
// and none may fail doing so. Each process is a pool of its own here, with its own sessions, which is what the
// database sees of a process. A job that the service asks to wait does so within its expiry. And a process that
// stops while a job outlives its shutdown timeout closes its pool without leaving a rejection unhandled.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { migrateToLatest, openDatabase } from '../../src/db/index.js';
import { Jobs, QUEUES } from '../../src/jobs/index.js';
import { createTestDatabase, openTestDatabase, severalProcessesSkip } from '../support/db.js';
import { eventually } from '../support/wait.js';

const timing = { pollingIntervalSeconds: 1, retryDelaySeconds: 1, retryLimit: 1, expireSeconds: 60, concurrency: 1 };
const quiet = { warn: () => {}, error: () => {} };

describe('job queues set up by processes starting at once', { skip: severalProcessesSkip }, () => {
  test('four processes on a fresh database, five times over: every one starts, each queue exists once', async () => {
    for (let round = 1; round <= 5; round += 1) {
      const testDb = await createTestDatabase();
      // One process has a pool of a single connection, which pg-boss needs while the setup waits its turn.
      const databases = await Promise.all(
        [1, 4, 4, 4].map((poolSize) =>
          openDatabase({ url: testDb.url, dataDir: testDb.dataDir, poolSize, embedded: 'serve' }),
        ),
      );
      try {
        const started = await Promise.allSettled(
          databases.map(async (database) => {
            await migrateToLatest(database.db);
            const jobs = new Jobs(database.pool, timing, quiet);
            await jobs.start();
            await jobs.boss.stop({ graceful: false, wait: true });
          }),
        );
        const failures = started.flatMap((result) =>
          result.status === 'rejected' ? [String((result.reason as Error).message ?? result.reason)] : [],
        );
        assert.deepEqual(failures, [], `round ${round}: a process could not set up the job queues`);
        const queues = await databases[0]!.pool.query<{ name: string }>(
          "SELECT name FROM pgboss.queue WHERE name NOT LIKE '\\_\\_pgboss%' ORDER BY name",
        );
        assert.deepEqual(
          queues.rows.map((row) => row.name),
          Object.values(QUEUES).sort(),
        );
      } finally {
        await Promise.all(databases.map((database) => database.close()));
        await testDb.drop();
      }
    }
  });
});

describe('waits the service asks for', () => {
  test("a job waits as the service's Retry-After asks, but never more than a fifth of its expiry before it fails", async () => {
    const { database, cleanup } = await openTestDatabase(4);
    // Expiry 5 s: waits of 0.4 s may add up to 1 s, so the job runs three times before its first failure.
    const jobs = new Jobs(database.pool, { ...timing, expireSeconds: 5, retryLimit: 1, retryDelaySeconds: 30 }, quiet);
    try {
      await jobs.start();
      const runs: number[] = [];
      const failedOnce = new Promise<void>((resolve) => {
        void jobs.work(QUEUES.poll, async (job) => {
          runs.push(job.retryCount);
          if (job.retryCount > 0) return;
          if (runs.length >= 3) setTimeout(resolve, 1500); // time for a fourth run, were it to come
          throw Object.assign(new Error('429 from the service'), { retryAfterMs: 400 });
        });
      });
      await jobs.send(QUEUES.poll, { submissionId: 'retry-after' }, { key: 'retry-after' });
      await failedOnce;
      assert.deepEqual(
        runs.filter((retry) => retry === 0),
        [0, 0, 0],
      );
    } finally {
      await jobs.boss.stop({ graceful: false, wait: true });
      await cleanup();
    }
  });
});

describe('stopping while a job still runs', () => {
  test('a handler that outlives the shutdown timeout ends after the pool is closed, and nothing is left unhandled', async () => {
    const testDb = await createTestDatabase();
    const database = await openDatabase({ url: testDb.url, dataDir: testDb.dataDir, poolSize: 4, embedded: 'serve' });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await migrateToLatest(database.db);
      const jobs = new Jobs(database.pool, timing, quiet);
      await jobs.start();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let finished!: () => void;
      const handlerDone = new Promise<void>((resolve) => (finished = resolve));
      const running = new Promise<void>((started) => {
        void jobs.work(QUEUES.poll, async () => {
          started();
          await released;
          finished();
        });
      });
      await jobs.send(QUEUES.poll, { submissionId: 'slow' }, { key: 'slow' });
      await running;
      // The shutdown gives up on the job after a second (pg-boss's least), then the pool closes, then the job ends.
      await jobs.stop(1000);
      await database.close();
      release();
      await handlerDone;
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.deepEqual(unhandled.map(String), []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await testDb.drop();
    }
  });
});

describe('a job sent while another with its key runs', () => {
  test("waits its turn without holding up the queue's other jobs", async () => {
    const { database, cleanup } = await openTestDatabase(6);
    const jobs = new Jobs(database.pool, { ...timing, pollingIntervalSeconds: 0.5, concurrency: 2 }, quiet);
    try {
      await jobs.start();
      const sentAt = Date.now();
      const started = new Map<string, number>();
      const ended = new Map<string, number>();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      // Each job says which it is by its submission id.
      await jobs.work(QUEUES.result, async (job) => {
        const name = job.data.submissionId!;
        started.set(name, Date.now() - sentAt);
        if (name === 'first') await released;
        ended.set(name, Date.now() - sentAt);
      });
      await jobs.send(QUEUES.result, { submissionId: 'first' }, { key: 'paper-1' });
      await eventually(() => started.has('first'), 'the first job never started');
      assert.equal(await jobs.isRunning(QUEUES.result, 'paper-1'), true);
      // A second read-back of the same paper while the first runs, and another paper's.
      await jobs.send(QUEUES.result, { submissionId: 'follow-up' }, { key: 'paper-1' });
      const otherSentAt = Date.now() - sentAt;
      await jobs.send(QUEUES.result, { submissionId: 'other paper' }, { key: 'paper-2' });
      await eventually(() => ended.has('other paper'), "the other paper's job waited behind the running one");
      assert.ok(!ended.has('first'), 'the first job was still running when the other paper was done');
      release();
      await eventually(() => ended.has('follow-up'), 'the follow-up never ran', 20_000, 100);
      assert.ok(started.get('follow-up')! >= ended.get('first')!, 'the follow-up ran beside the first');
      assert.ok(started.get('other paper')! >= otherSentAt);
    } finally {
      await jobs.boss.stop({ graceful: false, wait: true });
      await cleanup();
    }
  });
});
