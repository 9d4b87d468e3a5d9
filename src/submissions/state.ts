// The submission state machine. A move happens only from the states it is allowed from (checked in the same
// UPDATE, so two workers cannot both make it), and every move writes its event row in the same transaction.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseSchema, SubmissionState } from '../db/index.js';
import type { MessageKey } from '../i18n/index.js';
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

/**
 * The one word a person reads for each state, on every page (the student's, the dashboard, the submission review,
 * the history), in the CSV and in the Asset Processor's report; the words themselves are in i18n/ (en.ts,
 * de.ts). A paper the gradebook has received is still "Checked": what the gradebook holds is a fact said beside the
 * state (dashboard.gradebook.*), not a state of its own. "Not submitted" is the dashboard's row for a student who
 * has sent nothing.
 */
export const STATE_WORDS = {
  'not-submitted': 'state.not-submitted',
  received: 'state.received',
  uploading: 'state.uploading',
  processing: 'state.processing',
  scored: 'state.checked',
  graded: 'state.checked',
  rejected: 'state.rejected',
  failed: 'state.failed',
} as const satisfies Record<SubmissionState | 'not-submitted', MessageKey>;

export type StateWord = (typeof STATE_WORDS)[keyof typeof STATE_WORDS];

/** The message key of the word for a state (a row's "not-submitted" included). */
export function stateWord(state: SubmissionState | 'not-submitted'): StateWord {
  return STATE_WORDS[state];
}

/** The states one word stands for, in the order of STATE_WORDS: "checked" is scored and graded. */
export function statesOfWord(state: string): string[] {
  const word = (STATE_WORDS as Record<string, StateWord | undefined>)[state];
  if (word === undefined) return [state];
  return Object.keys(STATE_WORDS).filter((other) => STATE_WORDS[other as keyof typeof STATE_WORDS] === word);
}

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
  /** Null lets go of the file: its bytes are deleted in the same statement (no retry needs them any more). */
  file_id: null;
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

/** The states a move to `to` may start from. */
const statesBefore = (to: SubmissionState): SubmissionState[] =>
  (Object.keys(NEXT_STATES) as SubmissionState[]).filter((from) => NEXT_STATES[from].includes(to));

/**
 * Moves a submission to `to` if its current state allows it, with its changes and event row.
 * Returns the state it moved from, or null when it was not in a state that allows the move (nothing written).
 * Throws LeaseLost (nothing written) when the move names a send lease another sender has taken over since.
 *
 * One statement, so one round trip and one commit: `current` locks the row and reads it as it is now (a move
 * committed meanwhile is waited for and seen), `moved` updates it only from an allowed state and under the named
 * lease, `event` records the move it made, and a move that lets go of the file (`file_id: null`) deletes its bytes.
 * The checks after it only explain a move that was not made.
 */
export async function transition(db: Db, move: Transition): Promise<SubmissionState | null> {
  const changes = Object.entries(move.changes ?? {}).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
  const releasesFile = move.changes !== undefined && 'file_id' in move.changes;
  const { rows } = await sql<{ state: SubmissionState; send_lease: string | null; moved_from: SubmissionState | null }>`
    WITH current AS (
      SELECT id, state, send_lease, file_id FROM submission WHERE id = ${move.submissionId} FOR UPDATE
    ), moved AS (
      UPDATE submission SET ${sql.join([...changes, sql`state = ${move.to}`, sql`updated_at = now()`])}
        FROM current
       WHERE submission.id = current.id
         AND current.state = ANY(${statesBefore(move.to)}::text[])
         AND ${move.lease === undefined ? sql`TRUE` : sql`current.send_lease = ${move.lease}`}
      RETURNING submission.id, current.state AS from_state
    ), event AS (
      INSERT INTO submission_event (submission_id, from_state, to_state, reason, job_attempt)
      SELECT id, from_state, ${move.to}, ${move.reason}, ${move.jobAttempt ?? null}::integer FROM moved
    )${
      releasesFile
        ? sql`, released AS (
      DELETE FROM received_file_chunk USING current, moved WHERE received_file_chunk.file_id = current.file_id
    )`
        : sql``
    }
    SELECT current.state, current.send_lease, moved.from_state AS moved_from FROM current LEFT JOIN moved ON TRUE`.execute(
    db,
  );
  const row = rows[0];
  if (row && move.lease !== undefined && row.send_lease !== move.lease)
    throw new LeaseLost('Another worker took over sending this paper; this one records nothing.');
  return row?.moved_from ?? null;
}
