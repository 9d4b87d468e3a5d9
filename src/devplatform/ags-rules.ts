// How a platform judges a score post (AGS 3.4), as Moodle really behaves
// (mod/lti/service/gradebookservices/classes/local/resources/scores.php) or as the specification says (Brightspace and
// Blackboard, whose documents say no more: test/fixtures/lms/<lms>/gradebook.md). Canvas's, which changes a whole
// submission, is canvas-gradebook.ts.
import type { DevUser, PlatformRules, Score } from './state.js';

export interface ScoreVerdict {
  status: number;
  error?: string;
  /** What the gradebook keeps (Moodle drops scoreGiven unless FullyGraded). */
  stored?: Score;
}

const PROGRESS = {
  activity: ['Initialized', 'Started', 'InProgress', 'Submitted', 'Completed'],
  grading: ['FullyGraded', 'Pending', 'PendingManual', 'Failed', 'NotReady'],
};

export function judgeScore(
  rules: Exclude<PlatformRules, 'canvas'>,
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
  } else {
    if (!valid || !isStudent) return { status: 400, error: 'Invalid score or unknown user' };
    if (previous && Date.parse(previous.timestamp) >= timestamp)
      return { status: 409, error: 'The timestamp must be later than the last one' };
  }
  const grading = String(body.gradingProgress);
  const keepsScore = rules === 'moodle' ? grading === 'FullyGraded' : true;
  const submission = body.submission as { submittedAt?: unknown } | undefined;
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
  return { status: 204, stored: cellAfter(rules, posted, previous) };
}

/**
 * What the cell shows after a tool's score, given what it showed before (test/fixtures/lms/<rules>/gradebook.md):
 * - Moodle: a grade the teacher gave is an override, which a tool's score changes neither the grade nor the
 *   feedback of (lib/grade/grade_item.php update_raw_grade); otherwise the grade is the score (none: empty) and the
 *   feedback the comment (none: empty).
 * - The specification (Brightspace, Blackboard): a score replaces the grade; one without scoreGiven clears only a
 *   score the tool gave (https://www.imsglobal.org/spec/lti-ags/v2p0/#scoregiven-and-scoremaximum).
 */
function cellAfter(rules: Exclude<PlatformRules, 'canvas'>, posted: Score, previous: Score | undefined): Score {
  const teacherGraded = previous?.gradedBy === 'teacher' && previous.scoreGiven !== null;
  const keepGrade = (cell: Score): Score => ({
    ...cell,
    scoreGiven: previous?.scoreGiven ?? null,
    scoreMaximum: previous?.scoreMaximum ?? cell.scoreMaximum,
    gradedBy: previous?.gradedBy ?? 'tool',
  });
  if (rules === 'moodle') return teacherGraded ? previous! : posted;
  if (posted.scoreGiven === null && teacherGraded) return keepGrade(posted);
  return posted;
}
