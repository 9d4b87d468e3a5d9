// Submissions in the database: the rules for a new attempt, recording one with its first event, and the receipt.
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { AssignmentSettings, FileType } from '../assignments/settings.js';
import type { DatabaseSchema, SubmissionState, SubmissionTable } from '../db/index.js';
import type { Sentence } from '../i18n/index.js';
import { NOT_COUNTED } from './state.js';

export interface Submission {
  id: string;
  assignmentId: string;
  userId: string;
  attempt: number;
  state: SubmissionState;
  fileLabel: string;
  fileType: string;
  fileSize: number;
  sha256: string;
  /** The file it waits to send, in the store (received-file.ts); null once the service has it or refused it. */
  fileId: string | null;
  submittedAt: Date;
  late: boolean;
  paperId: number | null;
  /** The service account holding the paper (null: the default account); with paperId, the paper's key. */
  paperAccountId: string | null;
  reportKey: string | null;
  similarity: number | null;
  aiScore: number | null;
  grammarScore: number | null;
  failureReason: string | null;
  scoredAt: Date | null;
  /** When a later attempt replaced this one at the service (its paper and report deleted there), and which. */
  replacedAt: Date | null;
  replacedByAttempt: number | null;
}

const toNumber = (value: string | null) => (value === null ? null : Number(value));

export function toSubmission(row: Selectable<SubmissionTable>): Submission {
  return {
    id: row.id,
    assignmentId: row.assignment_id,
    userId: row.user_id,
    attempt: row.attempt,
    state: row.state,
    fileLabel: row.file_label,
    fileType: row.file_type,
    fileSize: Number(row.file_size),
    sha256: row.sha256,
    fileId: row.file_id,
    submittedAt: row.submitted_at,
    late: row.late,
    paperId: toNumber(row.paper_id),
    paperAccountId: row.paper_account_id,
    reportKey: row.report_key,
    similarity: toNumber(row.similarity),
    aiScore: toNumber(row.ai_score),
    grammarScore: toNumber(row.grammar_score),
    failureReason: row.failure_reason,
    scoredAt: row.scored_at,
    replacedAt: row.replaced_at,
    replacedByAttempt: row.replaced_by_attempt,
  };
}

export interface Receipt {
  submissionId: string;
  attempt: number;
  receivedAt: string;
  fileName: string;
  size: number;
  sha256: string;
  state: SubmissionState;
  late: boolean;
}

export function receiptOf(submission: Submission): Receipt {
  return {
    submissionId: submission.id,
    attempt: submission.attempt,
    receivedAt: submission.submittedAt.toISOString(),
    fileName: submission.fileLabel,
    size: submission.fileSize,
    sha256: submission.sha256,
    state: submission.state,
    late: submission.late,
  };
}

/**
 * A student's attempts at an assignment, newest first: what their page and its status poll show, what the doors
 * decide the next attempt on, and what an instructor reads of one student. `counted` leaves out files the service
 * refused for good (never really submitted). `db` may be a transaction, to read them under the student's lock.
 */
export async function attemptsOf(
  db: Kysely<DatabaseSchema>,
  assignmentId: string,
  userId: string,
  which: 'all' | 'counted' = 'all',
): Promise<Submission[]> {
  let query = db
    .selectFrom('submission')
    .selectAll()
    .where('assignment_id', '=', assignmentId)
    .where('user_id', '=', userId);
  if (which === 'counted') query = query.where('state', '!=', NOT_COUNTED);
  const rows = await query.orderBy('attempt', 'desc').execute();
  return rows.map(toSubmission);
}

/** The attempts that count: a file the service refused for good was never really submitted (NOT_COUNTED). */
export function counted(attempts: Submission[]): Submission[] {
  return attempts.filter((attempt) => attempt.state !== NOT_COUNTED);
}

/** Why a student may not submit (`why`), and the sentence that says it (in the reader's language on a page). */
export type SubmitDecision =
  | { allowed: true; late: boolean }
  | { allowed: false; why: 'one-submission' | 'attempts-used' | 'closed' | 'in-the-lms'; reason: Sentence };

/**
 * Whether a student may submit now, from the assignment's resubmission policy, attempt limit and the due date that
 * holds for them (`ownDueAt`, their own where the LMS stated one: due-dates.ts; else the assignment's).
 */
