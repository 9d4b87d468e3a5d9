// A final score the gradebook acknowledged is not posted again for the same attempt, even when the worker that
// posted it lost its database between the gradebook's answer and the record of it (at-least-once made rarer):
// the next run finds the score it was about to send, asks the gradebook, and records instead of sending.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../src/db/index.js';
import { postGrade } from '../../src/grades/post-grade.js';
import { QUEUES } from '../../src/jobs/index.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { databaseThrough, startDbGate, type DbGate } from '../support/db-gate.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';
import { isResult } from '../support/gradebook-cell.js';
import { setGradeColumn } from '../support/grade-column.js';

let tool: TestTool;
const opened: Array<{ course: TestCourse; gate: DbGate; cutOff: Kysely<DatabaseSchema> }> = [];
const db = () => tool.tool.database.db;
const quiet = { info: () => undefined, warn: () => undefined };

before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '200', POLL_SCHEDULE_SECONDS: '1', JOB_POLLING_SECONDS: '0.5' });
  // The grade posts are this test's to run: the tool's own worker leaves them alone.
  await tool.tool.jobs.offWork(QUEUES.grade);
});
after(async () => {
  for (const { course, gate, cutOff } of opened) {
    await cutOff.destroy().catch(() => undefined);
    await gate.stop();
    await course.lms.close();
  }
  await tool?.stop();
});

// The result beside the submission (the default: the gradebook's result is told by its comment) and the similarity
// as the assignment's grade (told by its score).
for (const gradeColumn of ['comment', 'assignment'] as const)
  test(`a grade job run again for an acknowledged attempt posts the result once (gradeColumn ${gradeColumn})`, async () => {
    await postsOnce(gradeColumn);
  });

async function postsOnce(gradeColumn: 'comment' | 'assignment') {
  const course = await openCourse(tool, { clientId: `grade-once-${gradeColumn}` });
  const gate = await startDbGate(tool.tool.database.pool.options.connectionString!);
  const cutOff = databaseThrough(gate, 2);
  opened.push({ course, gate, cutOff });
  await setGradeColumn(tool, course.path, gradeColumn);
  const id = await course.submit(
    'student-1',
    'A paper whose score reaches the gradebook once, whatever happens to the worker. '.repeat(5),
  );
  await eventually(
    async () =>
      (await db().selectFrom('submission').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state ===
      'scored',
    'the paper was not scored',
    30_000,
    200,
  );
  const finalPosts = () =>
    course.lms.platform
      .scoreLog()
      .filter(
        (entry) =>
          entry.userId === 'student-1' &&
          entry.status < 300 &&
          isResult((entry.body as { gradingProgress?: string }).gradingProgress),
      ).length;
  const grades = (database: Kysely<DatabaseSchema>) => ({
    db: database,
    provider: tool.tool.platforms,
    logger: quiet,
  });

  // The first run posts; its database goes away as it records the gradebook's answer, and the run dies there.
  const recording = gate.closeOn('"grade_acknowledged_score" = ');
  const firstRun = postGrade(grades(cutOff), id).then(
    () => 'finished',
    (error: unknown) => error,
  );
  await recording;
  assert.equal(finalPosts(), 1, 'the gradebook took the score');
  await gate.stop();
  const firstOutcome = await firstRun;
  assert.ok(firstOutcome instanceof Error, 'the first run died with its database');
  const unrecorded = await db()
    .selectFrom('submission')
    .select(['grade_state', 'grade_sent_score', 'grade_acknowledged_score'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  assert.equal(unrecorded.grade_acknowledged_score, null, 'the acknowledgement was not recorded');
  assert.notEqual(unrecorded.grade_sent_score, null, 'the score about to be sent was');

  // The job runs again (pg-boss hands it on), twice: the gradebook is asked, and nothing is posted again.
  assert.deepEqual(await postGrade(grades(db()), id), { kind: 'final', score: Number(unrecorded.grade_sent_score) });
  assert.deepEqual(await postGrade(grades(db()), id), { kind: 'final', score: Number(unrecorded.grade_sent_score) });
  assert.equal(finalPosts(), 1, 'the same score was posted again');
  const recorded = await db()
    .selectFrom('submission')
    .select(['grade_state', 'grade_acknowledged_score', 'grade_acknowledged_timestamp'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  assert.equal(recorded.grade_state, 'posted');
  assert.equal(recorded.grade_acknowledged_score, unrecorded.grade_sent_score);
  assert.ok(recorded.grade_acknowledged_timestamp, 'the acknowledged score keeps the timestamp it was sent with');
}
