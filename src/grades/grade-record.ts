// What the tool writes down about a submission's grade: its state, the score about to be sent, and the score the
// gradebook acknowledged.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';

export async function setGradeState(
  db: Kysely<DatabaseSchema>,
  submissionId: string,
  state: 'pending' | 'failed' | 'not-gradable',
  error: string | null,
): Promise<void> {
  await db
    .updateTable('submission')
    .set({ grade_state: state, grade_error: error, updated_at: new Date() })
    .where('id', '=', submissionId)
    .execute();
}

/** The final score about to be sent, with its timestamp: written before it leaves, so a rerun can ask about it. */
export async function recordSending(
  db: Kysely<DatabaseSchema>,
  submissionId: string,
  score: number,
  timestamp: Date,
): Promise<void> {
  await db
    .updateTable('submission')
    .set({ grade_sent_score: score, grade_sent_timestamp: timestamp })
    .where('id', '=', submissionId)
    .execute();
}

/** The final score the gradebook acknowledged for this attempt, with its timestamp (null: found in the gradebook). */
export async function recordAcknowledged(
  db: Kysely<DatabaseSchema>,
  submissionId: string,
  score: number,
  timestamp: Date | null,
): Promise<void> {
  await db
    .updateTable('submission')
    .set((eb) => ({
      grade_state: 'posted',
      grade_error: null,
      graded_at: new Date(),
      updated_at: new Date(),
      grade_acknowledged_score: score,
      grade_acknowledged_timestamp: timestamp ?? eb.ref('grade_sent_timestamp'),
    }))
    .where('id', '=', submissionId)
    .execute();
}

/**
 * What the gradebook took of a post: the attempt recorded (a post with new_submission), the comment in this column.
 * Kept apart from the score's record: a resync posts the score again, never the attempt or the comment.
 */
export async function recordGradebookFacts(
  db: Kysely<DatabaseSchema>,
  submissionId: string,
  facts: { attemptRecorded?: boolean; commentColumn?: string },
): Promise<void> {
  if (!facts.attemptRecorded && facts.commentColumn === undefined) return;
  await db
    .updateTable('submission')
    .set({
      ...(facts.attemptRecorded ? { gradebook_attempt_recorded: true } : {}),
      ...(facts.commentColumn !== undefined ? { gradebook_comment_column: facts.commentColumn } : {}),
    })
    .where('id', '=', submissionId)
    .execute();
}
