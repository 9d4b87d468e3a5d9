// The grade-post job: sends a submission's state to the LMS gradebook. Before the result: the receipt, Submitted /
// Pending with the real submission time. With the result: what the assignment's gradeColumn says, as the LMS needs it
// to mean that (platform-quirks.ts; test/fixtures/lms/<lms>/gradebook.md). What is posted is read from the submission
// when the job runs, so a late or repeated job never sends an older state.
import { endedWithoutResult } from '../submissions/state.js';
import { knowCanvasCell, recordCanvasPost, type CanvasCell } from './canvas-cell.js';
import { cellStanding, loadContext, type GradeContext } from './grade-context.js';
import type { GradeDeps } from './grade-deps.js';
import { recordAcknowledged, recordGradebookFacts, recordSending, setGradeState } from './grade-record.js';
import { gradebookHolds } from './gradebook-result.js';
import { lineItemFor } from './line-item.js';
import { GradeRefused } from './platform-answer.js';
import { finalScoreOf, receiptBody, resultBody, resultComment, type PostStanding } from './score-body.js';
import { sendScore } from './send-score.js';
import { teacherGradeHeld } from './teacher-grade.js';

/**
 * What a post did: `final` the score is in the gradebook (the caller marks the submission graded), `pending`
 * the receipt is, `refused` the platform will not take it (recorded), `skipped` nothing to send.
 */
export type GradeOutcome =
  { kind: 'final'; score: number } | { kind: 'pending' } | { kind: 'refused'; reason: string } | { kind: 'skipped' };

/** What the tool may do to the grade in a cell it follows (canvas-cell.ts): replace or clear only its own. */
function standingIn(cell: CanvasCell | null, newSubmission: boolean): PostStanding {
  const ownGrade = cell !== null && cell.known && cell.toolGraded && !cell.teacherGraded;
  return { newSubmission, keepGradeThere: !ownGrade, keepGrade: !ownGrade };
}

/** The cell as the tool follows it, where the LMS needs following (Canvas); null elsewhere. */
async function followedCell(deps: GradeDeps, context: GradeContext, lineItemUrl: string): Promise<CanvasCell | null> {
  if (context.quirks.teacherGrade !== 'followed') return null;
  return knowCanvasCell(deps, context, {
    platformId: context.platformId,
    lineItemUrl,
    userSubject: context.userSubject,
  });
}

/**
 * Posts the submission's current state; throws (for a retry) on outages, records refusals. A final score already
 * posted, or a user the gradebook said is not a gradable student (an LMS's test student, a dropped enrolment), is
 * not posted again until an instructor or administrator asks for a resync.
 */
export async function postGrade(
  deps: GradeDeps,
  submissionId: string,
  options: { resync?: boolean } = {},
): Promise<GradeOutcome> {
  const context = await loadContext(deps.db, submissionId);
  if (!context || endedWithoutResult(context.state)) return { kind: 'skipped' };
  if (context.gradeState === 'not-gradable' && !options.resync) return { kind: 'skipped' };
  const final = finalScoreOf(context);
  // The receipt's job can run after scoring and post the final score; the scoring's own job then has nothing to add.
  // (Reported as final, so a submission whose post landed just before a crash is still marked graded.)
  if (context.gradeState === 'posted' && context.similarity !== null && !options.resync)
    return { kind: 'final', score: context.similarity };
  if (!context.ownsCell) return { kind: 'skipped' }; // a newer attempt owns the gradebook cell
  // Posting is at least once: a worker that dies (or loses its database) after the gradebook took the score and
  // before it recorded so sends it again. The score about to be sent is written first; when that same score was
  // sent and never acknowledged, the gradebook is asked for the user's result, and a score it already holds is
  // recorded as acknowledged rather than sent again. A resync (someone asked) forgets the record and sends.
  if (final !== null && !options.resync) {
    if (context.acknowledgedScore === final) return { kind: 'final', score: final };
    if (context.sentScore === final && (await gradebookHolds(deps, context, final))) {
      await recordAcknowledged(deps.db, submissionId, final, null);
      deps.logger.info(
        { submissionId },
        'The gradebook already holds this score (an earlier post whose answer was not recorded); not sent again',
      );
      return { kind: 'final', score: final };
    }
  }
  try {
    return final === null ? await postReceipt(deps, context) : await postResult(deps, context, final);
  } catch (error) {
    if (!(error instanceof GradeRefused)) throw error;
    await setGradeState(deps.db, submissionId, error.notGradable ? 'not-gradable' : 'failed', error.message);
    deps.logger.warn({ submissionId, reason: error.message }, 'Score not accepted by the gradebook');
    return { kind: 'refused', reason: error.message };
  }
}

