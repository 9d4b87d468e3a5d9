// Several processes on one PostgreSQL database: two ROLE=web behind a round-robin balancer and two ROLE=worker,
// each a real `node src/main.ts` with a DATA_DIR of its own (as on machines of their own: they share the database
// and nothing else), one checking service (the sandbox, here) and one platform. A deadline's worth of students
// launch and submit; one worker is stopped with SIGTERM while papers are on their way. Every paper reaches the
// service once with the bytes the student sent, every submission is scored and graded once, both workers did the
// work, and no process wrote a received file to its folder.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { DEMO_USER, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createTestDatabase, severalProcessesSkip, type TestDatabase } from '../support/db.js';
import { startForwarder, type Forwarder } from '../support/forwarder.js';
import { registerWithCli, servePlatform, type ServedPlatform } from '../support/platform.js';
import { startToolProcess, type ToolProcess } from '../support/process.js';
import { isResult, shownSimilarity } from '../support/gradebook-cell.js';
import { FAST_JOBS } from '../support/tool.js';

const STUDENTS = 300;
/** Built, as a deployment runs it (the test runner builds first); four starting at once on a busy machine are slow. */
const STARTING = { entry: 'built', timeoutMs: 180_000 } as const;
const skip = severalProcessesSkip;

let database: TestDatabase;
let pool: pg.Pool;
let sandbox: Sandbox;
let balancer: Forwarder;
let lms: ServedPlatform;
/** What each worker sends to the service, seen from the service's side. */
const serviceFronts: Forwarder[] = [];
const webs: ToolProcess[] = [];
const workers: ToolProcess[] = [];
let shared: Record<string, string>;
/** Each process's own DATA_DIR. */
const dataDirs: string[] = [];
const ownDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'olti-scale-'));
  dataDirs.push(dir);
  return { DATA_DIR: dir };
};

const essay = (n: number) =>
  Array.from(
    { length: 20 },
    (_, i) => `Student ${n} argues point ${i} about topic ${(n * 13 + i) % 101} with source ${n * 3 + i}.`,
  ).join(' ');
const uploadsVia = (front: Forwarder) =>
  front.forwarded.filter((r) => r.method === 'POST' && r.path.endsWith('/singleFile')).length;
const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0]!.n);

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every tool process this file started: each is ended however the file ends. */
const owned: ToolProcess[] = [];
function own(tool: ToolProcess): ToolProcess {
  owned.push(tool);
  return tool;
}
const running = (tool: ToolProcess) => tool.child.exitCode === null && tool.child.signalCode === null;
/** SIGTERM, and SIGKILL for a process still there after 30 s: a teardown that waits forever leaks the rest. */
async function end(tool: ToolProcess): Promise<void> {
  if (!running(tool)) return;
  const killed = setTimeout(() => tool.child.kill('SIGKILL'), 30_000);
  await tool.stop();
  clearTimeout(killed);
}
// A file that ends before its teardown (an error outside the tests, the runner's SIGTERM or Ctrl-C) ends them too.
process.once('exit', () => owned.filter(running).forEach((tool) => tool.child.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.once(signal, () => {
    owned.filter(running).forEach((tool) => tool.child.kill('SIGKILL'));
    process.kill(process.pid, signal);
  });

before(async () => {
  if (skip) return;
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url!, max: 2 });
  balancer = await startForwarder();
  const secret = randomBytes(18).toString('hex');
  sandbox = await startSandbox({
    delayMs: 500,
    callbackUrl: `${balancer.url}/checker/callback/${secret}`,
    faults: { slowMs: 80 },
  });
  shared = {
    DATABASE_URL: database.url!,
    ENCRYPTION_KEY: randomBytes(24).toString('hex'),
    CALLBACK_SECRET: secret,
    PUBLIC_URL: balancer.url,
    HOST: '127.0.0.1',
    CHECKER_USERNAME: DEMO_USER.email,
    CHECKER_PASSWORD: DEMO_USER.password,
    ...FAST_JOBS,
    POLL_SCHEDULE_SECONDS: '5',
  };
  for (let i = 0; i < 2; i += 1) serviceFronts.push(await startForwarder([sandbox.url]));
  // All four at once, as a deployment starts them: migrations and the job schema are set up by whoever is first.
  // Each is kept for the teardown as soon as it is up, whether or not the others start.
  const starting = [
    ...[0, 1].map(() =>
      startToolProcess({ ...shared, ...ownDataDir(), ROLE: 'web', CHECKER_URL: sandbox.url }, STARTING).then(own),
    ),
    ...serviceFronts.map((front) =>
      startToolProcess({ ...shared, ...ownDataDir(), ROLE: 'worker', CHECKER_URL: front.url }, STARTING).then(own),
    ),
  ];
  const outcomes = await Promise.allSettled(starting);
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  const started = outcomes.map((outcome) => (outcome as PromiseFulfilledResult<ToolProcess>).value);
  webs.push(...started.slice(0, 2));
  workers.push(...started.slice(2));
  balancer.setTargets(webs.map((web) => web.url));
  lms = await servePlatform(balancer.url);
  lms.platform.addResourceLink({ id: 'essay', title: 'Essay', lineItem: { label: 'Essay', scoreMaximum: 100 } });
  for (let i = 1; i <= STUDENTS; i += 1)
    lms.platform.addUser({ id: `s-${i}`, name: `Student ${i}`, email: `s-${i}@example.edu`, roles: ROLES.learner });
  await registerWithCli(
    { DATABASE_URL: database.url!, ...ownDataDir(), ENCRYPTION_KEY: shared.ENCRYPTION_KEY! },
    lms.platform.registration(),
  );
});

