// The gradebook cell rule (src/submissions/cell-owner.ts), asked directly: a student's cell belongs to their latest
// attempt that was not rejected; a failed owner shows nothing; another student's or another assignment's attempts
// change nothing. The SQL condition (ownsCell) and the lookup (cellOwner) give the same owner.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Database } from '../../src/db/index.js';
import type { SubmissionState } from '../../src/db/schema.js';
import { cellOwner, cellShows, ownsCell } from '../../src/submissions/cell-owner.js';
import { openTestDatabase } from '../support/db.js';
import { assignmentIn, personOf, platformWithCourse } from '../support/rows.js';

let database: Database;
let cleanup: () => Promise<void>;
let courseId: string;
let platformId: string;
let students = 0;

before(async () => {
  ({ database, cleanup } = await openTestDatabase());
  ({ platformId, courseId } = await platformWithCourse(database.db, 'Cell LMS'));
});
after(() => cleanup());

const newAssignment = () => assignmentIn(database.db, { platformId, courseId });
const newStudent = () => personOf(database.db, platformId, `student-${++students}`);

/** The student's attempts in this order of states (attempt 1 first); their ids. */
async function attempts(assignmentId: string, userId: string, states: SubmissionState[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, state] of states.entries()) {
    const row = await database.db
      .insertInto('submission')
      .values({
        assignment_id: assignmentId,
        user_id: userId,
        attempt: index + 1,
        state,
        file_label: `attempt-${index + 1}.pdf`,
        file_type: 'pdf',
        file_size: 100,
        sha256: randomUUID(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

/** The attempts the SQL condition says own their cell. */
async function ownersBySql(assignmentId: string, userId: string): Promise<string[]> {
  const rows = await database.db
    .selectFrom('submission as s')
    .select('s.id')
    .where('s.assignment_id', '=', assignmentId)
    .where('s.user_id', '=', userId)
    .where('s.state', '!=', 'rejected')
    .where(ownsCell('s'))
    .execute();
  return rows.map((row) => row.id);
}

test('the latest attempt owns the cell, whatever its state, unless it was rejected', async () => {
  const assignment = await newAssignment();
  const student = await newStudent();
  const ids = await attempts(assignment, student, ['graded', 'scored', 'rejected']);
  const owner = await cellOwner(database.db, assignment, student);
  assert.equal(owner?.id, ids[1], 'the rejected third attempt does not take the cell from the second');
  assert.deepEqual(await ownersBySql(assignment, student), [ids[1]]);
  assert.equal(cellShows(owner), true);
});

test('a failed owner keeps the cell and shows nothing in it', async () => {
  const assignment = await newAssignment();
  const student = await newStudent();
  const ids = await attempts(assignment, student, ['graded', 'failed']);
  const owner = await cellOwner(database.db, assignment, student);
  assert.equal(owner?.id, ids[1]);
  assert.deepEqual(await ownersBySql(assignment, student), [ids[1]]);
  assert.equal(cellShows(owner), false, 'the cell is emptied under an attempt that could not be checked');
});

test('with every attempt rejected, or none, nobody owns the cell', async () => {
  const assignment = await newAssignment();
  const rejectedOnly = await newStudent();
  await attempts(assignment, rejectedOnly, ['rejected', 'rejected']);
  assert.equal(await cellOwner(database.db, assignment, rejectedOnly), null);
  assert.deepEqual(await ownersBySql(assignment, rejectedOnly), []);
  assert.equal(cellShows(null), false);
  assert.equal(await cellOwner(database.db, assignment, await newStudent()), null);
});

test("another student's later attempts and another assignment's change nothing", async () => {
  const assignment = await newAssignment();
  const other = await newAssignment();
  const student = await newStudent();
  const classmate = await newStudent();
  const ids = await attempts(assignment, student, ['received']);
  await attempts(assignment, classmate, ['graded', 'graded', 'graded']);
  await attempts(other, student, ['graded', 'graded']);
  assert.equal((await cellOwner(database.db, assignment, student))?.id, ids[0]);
  assert.deepEqual(await ownersBySql(assignment, student), [ids[0]]);
});
