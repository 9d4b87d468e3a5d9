// Canvas's gradebook as its own code keeps it (test/fixtures/lms/canvas/gradebook.md, rules C1 to C10): a score post
// (app/controllers/lti/ims/scores_controller.rb `create`, `submit_homework`, `score_submission`,
// `update_or_create_result`) changes the student's submission of the line item's assignment (app/models/submission.rb:
// workflow state, attempts, grade, comments, posting) and the line item's Lti::Result, which the result service
// answers; a teacher's grade is Assignment#grade_student by a person. What the teacher and the student read of it
// (needs grading, the grade a student sees, the comments they see, the totals) is here too.
import type { ScoreVerdict } from './ags-rules.js';
import { scoreKey, type CanvasResult, type DevUser, type LineItem, type PlatformMemory, type Score } from './state.js';

const EXTENSION = 'https://canvas.instructure.com/lti/submission';
/** Lti::Result::ACCEPT_GIVEN_SCORE_TYPES: the only progress values whose scoreGiven grades. */
const ACCEPT_GIVEN_SCORE = ['FullyGraded', 'PendingManual'];
const ACTIVITY = ['Initialized', 'Started', 'InProgress', 'Submitted', 'Completed'];
const GRADING = ['FullyGraded', 'Pending', 'PendingManual', 'Failed', 'NotReady'];

/** The line item of the assignment a line item belongs to (C10): its own id when it is the assignment's column. */
export const assignmentLineItemOf = (item: LineItem) => item.assignmentId ?? item.id;
/** Lti::LineItem#assignment_line_item?: only the assignment's first line item grades and records submissions. */
export const isAssignmentLineItem = (item: LineItem) => assignmentLineItemOf(item) === item.id;

const boolean = (value: unknown): boolean | undefined =>
  value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;

/** Assignment#find_or_create_submission: an unsubmitted row without a submission type. */
function findOrCreateSubmission(memory: PlatformMemory, item: LineItem, userId: string): Score {
  const key = scoreKey(item.id, userId);
  const found = memory.scores.get(key);
  if (found?.canvas) return found;
  const created: Score = {
    lineItemId: item.id,
    userId,
    scoreGiven: null,
    scoreMaximum: item.scoreMaximum,
    timestamp: new Date().toISOString(),
    activityProgress: 'Initialized',
    gradingProgress: 'NotReady',
    canvas: {
      workflowState: 'unsubmitted',
      submissionType: null,
      attempt: 0,
      submittedAt: null,
      gradeMatchesCurrentSubmission: true,
      postedAt: null,
      comments: [],
    },
  };
  memory.scores.set(key, created);
  return created;
}

/** Submission#inferred_workflow_state, on every save. */
function inferWorkflowState(cell: Score, result: CanvasResult | undefined): void {
  const submission = cell.canvas!;
  let state = submission.workflowState;
  if (state === 'unsubmitted' && submission.submittedAt) state = 'submitted';
  if (state === 'submitted' && !submission.submissionType) state = 'unsubmitted';
  if (cell.scoreGiven !== null && submission.gradeMatchesCurrentSubmission) state = 'graded';
  // infer_review_needed?: lti_result&.reload&.needs_review? (grading_progress == "PendingManual")
  if (result?.gradingProgress === 'PendingManual') state = 'pending_review';
  submission.workflowState = state;
}

/** Assignment#submit_homework: a new attempt, unless submitted_at is the same as the last one's (infer_values). */
function submitHomework(cell: Score, submittedAt: string): void {
  const submission = cell.canvas!;
  submission.gradeMatchesCurrentSubmission = cell.scoreGiven === null;
  const changed = submission.submittedAt === null || Date.parse(submission.submittedAt) !== Date.parse(submittedAt);
  submission.submissionType = 'external_tool';
  submission.submittedAt = submittedAt;
  submission.workflowState = 'submitted';
  if (changed) submission.attempt = Math.max(1, submission.attempt + 1);
  cell.submittedAt = submittedAt;
}

/**
 * Assignment#grade_student and save_grade_to_submission: the result marked reviewed, the grade set, the grade of the
 * current attempt, and posted at once unless the assignment posts grades by hand.
 */
function gradeStudent(
  memory: PlatformMemory,
  cell: Score,
  score: number | null,
  by: 'tool' | 'teacher',
  result: CanvasResult | undefined,
): void {
  if (result) result.gradingProgress = 'FullyGraded'; // Lti::Result#mark_reviewed!
  const submission = cell.canvas!;
  const changed = cell.scoreGiven !== score;
  cell.scoreGiven = score;
  cell.gradedBy = by;
  if (score !== null) {
    submission.gradeMatchesCurrentSubmission = true;
    if (!submission.postedAt && !memory.postManually.has(cell.lineItemId))
      submission.postedAt = new Date().toISOString();
  }
  if ((changed || submission.gradeMatchesCurrentSubmission) && score !== null) submission.workflowState = 'graded';
}

