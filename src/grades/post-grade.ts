// The grade-post job: sends a submission's state to the LMS gradebook. Before the result: Submitted / Pending
// with the real submission time. With the result: FullyGraded with the similarity as the score. What is posted
// is read from the submission when the job runs, so a late or repeated job never sends an older state.
import { endedWithoutResult } from '../submissions/state.js';
import { cellStanding, loadContext } from './grade-context.js';
import type { GradeDeps } from './grade-deps.js';
import { recordAcknowledged, recordSending, setGradeState } from './grade-record.js';
import { gradebookHolds } from './gradebook-result.js';
import { GradeRefused } from './platform-answer.js';
import { finalScoreOf, resultCommentBody, submissionScoreBody } from './score-body.js';
import { sendScore } from './send-score.js';
import { teacherGradeHeld } from './teacher-grade.js';

/**
 * What a post did: `final` the score is in the gradebook (the caller marks the submission graded), `pending`
 * the receipt is, `refused` the platform will not take it (recorded), `skipped` nothing to send.
 */
export type GradeOutcome =
  { kind: 'final'; score: number } | { kind: 'pending' } | { kind: 'refused'; reason: string } | { kind: 'skipped' };

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
  // Still this submission's cell, in the state this post tells: the latest attempt, not since scored or removed.
  const stillCurrent = async () => {
    const now = await cellStanding(deps.db, submissionId);
    return now !== null && now.ownsCell && now.state === context.state && now.similarity === context.similarity;
  };
  const recordFinal = async (timestamp: Date) => {
    if (final !== null) await recordSending(deps.db, submissionId, final, timestamp);
  };
  // A grade over the assignment's own column, where the LMS would not keep the teacher's: read the cell first.
  const teachers =
    final !== null &&
    context.gradeColumn === 'assignment' &&
    !context.quirks.keepsTeacherGrade &&
    (await teacherGradeHeld(deps, context));
  if (teachers) deps.logger.info({ submissionId }, 'The teacher graded this paper: the similarity goes as a comment');
  let sent: Date;
  try {
    const outcome = await sendScore(
      deps,
      context,
      (timestamp) =>
        teachers
          ? resultCommentBody(context, final, timestamp, context.quirks)
          : submissionScoreBody(context, timestamp, context.quirks),
      stillCurrent,
      recordFinal,
    );
    if (outcome === 'superseded') return { kind: 'skipped' };
    sent = outcome.sent;
  } catch (error) {
    if (!(error instanceof GradeRefused)) throw error;
    await setGradeState(deps.db, submissionId, error.notGradable ? 'not-gradable' : 'failed', error.message);
    deps.logger.warn({ submissionId, reason: error.message }, 'Score not accepted by the gradebook');
    return { kind: 'refused', reason: error.message };
  }
  if (final === null) {
    await setGradeState(deps.db, submissionId, 'pending', null);
    return { kind: 'pending' };
  }
  await recordAcknowledged(deps.db, submissionId, final, sent);
  return { kind: 'final', score: final };
}
