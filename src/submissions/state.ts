// The submission state machine. A move happens only from the states it is allowed from (checked in the same
// UPDATE, so two workers cannot both make it), and every move writes its event row in the same transaction.
import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema, SubmissionState } from '../db/index.js';
import { LeaseLost } from './send-lease.js';

/** Where each state may go next. */
export const NEXT_STATES: Record<SubmissionState, readonly SubmissionState[]> = {
  received: ['uploading', 'rejected'],
  uploading: ['processing', 'rejected', 'received'],
  processing: ['scored', 'failed', 'rejected'],
  scored: ['graded'],
  graded: [],
  rejected: [],
  failed: [],
};

/**
 * The state of an attempt that does not count: a file the service refused for good (wrong type, unreadable) was
 * never really submitted, so it owns no gradebook cell and uses up no attempt (see cell-owner.ts).
 */
export const NOT_COUNTED: SubmissionState = 'rejected';

/** States a submission stays in: nothing more happens to it unless someone acts. */
export function isSettled(state: SubmissionState): boolean {
  return NEXT_STATES[state].length === 0 || state === 'scored';
}

/** States that end without a result: the submission keeps a reason a person can read. */
export function endedWithoutResult(state: SubmissionState): boolean {
  return state === NOT_COUNTED || state === 'failed';
}

export type SubmissionChanges = Partial<{
  paper_id: number | null;
  paper_account_id: string | null;
  report_key: string | null;
  similarity: number | null;
  ai_score: number | null;
  grammar_score: number | null;
  failure_reason: string | null;
  stored_path: string | null;
  scored_at: Date | null;
}>;

export interface Transition {
  submissionId: string;
  to: SubmissionState;
  reason: string;
  jobAttempt?: number;
  changes?: SubmissionChanges;
  /** A move made by a sender of the paper: it holds only while the submission still carries its lease token. */
  lease?: string;
}

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/**
 * Moves a submission to `to` if its current state allows it, with its changes and event row.
 * Returns the state it moved from, or null when it was not in a state that allows the move (nothing written).
 * Throws LeaseLost (nothing written) when the move names a send lease another sender has taken over since.
 */
export async function transition(db: Db, move: Transition): Promise<SubmissionState | null> {
  const run = async (trx: Transaction<DatabaseSchema>) => {
    const current = await trx
      .selectFrom('submission')
      .select(['state', 'send_lease'])
      .where('id', '=', move.submissionId)
      .forUpdate()
      .executeTakeFirst();
    if (current && move.lease !== undefined && current.send_lease !== move.lease) throw new LeaseLost('Another worker took over sending this paper; this one records nothing.');
    if (!current || !NEXT_STATES[current.state].includes(move.to)) return null;
    await trx
      .updateTable('submission')
      .set({ ...move.changes, state: move.to, updated_at: new Date() })
      .where('id', '=', move.submissionId)
      .execute();
    await trx
      .insertInto('submission_event')
      .values({ submission_id: move.submissionId, from_state: current.state, to_state: move.to, reason: move.reason, job_attempt: move.jobAttempt ?? null })
      .execute();
    return current.state;
  };
  return db.isTransaction ? run(db as Transaction<DatabaseSchema>) : db.transaction().execute(run);
}