after(async () => {
  if (skip) return;
  await Promise.all(owned.map(end));
  await lms?.close();
  await Promise.all([balancer, ...serviceFronts].map((forwarder) => forwarder.close()));
  await sandbox?.close();
  await pool?.end();
  await database?.drop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe('two web and two worker processes on one PostgreSQL database', { skip }, () => {
  test('a surge is shared by both workers, survives one stopping, and every paper is sent, scored and graded once', async (t) => {
    const instructor = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    assert.equal(instructor.status, 200, instructor.body);
    const assignment = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');

    // Launches through the balancer: a login and its id_token post land on either web process.
    const ltiks: string[] = [];
    for (let first = 1; first <= STUDENTS; first += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          launch(lms.platform, { userId: `s-${first + i}`, resourceLinkId: 'essay' }),
        ),
      );
      for (const result of batch) {
        assert.equal(result.status, 200, result.body.slice(0, 300));
        ltiks.push(result.ltik!);
      }
    }
    const served = new Set(balancer.forwarded.filter((r) => r.path.startsWith('/lti/launch')).map((r) => r.target));
    assert.equal(served.size, 2, 'both web processes took launches');

    const receipts: string[] = [];
    const submitting = (async () => {
      for (let first = 0; first < STUDENTS; first += 20) {
        const batch = await Promise.all(
          ltiks.slice(first, first + 20).map(async (ltik, i) => {
            const form = new FormData();
            form.append('file', new Blob([essay(first + i)]), `essay-${first + i}.txt`);
            const response = await fetch(`${balancer.url}${assignment}/submissions`, {
              method: 'POST',
              body: form,
              headers: { authorization: `Bearer ${ltik}`, accept: 'application/json' },
            });
            const body = (await response.json()) as { submissionId?: string; sha256?: string; error?: string };
            assert.equal(response.status, 201, body.error);
            assert.equal(
              body.sha256,
              createHash('sha256')
                .update(essay(first + i))
                .digest('hex'),
            );
            return body.submissionId!;
          }),
        );
        receipts.push(...batch);
      }
    })();

    // Mid-surge, with uploads of its own on their way to the service, one worker is told to stop.
    await until('both workers uploading', () => serviceFronts.every((front) => uploadsVia(front) >= 10), 60_000);
    await until('an upload of the first worker in flight', () => serviceFronts[0]!.inFlight() > 0, 10_000);
    const stopping = workers[0]!;
    const inFlightAtStop = serviceFronts[0]!.inFlight();
    assert.equal(await stopping.stop(), 0, stopping.output());
    assert.match(stopping.output(), /Shutdown complete/);
    const sentByStopped = uploadsVia(serviceFronts[0]!);
    await submitting;
    assert.equal(receipts.length, STUDENTS);

    await until(
      'every submission graded',
      async () => (await count(`SELECT count(*) AS n FROM submission WHERE state = 'graded'`)) === STUDENTS,
      120_000,
    );
    // Anything sent twice shows once no job is left to run: uploads, read-backs and grade posts, and the polls still
    // scheduled for papers whose result came by callback (all are graded, so each poll ends at once, sending nothing).
    await until(
      'every job run',
      async () =>
        (await count(
          `SELECT count(*) AS n FROM pgboss.job WHERE state IN ('created', 'retry', 'active') AND name NOT LIKE '__pgboss%'`,
        )) === 0,
      60_000,
    );

    // Every paper at the service exactly once, each under its own submission.
    assert.equal(sandbox.stats().papers, STUDENTS);
    assert.equal(uploadsVia(serviceFronts[0]!) + uploadsVia(serviceFronts[1]!), STUDENTS, 'an upload was sent twice');
    assert.equal(await count(`SELECT count(DISTINCT paper_id) AS n FROM submission`), STUDENTS);
    // The other worker finished what the stopped one left, without the minute-long sweep for forgotten work.
    assert.equal(uploadsVia(serviceFronts[0]!), sentByStopped, 'the stopped worker went on sending');
    t.diagnostic(
      `papers sent by the stopped worker: ${sentByStopped} (${inFlightAtStop} requests in flight at SIGTERM), by the other: ${uploadsVia(serviceFronts[1]!)}`,
    );
    assert.doesNotMatch(workers[1]!.output(), /Re-queued submissions that had no job/);
    assert.equal(await count(`SELECT count(*) AS n FROM pgboss.job WHERE state = 'failed'`), 0);
    // The files crossed from the web processes to the workers through the database alone, and are gone from it.
    assert.equal(await count(`SELECT count(*) AS n FROM received_file_chunk`), 0, 'a sent file is still kept');
    for (const dir of dataDirs) assert.ok(!readdirSync(dir).includes('uploads'), `a file was written to ${dir}`);

    // Scored once and graded once each; the gradebook holds each student's score.
    for (const state of ['uploading', 'processing', 'scored', 'graded']) {
      assert.equal(
        await count(
          `SELECT count(*) AS n FROM (SELECT submission_id FROM submission_event WHERE to_state = '${state}' GROUP BY submission_id HAVING count(*) = 1) once`,
        ),
        STUDENTS,
        `not every submission moved to ${state} exactly once`,
      );
    }
    const scores = new Map(
      (
        await pool.query<{ subject: string; similarity: string }>(
          `SELECT u.subject, s.similarity FROM submission s JOIN lti_user u ON u.id = s.user_id`,
        )
      ).rows.map((row) => [row.subject, Number(row.similarity)]),
    );
    const book = lms.platform.gradebook().filter((row) => isResult(row.gradingProgress));
    assert.equal(book.length, STUDENTS);
    for (const row of book) assert.equal(shownSimilarity(row), scores.get(row.userId), `score of ${row.userId}`);
  });
});
