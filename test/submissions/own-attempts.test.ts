// A student's own attempts read in the session's round trip (src/submissions/own-attempts.ts) are the same attempts,
// field for field, as read on their own: times, scores, paper ids and reasons survive the trip through JSON; the
// session's person sees only their own; and what was read for one assignment is never taken for another's.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../src/db/index.js';
import { ownAttempts, ownAttemptsAlongside } from '../../src/submissions/own-attempts.js';
import { attemptsOf } from '../../src/submissions/store.js';
import { openTestDatabase } from '../support/db.js';
import { assignmentIn, personOf, platformWithCourse } from '../support/rows.js';

let database: Database;
let cleanup: () => Promise<void>;
let where: { platformId: string; courseId: string };

before(async () => {
  ({ database, cleanup } = await openTestDatabase());
  where = await platformWithCourse(database.db, 'Attempts LMS');
});
after(() => cleanup());

async function attempt(assignmentId: string, userId: string, number: number): Promise<void> {
  await database.db
    .insertInto('submission')
    .values({
      assignment_id: assignmentId,
      user_id: userId,
      attempt: number,
      state: 'received',
      file_label: `essay-${number}.docx`,
      file_type: 'docx',
      file_size: 123_456 + number,
      sha256: randomUUID(),
      late: number === 2,
    })
    .execute();
}

/** What the session's statement reads for this person (lti/session.ts names its person `lti_user`). */
async function readWithSession(assignmentId: string, userId: string) {
  const alongside = ownAttemptsAlongside(assignmentId)!;
  const { rows } = await sql<{ row: unknown }>`
    SELECT (${alongside.query}) AS row FROM lti_user WHERE lti_user.id = ${userId}`.execute(database.db);
  return [{ key: alongside.key, row: rows[0]!.row }];
}

test('the attempts read with the session are those read alone, newest first, field for field', async () => {
  const assignment = await assignmentIn(database.db, where);
  const student = await personOf(database.db, where.platformId, 'student-a');
  const classmate = await personOf(database.db, where.platformId, 'student-b');
  for (const number of [1, 2, 3]) await attempt(assignment, student, number);
  await attempt(assignment, classmate, 1);
  // A scored attempt, a failed one and one still waiting: numbers, times and text of every kind.
  await sql`UPDATE submission SET state = 'graded', paper_id = 9007199254740, similarity = 12.50, ai_score = 0.875,
              grammar_score = 3, report_key = 'r-1', scored_at = '2026-11-27T10:11:12.345678Z'
            WHERE assignment_id = ${assignment} AND user_id = ${student} AND attempt = 1`.execute(database.db);
  await sql`UPDATE submission SET state = 'failed', failure_reason = 'The service refused the file: "too short".'
            WHERE assignment_id = ${assignment} AND user_id = ${student} AND attempt = 2`.execute(database.db);

  const alone = await attemptsOf(database.db, assignment, student);
  const withSession = await ownAttempts(
    database.db,
    { userId: student, alongside: await readWithSession(assignment, student) },
    assignment,
  );
  assert.deepEqual(
    withSession.map((a) => a.attempt),
    [3, 2, 1],
  );
  assert.deepEqual(withSession, alone);
  assert.equal(withSession[2]!.similarity, 12.5);
  assert.equal(withSession[2]!.scoredAt?.toISOString(), '2026-11-27T10:11:12.345Z');
  assert.ok(
    withSession.every((a) => a.userId === student),
    "a classmate's attempt is not among them",
  );
});

test('a student with no attempts reads none; attempts read for one assignment are not taken for another', async () => {
  const first = await assignmentIn(database.db, where, 'First');
  const second = await assignmentIn(database.db, where, 'Second');
  const student = await personOf(database.db, where.platformId, 'student-c');
  assert.deepEqual(
    await ownAttempts(database.db, { userId: student, alongside: await readWithSession(first, student) }, first),
    [],
  );
  await attempt(second, student, 1);
  const readForFirst = await readWithSession(first, student);
  const forSecond = await ownAttempts(database.db, { userId: student, alongside: readForFirst }, second);
  assert.deepEqual(
    forSecond.map((a) => [a.assignmentId, a.attempt]),
    [[second, 1]],
  );
  assert.equal(ownAttemptsAlongside('not-an-id'), null);
});
