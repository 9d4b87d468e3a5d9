// "Resync grades": every checked paper of an assignment or of a platform posted to the gradebook again (after an LMS
// outage, a restored course, or a change of column). Each post is a job; the grade job keeps timestamps increasing
// and adds nothing the gradebook holds already (an attempt, a comment), so a repeat is harmless. Only an assignment
// whose results go to the gradebook has grades to post: one the tool checks as the LMS's Asset Processor reports
// beside the file instead, and one whose LMS gave it no gradebook service has nowhere to post.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import { ownsCell } from '../submissions/cell-owner.js';

/** Whether an assignment's results go to an LMS gradebook the tool can post to. */
export function postsGrades(assignment: {
  kind: string;
  lineItemUrl: string | null;
  lineItemsUrl: string | null;
}): boolean {
  return assignment.kind === 'gradebook' && (assignment.lineItemUrl !== null || assignment.lineItemsUrl !== null);
}

type Scope = { assignmentId: string } | { platformId: string };

/** The checked papers that own their student's cell, in assignments that post grades: what a resync posts. */
function papersToPost(db: Kysely<DatabaseSchema>, scope: Scope) {
  const query = db
    .selectFrom('submission as s')
    .innerJoin('assignment as a', 'a.id', 's.assignment_id')
    .where('s.state', 'in', ['scored', 'graded'])
    .where(ownsCell('s'))
    .where('a.kind', '=', 'gradebook')
    .where((eb) => eb.or([eb('a.line_item_url', 'is not', null), eb('a.line_items_url', 'is not', null)]));
  return 'assignmentId' in scope
    ? query.where('a.id', '=', scope.assignmentId)
    : query.where('a.platform_id', '=', scope.platformId);
}

/** How many papers a resync of the assignment would post (the settings page says so before a change is saved). */
export async function countPapersToPost(db: Kysely<DatabaseSchema>, assignmentId: string): Promise<number> {
  const row = await papersToPost(db, { assignmentId })
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function queueGradeResync(db: Kysely<DatabaseSchema>, jobs: Jobs, scope: Scope): Promise<number> {
  const rows = await papersToPost(db, scope).select('s.id').execute();
  for (const row of rows) await resyncGrade(db, jobs, row.id);
  return rows.length;
}

/**
 * Posts one submission's current state to the gradebook again. Its grade is marked pending first: a grade job
 * already waiting for it (one per submission at a time, so the resync's own is dropped) then posts it too,
 * rather than finding it posted and stopping, which would leave it out of a new column.
 */
export async function resyncGrade(
  db: Kysely<DatabaseSchema>,
  jobs: Jobs,
  submissionId: string,
): Promise<string | null> {
  // Someone asked for the post: the record of what the gradebook acknowledged no longer stops it.
  await db
    .updateTable('submission')
    .set({
      grade_state: 'pending',
      grade_error: null,
      grade_sent_score: null,
      grade_sent_timestamp: null,
      grade_acknowledged_score: null,
      grade_acknowledged_timestamp: null,
    })
    .where('id', '=', submissionId)
    .execute();
  return jobs.send(QUEUES.grade, { submissionId, resync: true }, { key: submissionId });
}