/** Still this submission's cell, in the state the post tells: the latest attempt, not since scored or removed. */
const stillCurrentOf = (deps: GradeDeps, context: GradeContext) => async () => {
  const now = await cellStanding(deps.db, context.submissionId);
  return now !== null && now.ownsCell && now.state === context.state && now.similarity === context.similarity;
};

/**
 * Where the attempt is recorded: the assignment's own column where the LMS records attempts there (Canvas), else
 * the column the result goes to (`resultColumn`, found when not given).
 */
async function attemptColumnOf(deps: GradeDeps, context: GradeContext, resultColumn?: string): Promise<string> {
  if (context.quirks.recordsAttempts && context.gradeColumn === 'similarity')
    return lineItemFor(deps, { ...context, gradeColumn: 'assignment' });
  return resultColumn ?? lineItemFor(deps, context);
}

/**
 * The receipt of an attempt in `column` (default: where its attempt is recorded), the attempt's first post there
 * unless the LMS recorded it already. Null when a newer state made it needless.
 */
async function sendReceipt(deps: GradeDeps, context: GradeContext, column: string): Promise<{ sent: Date } | null> {
  const cell = await followedCell(deps, context, column);
  // A receipt keeps every grade: a resubmission's leaves the teacher's grade of the attempt before.
  const standing = standingIn(null, !context.attemptRecorded);
  const outcome = await sendScore(
    deps,
    context,
    column,
    (timestamp) => receiptBody(context, timestamp, context.quirks, standing),
    stillCurrentOf(deps, context),
  );
  if (outcome === 'superseded') return null;
  await recordGradebookFacts(deps.db, context.submissionId, { attemptRecorded: true });
  context.attemptRecorded = true;
  if (cell) await recordCanvasPost(deps, clockOf(context, column), cell, { scoreGiven: null, clearsGrade: false });
  return outcome;
}

async function postReceipt(deps: GradeDeps, context: GradeContext): Promise<GradeOutcome> {
  if (!(await sendReceipt(deps, context, await attemptColumnOf(deps, context)))) return { kind: 'skipped' };
  await setGradeState(deps.db, context.submissionId, 'pending', null);
  return { kind: 'pending' };
}

const clockOf = (context: GradeContext, lineItemUrl: string) => ({
  platformId: context.platformId,
  lineItemUrl,
  userSubject: context.userSubject,
});

async function postResult(deps: GradeDeps, context: GradeContext, final: number): Promise<GradeOutcome> {
  const { quirks } = context;
  const column = await lineItemFor(deps, context);
  // The LMS records the paper as submitted only with the attempt's first post to the assignment's column (Canvas,
  // C5): when the receipt has not reached it (its job ran after the result, or failed), the result records it, or,
  // when the result goes to a column of its own, an attempt record goes first.
  const attemptColumn = await attemptColumnOf(deps, context, column);
  if (quirks.recordsAttempts && !context.attemptRecorded && attemptColumn !== column) {
    if (!(await sendReceipt(deps, context, attemptColumn))) return { kind: 'skipped' };
  }
  const newSubmission = !context.attemptRecorded && attemptColumn === column;
  const text = resultComment(final, context.commentShowsSimilarity, context.commentLanguage);
  // An LMS that adds every comment it is sent has this attempt's already (Canvas, C7).
  const comment = quirks.commentsAccumulate && context.commentColumn === column ? null : text;
  let grade: number | null = context.gradeColumn === 'comment' ? null : final;
  const cell = await followedCell(deps, context, column);
  // A grade over one the teacher gave: the similarity goes as the comment only. Moodle keeps the teacher's grade by
  // itself; Canvas's cell is followed; an LMS whose rules are not known is read first.
  const teachers =
    grade !== null &&
    (cell
      ? cell.teacherGraded
      : quirks.teacherGrade === 'read-first' &&
        context.gradeColumn === 'assignment' &&
        (await teacherGradeHeld(deps, context)));
  if (teachers) {
    deps.logger.info(
      { submissionId: context.submissionId },
      'The teacher graded this paper: the similarity goes as a comment',
    );
    grade = null;
  }
  const standing = standingIn(cell, newSubmission);
  const outcome = await sendScore(
    deps,
    context,
    column,
    (timestamp) => resultBody(context, timestamp, quirks, { grade, comment, standing }),
    stillCurrentOf(deps, context),
    (timestamp) => recordSending(deps.db, context.submissionId, final, timestamp),
  );
  if (outcome === 'superseded') return { kind: 'skipped' };
  await recordGradebookFacts(deps.db, context.submissionId, {
    attemptRecorded: newSubmission,
    ...(comment !== null ? { commentColumn: column } : {}),
  });
  if (cell)
    await recordCanvasPost(deps, clockOf(context, column), cell, {
      scoreGiven: grade,
      clearsGrade: grade === null && !standing.keepGrade,
    });
  await recordAcknowledged(deps.db, context.submissionId, final, outcome.sent);
  return { kind: 'final', score: final };
}