/** Submission#add_comment from a score: no author, on the current attempt; it never posts the submission (C7, C8). */
function addToolComment(cell: Score, text: string): void {
  const submission = cell.canvas!;
  submission.comments.push({
    text,
    author: 'tool',
    attempt: submission.workflowState === 'unsubmitted' ? null : submission.attempt,
    hidden: false,
  });
  cell.comment = text;
}

function refuse(status: number, error: string): ScoreVerdict {
  return { status, error };
}

/** A score post, judged and applied as Canvas's ScoresController#create does. */
export function canvasScore(
  memory: PlatformMemory,
  item: LineItem,
  body: Record<string, unknown>,
  user: DevUser | undefined,
): ScoreVerdict {
  const timestamp = typeof body.timestamp === 'string' ? Date.parse(body.timestamp) : Number.NaN;
  if (
    typeof body.userId !== 'string' ||
    Number.isNaN(timestamp) ||
    !ACTIVITY.includes(String(body.activityProgress)) ||
    !GRADING.includes(String(body.gradingProgress))
  )
    return refuse(400, 'Invalid score');
  if (!user || !user.roles.some((role) => role.endsWith('#Learner') || role.endsWith('#Student')))
    return refuse(422, 'User not found in course or is not a student');
  const key = scoreKey(item.id, body.userId);
  const result = memory.results.get(key);
  if (result && Date.parse(result.updatedAt) > timestamp)
    return refuse(
      400,
      `Provided timestamp of ${String(body.timestamp)} before last updated timestamp of ${result.updatedAt}`,
    );
  const scoreGiven = typeof body.scoreGiven === 'number' ? body.scoreGiven : null;
  const scoreMaximum = typeof body.scoreMaximum === 'number' ? body.scoreMaximum : null;
  const grading = String(body.gradingProgress);
  const resetScore = !ACCEPT_GIVEN_SCORE.includes(grading) || scoreGiven === null;
  if (!resetScore) {
    if (scoreMaximum === null) return refuse(422, 'ScoreMaximum not supplied when ScoreGiven present.');
    if (scoreMaximum < 0) return refuse(422, 'ScoreMaximum must be greater than or equal to 0');
    if (scoreGiven! < 0) return refuse(422, 'ScoreGiven must be greater than or equal to 0');
  }
  const extension = (body[EXTENSION] ?? {}) as Record<string, unknown>;
  const submission = body.submission as { submittedAt?: unknown } | undefined;
  const submittedAtText = submission?.submittedAt ?? extension.submitted_at;
  const submittedAt = typeof submittedAtText === 'string' ? Date.parse(submittedAtText) : null;
  if (submittedAtText !== undefined && (submittedAt === null || Number.isNaN(submittedAt)))
    return refuse(400, `Provided submitted_at timestamp of ${String(submittedAtText)} not a valid timestamp`);
  if (submittedAt !== null && submittedAt > Date.now() + 60_000)
    return refuse(400, `Provided submitted_at timestamp of ${String(submittedAtText)} in the future`);
  const newFlag = boolean(extension.new_submission);
  const newSubmission = newFlag !== false && (extension.submission_type ?? 'external_tool') !== 'none';
  const preserveScore = boolean(extension.preserve_score) === true;
  const prioritize = boolean(extension.prioritize_non_tool_grade) === true;
  const assignmentItem = isAssignmentLineItem(item);

  if (newSubmission && assignmentItem)
    submitHomework(
      findOrCreateSubmission(memory, item, body.userId),
      new Date(submittedAt ?? Date.now()).toISOString(),
    );
  // score_submission
  if (assignmentItem) {
    const cell = findOrCreateSubmission(memory, item, body.userId);
    if (preserveScore || resetScore) {
      if (!preserveScore) {
        cell.scoreGiven = null;
        delete cell.gradedBy;
      }
    } else if (!(prioritize && cell.scoreGiven !== null)) {
      const scale = scoreMaximum! > 0 ? item.scoreMaximum / scoreMaximum! : 1;
      gradeStudent(memory, cell, scoreGiven! * scale, 'tool', result);
    }
    if (typeof body.comment === 'string' && body.comment.trim()) addToolComment(cell, body.comment.trim());
  }
  // update_or_create_result: scores_params always carries result_score and result_maximum (nil when left out).
  const next: CanvasResult = {
    lineItemId: item.id,
    userId: body.userId,
    ...(result?.comment !== undefined ? { comment: result.comment } : {}),
    ...(typeof body.comment === 'string' ? { comment: body.comment } : {}),
    resultScore: scoreGiven,
    resultMaximum: scoreMaximum,
    gradingProgress: grading,
    activityProgress: String(body.activityProgress),
    updatedAt: new Date(timestamp).toISOString(),
    extensions: body[EXTENSION] === undefined ? {} : { [EXTENSION]: body[EXTENSION] },
  };
  memory.results.set(key, next);
  if (assignmentItem) {
    const cell = memory.scores.get(key)!;
    inferWorkflowState(cell, next);
    cell.gradingProgress = grading;
    cell.activityProgress = next.activityProgress;
    cell.timestamp = next.updatedAt;
    memory.attempts.set(key, cell.canvas!.attempt);
  }
  return { status: 200 };
}

