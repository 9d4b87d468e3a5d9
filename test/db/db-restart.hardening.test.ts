// The database restarting under load (PostgreSQL): in the middle of a surge of submissions every connection of the
// web and worker processes is cut from the server side, again and again, as a restart does. Students whose launch
// or upload failed try again; every receipt given ends scored, once at the service, and in the gradebook, and both
// processes are still up and answering.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config/config.js';
import { Jobs } from '../../src/jobs/index.js';
import { createLogger } from '../../src/observe/logger.js';
import { sweepForgottenWork } from '../../src/submissions/sweep.js';
import { backend } from '../support/db.js';
import { allowResubmission, essay, recordFigures, settle, sleep, tally } from '../support/hardening.js';
import type { ToolProcess } from '../support/process.js';
import { startSplitTool, type SplitTool } from '../support/split.js';

const STUDENTS = 16;
const CUTS = 6;
const onPglite = backend === 'pglite' ? 'cutting connections from the server side needs PostgreSQL' : false;
const oneProcessOnly =
  backend === 'pglite'
    ? 'needs separate web and worker processes, which share a PostgreSQL server; the embedded database serves one process'
    : false;

let split: SplitTool;
let worker: ToolProcess;
const db = () => split.database.db;

before(async () => {
  if (onPglite) return;
  // Longer than a job takes while connections come back: a job running past it is handed to another worker slot.
  split = await startSplitTool({ clientId: 'restart-course', env: { JOB_EXPIRE_SECONDS: '15' } });
  await allowResubmission(db(), split.course.path);
  worker = await split.startWorker();
});
after(async () => {
  if (onPglite) return;
  await split?.close();
});

/** What a restart does to the tool: every connection of its processes ends. Gives how many were cut. */
async function cutConnections(): Promise<number> {
  const { rows } = await split.database.pool.query<{ cut: boolean }>(
    "SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = current_database() AND application_name <> 'hardening-test'",
  );
  return rows.filter((row) => row.cut).length;
}

/** A student who opens the assignment and submits until the tool gives a receipt (the same paper again gets the first one). */
async function submitUntilReceipt(userId: string, text: string): Promise<{ id: string; refusals: number }> {
  for (let refusals = 0; refusals < 30; refusals++) {
    const answer = await split.course.trySubmit(userId, text);
    if (answer.submissionId) return { id: answer.submissionId, refusals };
    // A launch that failed is opened again, as a person would; an upload may fail only as an outage does.
    assert.ok(
      answer.stage === 'launch' || answer.status === 0 || answer.status >= 500,
      `upload refused (${answer.status}): ${answer.body.slice(0, 300)}`,
    );
    await sleep(300);
  }
  assert.fail(`${userId} never got a receipt`);
}

/** Whether a process is running and answers /readyz, asked a few times (a request may meet a cut a moment ago). */
async function answers(process: ToolProcess): Promise<boolean> {
  for (let tries = 0; tries < 5 && process.child.exitCode === null; tries++, await sleep(500)) {
    if ((await fetch(`${process.url}/readyz`).catch(() => null))?.ok) return true;
  }
  return false;
}

test(
  'connections cut six times during a surge: every receipt ends scored and graded, and both processes answer',
  { skip: onPglite, timeout: 240_000 },
  async (t) => {
    const { sandbox, course } = split;
    const papersBefore = sandbox.stats().papers;
    const surge = Promise.all(
      Array.from({ length: STUDENTS }, (_, i) => submitUntilReceipt(`surge-${i}`, essay(`surge student ${i}`))),
    );
    let cut = 0;
    for (let i = 0; i < CUTS; i++) {
      await sleep(100 + Math.random() * 700);
      cut += await cutConnections();
    }
    const receipts = await surge;
    const ids = [...new Set(receipts.map((receipt) => receipt.id))];
    const alive = (await answers(split.web)) && (await answers(worker));
    // A score whose grade job was lost with its connection waits for the sweep (each minute, for work a minute old).
    const open = await settle(db(), ids, 150_000);
    const counts = await tally(db(), course.lms.platform, ids, sandbox.stats().papers - papersBefore);
    const refusals = receipts.reduce((sum, receipt) => sum + receipt.refusals, 0);
    recordFigures({
      fault: 'database restarting under load',
      survived: cut > 0 && alive && counts.lost === 0 && counts.duplicated === 0 && counts.gradesWrong === 0,
      ...counts,
    });
    t.diagnostic(
      `${cut} connections cut in ${CUTS} rounds; ${refusals} launches or uploads refused meanwhile and tried again; ${counts.submissions} receipts, ${counts.lost} lost, ${counts.duplicated} duplicated, ${counts.gradesWrong} grades wrong, ${counts.repeatedFinalPosts} final scores sent twice`,
    );
    assert.ok(cut > 0, 'no connection was cut');
    assert.ok(alive, 'a process is down or does not answer /readyz after the restarts');
    assert.equal(ids.length, STUDENTS, 'two students got the same receipt');
    assert.deepEqual(open, [], 'submissions still on their way');
    assert.equal(counts.duplicated, 0, 'a paper reached the service twice');
    assert.equal(counts.gradesWrong, 0, 'a gradebook cell does not hold the score');
  },
);

test(
  'a checked paper whose grade job was lost is posted by the sweep; an older attempt is left alone',
  { skip: oneProcessOnly, timeout: 120_000 },
  async () => {
    const { course } = split;
    const first = await course.submit('sweep-student', essay('sweep first attempt'));
    const second = await course.submit('sweep-student', essay('sweep second attempt'));
    assert.deepEqual(await settle(db(), [first, second], 60_000), []);
    const postsBefore = course.lms.platform.scoreLog().filter((entry) => entry.userId === 'sweep-student').length;
    // What a connection cut between the score and its grade job leaves: scored a while ago, no grade job, and no
    // score ever sent or acknowledged.
    await db()
      .updateTable('submission')
      .set({
        state: 'scored',
        grade_state: 'pending',
        grade_sent_score: null,
        grade_sent_timestamp: null,
        grade_acknowledged_score: null,
        grade_acknowledged_timestamp: null,
        updated_at: new Date(Date.now() - 120_000),
      })
      .where('id', 'in', [first, second])
      .execute();
    const logger = createLogger({ level: 'silent' });
    const jobs = new Jobs(split.database.pool, loadConfig(split.env).jobs, logger);
    await jobs.start();
    try {
      assert.equal(
        await sweepForgottenWork({ db: db(), jobs, logger }),
        1,
        'the latest attempt alone needs its score posted',
      );
      assert.deepEqual(await settle(db(), [first, second], 60_000), []);
      assert.equal(await sweepForgottenWork({ db: db(), jobs, logger }), 0, 'a graded paper was queued again');
    } finally {
      await jobs.stop(0);
    }
    const posts = course.lms.platform
      .scoreLog()
      .filter((entry) => entry.userId === 'sweep-student')
      .slice(postsBefore);
    assert.deepEqual(
      posts.map((entry) => (entry.body as { gradingProgress: string }).gradingProgress),
      // The result, once: beside the submission, for the teacher to grade (the default).
      ['PendingManual'],
    );
  },
);
