// A revision is not matched against the student's own draft: before a student's new attempt is sent, the papers of
// their earlier attempts at the same assignment are deleted at the checking service (DELETE
// …/submissions?paperId=), unless the assignment keeps every attempt there (settings' earlierAttempts). An earlier
// attempt keeps its result in the history, marked with when and by which attempt it was replaced; its report went
// with its paper.
import { sql, type Kysely } from 'kysely';
import type { PaperService } from '../checker/index.js';
import type { DatabaseSchema } from '../db/index.js';
import { deletePaperAtService } from './remove.js';
import type { Submission } from './store.js';

export interface Replaced {
  attempt: number;
  outcome: 'deleted' | 'gone' | { refused: string };
}

/**
 * Deletes at the service the papers of `submission`'s student's earlier attempts that are held in `accountId` and
 * not yet replaced, and marks each that the service no longer has. A refusal leaves that attempt as it was (it is
 * tried again with the next attempt), and is returned for the log; it never stops the new attempt.
 */
export async function replaceEarlierAttempts(
  db: Kysely<DatabaseSchema>,
  service: PaperService,
  where: { folderId: number; accountId: string | null },
  submission: Submission,
): Promise<Replaced[]> {
  const earlier = await db
    .selectFrom('submission')
    .select(['id', 'attempt', 'paper_id'])
    .where('assignment_id', '=', submission.assignmentId)
    .where('user_id', '=', submission.userId)
    .where('attempt', '<', submission.attempt)
    .where('paper_id', 'is not', null)
    .where('replaced_at', 'is', null)
    .where(sql<boolean>`paper_account_id IS NOT DISTINCT FROM ${where.accountId}::uuid`)
    .orderBy('attempt')
    .execute();
  const replaced: Replaced[] = [];
  for (const row of earlier) {
    const outcome = await deletePaperAtService(async () => service, {
      folderId: where.folderId,
      paperId: Number(row.paper_id),
    });
    replaced.push({ attempt: row.attempt, outcome });
    if (typeof outcome === 'object') continue;
    const reason = `Replaced by attempt ${submission.attempt}: its paper and report were deleted at the checking service`;
    await db
      .with('marked', (db) =>
        db
          .updateTable('submission')
          .set({ replaced_at: new Date(), replaced_by_attempt: submission.attempt, report_key: null })
          .where('id', '=', row.id)
          .where('replaced_at', 'is', null)
          .returning(['id', 'state']),
      )
      .insertInto('submission_event')
      .columns(['submission_id', 'from_state', 'to_state', 'reason'])
      .expression((eb) =>
        eb
          .selectFrom('marked')
          .select([
            'marked.id',
            'marked.state as from_state',
            'marked.state as to_state',
            sql<string>`${reason}::text`.as('reason'),
          ]),
      )
      .execute();
  }
  return replaced;
}