/**
 * A teacher grades in Canvas's gradebook: grade_student by a person (the result marked reviewed), and
 * Submission#update_line_item_result writes the grade into the result (creating one when there is none).
 */
export function canvasTeacherGrade(memory: PlatformMemory, item: LineItem, userId: string, score: number): void {
  const key = scoreKey(item.id, userId);
  const cell = findOrCreateSubmission(memory, item, userId);
  const result = memory.results.get(key);
  gradeStudent(memory, cell, score, 'teacher', result);
  inferWorkflowState(cell, result);
  cell.gradingProgress = 'FullyGraded';
  memory.results.set(key, {
    lineItemId: item.id,
    userId,
    gradingProgress: 'FullyGraded',
    activityProgress: result?.activityProgress ?? 'Submitted',
    updatedAt: result?.updatedAt ?? new Date(0).toISOString(),
    extensions: result?.extensions ?? {},
    ...(result?.comment !== undefined ? { comment: result.comment } : {}),
    resultScore: score,
    resultMaximum: result?.resultMaximum ?? item.scoreMaximum,
  });
}

/** The teacher posts the assignment's grades (a manual post policy): every submission's grade and comments show. */
export function canvasPostGrades(memory: PlatformMemory, lineItemId: string): void {
  for (const cell of memory.scores.values())
    if (cell.lineItemId === lineItemId && cell.canvas && !cell.canvas.postedAt)
      cell.canvas.postedAt = new Date().toISOString();
}

/** What the result service answers for a user: the result's score, scaled back when a person graded (C3). */
export function canvasResultJson(
  memory: PlatformMemory,
  item: LineItem,
  result: CanvasResult,
): { resultScore: number | null; resultMaximum: number | null; comment?: string } {
  const cell = memory.scores.get(scoreKey(item.id, result.userId));
  const byPerson = cell?.gradedBy === 'teacher';
  const scaled =
    result.resultScore !== null && byPerson && result.resultMaximum !== null && item.scoreMaximum > 0
      ? (result.resultScore * result.resultMaximum) / item.scoreMaximum
      : result.resultScore;
  return {
    resultScore: scaled,
    resultMaximum: result.resultMaximum,
    ...(result.comment !== undefined ? { comment: result.comment } : {}),
  };
}

/** Submission#needs_grading? (needs_grading_conditions): the teacher's "needs grading" list. */
export function canvasNeedsGrading(cell: Score): boolean {
  const s = cell.canvas;
  if (!s || s.submissionType === null) return false;
  if (s.workflowState === 'pending_review') return true;
  return (
    (s.workflowState === 'submitted' || s.workflowState === 'graded') &&
    (cell.scoreGiven === null || !s.gradeMatchesCurrentSubmission)
  );
}

const graded = (cell: Score) => cell.scoreGiven !== null && cell.canvas?.workflowState === 'graded';

/** Submission#hide_grade_from_student?: whether the student reads the grade. */
export function canvasStudentSeesGrade(memory: PlatformMemory, cell: Score): boolean {
  const s = cell.canvas!;
  if (memory.postManually.has(cell.lineItemId)) return s.postedAt !== null;
  const resubmitted = canvasNeedsGrading(cell) && !s.gradeMatchesCurrentSubmission;
  return !((graded(cell) || resubmitted) && s.postedAt === null);
}

/** SubmissionComment#can_view_comment? for the submission's own student: not hidden, and the submission posted (C8). */
export function canvasStudentComments(cell: Score): string[] {
  const s = cell.canvas!;
  return s.postedAt === null ? [] : s.comments.filter((comment) => !comment.hidden).map((comment) => comment.text);
}

/**
 * Whether a cell counts in a total (GradeCalculator#create_group_sums, C9): scored and not pending review; for the
 * student's own total (the posted scores) only once posted.
 */
export function canvasCounts(cell: Score, view: 'teacher' | 'student'): boolean {
  const s = cell.canvas;
  if (!s || cell.scoreGiven === null || s.workflowState === 'pending_review') return false;
  return view === 'teacher' || s.postedAt !== null;
}
