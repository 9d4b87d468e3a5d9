// A final score's post, before and after: the score and timestamp about to be sent (written before the request),
// and the score and timestamp the gradebook acknowledged. A worker that dies between the gradebook's answer and
// the record leaves a sent score unacknowledged; the next run asks the gradebook for the user's result before
// posting the same score again (grades/post-grade.ts).
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('submission')
    .addColumn('grade_sent_score', sql`numeric(5, 2)`)
    .addColumn('grade_sent_timestamp', 'timestamptz')
    .addColumn('grade_acknowledged_score', sql`numeric(5, 2)`)
    .addColumn('grade_acknowledged_timestamp', 'timestamptz')
    .execute();
  // Scores posted before this migration were acknowledged: their score is the submission's similarity.
  await sql`
    UPDATE submission SET grade_acknowledged_score = similarity, grade_acknowledged_timestamp = graded_at
    WHERE grade_state = 'posted' AND similarity IS NOT NULL
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('submission')
    .dropColumn('grade_sent_score')
    .dropColumn('grade_sent_timestamp')
    .dropColumn('grade_acknowledged_score')
    .dropColumn('grade_acknowledged_timestamp')
    .execute();
}
