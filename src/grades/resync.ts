// "Resync grades": every scored submission of an assignment or of a platform posted to the gradebook again (after
// an LMS outage, a restored course, or a change of column). Each post is a job; the grade job posts only the
// latest attempt's score and keeps timestamps increasing, so a repeat is harmless.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, type Jobs } from '../jobs/index.js';

export async function queueGradeResync(
  db: Kysely<DatabaseSchema>,
  jobs: Jobs,
  scope: { assignmentId: string } | { platformId: string },
): Promise<number> {
  let query = db
    .selectFrom('submission')
    .innerJoin('assignment', 'assignment.id', 'submission.assignment_id')
    .select('submission.id')
    .where('submission.state', 'in', ['scored', 'graded']);
  query =
    'assignmentId' in scope
      ? query.where('assignment.id', '=', scope.assignmentId)
      : query.where('assignment.platform_id', '=', scope.platformId);
  const rows = await query.execute();
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
