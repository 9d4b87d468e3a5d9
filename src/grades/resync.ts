// "Resync grades": every scored submission of an assignment or of a platform posted to the gradebook again (after
// an LMS outage, a restored course, or a change of column). Each post is a job; the grade job posts only the
// latest attempt's score and keeps timestamps increasing, so a repeat is harmless.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, type Jobs } from '../jobs/index.js';

export async function queueGradeResync(db: Kysely<DatabaseSchema>, jobs: Jobs, scope: { assignmentId: string } | { platformId: string }): Promise<number> {
  let query = db.selectFrom('submission').innerJoin('assignment', 'assignment.id', 'submission.assignment_id').select('submission.id').where('submission.state', 'in', ['scored', 'graded']);
  query = 'assignmentId' in scope ? query.where('assignment.id', '=', scope.assignmentId) : query.where('assignment.platform_id', '=', scope.platformId);
  const rows = await query.execute();
  for (const row of rows) await jobs.send(QUEUES.grade, { submissionId: row.id, resync: true }, { key: row.id });
  return rows.length;
}
