// How each platform judges a score post (AGS 3.4), as Moodle and Canvas really behave
// (Moodle: mod/lti/service/gradebookservices/classes/local/resources/scores.php;
//  Canvas: app/controllers/lti/ims/scores_controller.rb).
import type { DevUser, PlatformRules, Score } from './state.js';

export interface ScoreVerdict {
  status: number;
  error?: string;
  /** What the gradebook keeps (Moodle drops scoreGiven unless FullyGraded, Canvas unless FullyGraded or PendingManual). */
  stored?: Score;
  /** Canvas counts a new attempt unless the submission extension says new_submission: false. */
  newAttempt?: boolean;
}

const PROGRESS = {
  activity: ['Initialized', 'Started', 'InProgress', 'Submitted', 'Completed'],
  grading: ['FullyGraded', 'Pending', 'PendingManual', 'Failed', 'NotReady'],
};

const CANVAS_SUBMISSION = 'https://canvas.instructure.com/lti/submission';

export function judgeScore(
  rules: PlatformRules,
  body: Record<string, unknown>,
  user: DevUser | undefined,
  lineItemId: string,
  previous: Score | undefined,
): ScoreVerdict {
  const timestamp = typeof body.timestamp === 'string' ? Date.parse(body.timestamp) : Number.NaN;
  const valid =
    typeof body.userId === 'string' &&
    !Number.isNaN(timestamp) &&
    PROGRESS.activity.includes(String(body.activityProgress)) &&
    PROGRESS.grading.includes(String(body.gradingProgress)) &&
    (body.scoreGiven === undefined ||
      body.scoreGiven === null ||
      (typeof body.scoreGiven === 'number' && body.scoreGiven >= 0));
  const isStudent =
    user !== undefined && user.roles.some((role) => role.endsWith('#Learner') || role.endsWith('#Student'));
  if (rules === 'moodle') {
    if (!valid || !isStudent) return { status: 400, error: 'Incorrect score received' };
    // Moodle compares whole seconds (strtotime) and refuses a timestamp not after the stored one.
    if (previous && Math.floor(Date.parse(previous.timestamp) / 1000) >= Math.floor(timestamp / 1000)) {
      return { status: 409, error: 'Refusing score with an earlier timestamp' };
    }
  } else if (rules === 'canvas') {
    if (!valid) return { status: 400, error: 'Invalid score' };
    if (!isStudent) return { status: 422, error: 'User not found in course or is not a student' };
    if (typeof body.scoreGiven === 'number' && typeof body.scoreMaximum !== 'number')
      return { status: 422, error: 'ScoreMaximum must be present when ScoreGiven is' };
    if (previous && Date.parse(previous.timestamp) > timestamp) {
      return {
        status: 400,
        error: `Provided timestamp of ${String(body.timestamp)} before last updated timestamp of ${previous.timestamp}`,
      };
    }
  } else {
    if (!valid || !isStudent) return { status: 400, error: 'Invalid score or unknown user' };
    if (previous && Date.parse(previous.timestamp) >= timestamp)
      return { status: 409, error: 'The timestamp must be later than the last one' };
  }
  const grading = String(body.gradingProgress);
  const keepsScore =
    rules === 'moodle'
      ? grading === 'FullyGraded'
      : rules === 'canvas'
        ? grading === 'FullyGraded' || grading === 'PendingManual'
        : true;
  const submission = body.submission as { submittedAt?: unknown } | undefined;
  const extension = body[CANVAS_SUBMISSION] as
    { new_submission?: unknown; preserve_score?: unknown; prioritize_non_tool_grade?: unknown } | undefined;
  const posted: Score = {
    lineItemId,
    userId: String(body.userId),
    scoreGiven: keepsScore && typeof body.scoreGiven === 'number' ? body.scoreGiven : null,
    scoreMaximum: typeof body.scoreMaximum === 'number' ? body.scoreMaximum : 1,
    timestamp: String(body.timestamp),
    activityProgress: String(body.activityProgress),
    gradingProgress: grading,
    ...(typeof body.comment === 'string' ? { comment: body.comment } : {}),
    ...(typeof submission?.submittedAt === 'string' ? { submittedAt: submission.submittedAt } : {}),
    gradedBy: 'tool',
  };
  return {
    status: rules === 'canvas' ? 200 : 204,
    stored: cellAfter(rules, posted, previous, {
      preserveScore: extension?.preserve_score === true,
      prioritizeNonToolGrade: extension?.prioritize_non_tool_grade === true,
    }),
    newAttempt: rules === 'canvas' && keepsScore && extension?.new_submission !== false,
  };
}

/**
 * What the cell shows after a tool's score, given what it showed before (test/fixtures/lms/<rules>/gradebook.md):
 * - Moodle: a grade the teacher gave is an override, which a tool's score changes neither the grade nor the
 *   feedback of (lib/grade/grade_item.php update_raw_grade); otherwise the grade is the score (none: empty) and the
 *   feedback the comment (none: empty).
 * - Canvas: a score without scoreGiven (or not FullyGraded/PendingManual) sets the grade to nil unless
 *   preserve_score; a score over a grade a person gave is dropped with prioritize_non_tool_grade; each comment is
 *   added to the submission's comments (the cell shows the latest).
 * - The specification: a score replaces the grade; one without scoreGiven clears only a score the tool gave
 *   (https://www.imsglobal.org/spec/lti-ags/v2p0/#scoregiven-and-scoremaximum).
 */
function cellAfter(
  rules: PlatformRules,
  posted: Score,
  previous: Score | undefined,
  canvas: { preserveScore: boolean; prioritizeNonToolGrade: boolean },
): Score {
  const teacherGraded = previous?.gradedBy === 'teacher' && previous.scoreGiven !== null;
  const keepGrade = (cell: Score): Score => ({
    ...cell,
    scoreGiven: previous?.scoreGiven ?? null,
    scoreMaximum: previous?.scoreMaximum ?? cell.scoreMaximum,
    gradedBy: previous?.gradedBy ?? 'tool',
  });
  if (rules === 'moodle') return teacherGraded ? previous! : posted;
  if (rules === 'canvas') {
    const withComment: Score = {
      ...posted,
      ...(posted.comment === undefined && previous?.comment !== undefined ? { comment: previous.comment } : {}),
    };
    if (posted.scoreGiven === null) return canvas.preserveScore ? keepGrade(withComment) : withComment;
    return teacherGraded && canvas.prioritizeNonToolGrade ? keepGrade(withComment) : withComment;
  }
  if (posted.scoreGiven === null && teacherGraded) return keepGrade(posted);
  return posted;
}