export function canSubmit(
  settings: AssignmentSettings,
  previous: Submission[],
  now: Date,
  ownDueAt: string | null = null,
): SubmitDecision {
  const dueAt = ownDueAt ?? settings.dueAt;
  const due = dueAt ? new Date(dueAt) : null;
  const late = due !== null && now > due;
  if (previous.length === 0) return { allowed: true, late };
  if (settings.resubmission === 'none')
    return { allowed: false, why: 'one-submission', reason: { key: 'student.refused.oneSubmission' } };
  if (previous.length >= settings.maxAttempts) {
    return {
      allowed: false,
      why: 'attempts-used',
      reason: { key: 'student.refused.attemptsUsed', params: { count: settings.maxAttempts } },
    };
  }
  if (settings.resubmission === 'until-due' && late) {
    return { allowed: false, why: 'closed', reason: { key: 'student.refused.closed' } };
  }
  return { allowed: true, late };
}

export interface NewSubmission {
  id: string;
  assignmentId: string;
  userId: string;
  fileLabel: string;
  fileType: FileType;
  fileSize: number;
  sha256: string;
  fileId: string;
  late: boolean;
}

/**
 * What a door decides again, under the student's lock, from the attempts that count as they are then: return an
 * attempt to stand for this file (the same file again: nothing new is recorded), throw to refuse it, or return
 * nothing to record it.
 */
export type AttemptCheck = (countedAttempts: Submission[]) => Submission | undefined;

/**
 * Records the submission as the student's next attempt, with its first event, in one transaction. Two files of one
 * student at once are taken one after the other: the transaction first takes a lock on (assignment, student) (an
 * advisory lock, since a first attempt has no row to lock), reads the attempts, and lets the door's `check` decide
 * again on them. So two uploads at once get the numbers 1 and 2, or the second is refused by the attempt rules, or
 * is recognised as the same file; never a clash on the attempt number.
 */
export async function recordSubmission(
  db: Kysely<DatabaseSchema>,
  input: NewSubmission,
  options: {
    check?: AttemptCheck;
    /** What commits with the new submission, or not at all (the rest of its file, its upload job). */ inSameCommit?: (
      trx: Transaction<DatabaseSchema>,
    ) => Promise<unknown>;
  } = {},
): Promise<{ submission: Submission; duplicate: boolean }> {
  const check = options.check ?? (() => undefined);
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`submission:${input.assignmentId}:${input.userId}`}, 0))`.execute(
      trx,
    );
    const attempts = await attemptsOf(trx, input.assignmentId, input.userId);
    const standing = check(counted(attempts));
    if (standing) return { submission: standing, duplicate: true };
    // The submission and its first event in one statement.
    const row = await trx
      .with('received', (db) =>
        db
          .insertInto('submission')
          .values({
            id: input.id,
            assignment_id: input.assignmentId,
            user_id: input.userId,
            attempt: (attempts[0]?.attempt ?? 0) + 1,
            state: 'received',
            file_label: input.fileLabel,
            file_type: input.fileType,
            file_size: input.fileSize,
            sha256: input.sha256,
            file_id: input.fileId,
            late: input.late,
          })
          .returningAll(),
      )
      .with('event', (db) =>
        db
          .insertInto('submission_event')
          .columns(['submission_id', 'to_state', 'reason'])
          .expression((eb) =>
            eb
              .selectFrom('received')
              .select([
                'received.id',
                sql.lit('received').as('to_state'),
                sql.lit('File received and stored').as('reason'),
              ]),
          ),
      )
      .selectFrom('received')
      .selectAll()
      .executeTakeFirstOrThrow();
    await options.inSameCommit?.(trx);
    return { submission: toSubmission(row), duplicate: false };
  });
}

export async function getSubmission(db: Kysely<DatabaseSchema>, id: string): Promise<Submission | null> {
  const row = await db.selectFrom('submission').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toSubmission(row) : null;
}

/** A submission with the service folder its assignment maps to (null: none yet), in one round trip. */
export async function getSubmissionInFolder(
  db: Kysely<DatabaseSchema>,
  id: string,
): Promise<{ submission: Submission; folderId: number | null } | null> {
  const row = await db
    .selectFrom('submission')
    .innerJoin('assignment', 'assignment.id', 'submission.assignment_id')
    .selectAll('submission')
    .select('assignment.folder_id')
    .where('submission.id', '=', id)
    .executeTakeFirst();
  return row
    ? { submission: toSubmission(row), folderId: row.folder_id === null ? null : Number(row.folder_id) }
    : null;
}

/** The submission, if it is one of this assignment's (an id from a page is checked against the assignment it came with). */
export async function submissionOfAssignment(
  db: Kysely<DatabaseSchema>,
  assignmentId: string,
  id: string,
): Promise<Submission | null> {
  const submission = await getSubmission(db, id);
  return submission?.assignmentId === assignmentId ? submission : null;
}
