// Who sees a checked paper's results: the instructors of the course always; the student whose paper it is as the
// assignment's settings allow (when results are shown at all, and the AI score and its reports only where the
// assignment shows them).
import type { Assignment } from '../assignments/store.js';
import type { Audience } from '../lti/roles.js';
import type { Sentence } from '../i18n/index.js';
import type { Submission } from '../submissions/store.js';
import { reportsOffered, studentMayOpen, type ReportKind } from './kinds.js';

/** Whether students see their results now, under the assignment's setting. */
export function resultsVisible(assignment: Assignment, now = new Date()): boolean {
  const rule = assignment.settings.resultsVisibleTo;
  if (rule === 'instructors') return false;
  if (rule === 'students-after-due')
    return assignment.settings.dueAt !== null && now > new Date(assignment.settings.dueAt);
  return true;
}

const checked = (submission: Submission) => submission.state === 'scored' || submission.state === 'graded';

/** What a student sees of the results of their own attempt: nothing until it is checked and results are shown. */
export function studentResults(
  assignment: Assignment,
  submission: Submission,
): { similarity: number | null; aiScore: number | null; reports: Array<{ kind: ReportKind }> } {
  const visible = resultsVisible(assignment) && checked(submission);
  return {
    similarity: visible ? submission.similarity : null,
    aiScore: visible && assignment.settings.showAiScoreToStudents ? submission.aiScore : null,
    // A replaced attempt's report went with its paper (submissions/replace-earlier.ts).
    reports:
      visible && submission.replacedAt === null ? reportsOffered('student', assignment.settings, submission) : [],
  };
}

/** Who asks for a report: their side of the course and who they are. */
export interface ReportAsker {
  audience: Audience;
  userId: string;
}

export interface ReportRefusal {
  status: 403 | 404 | 409 | 502;
  /** What the reader is told, in their language on a page. */
  sentence: Sentence;
}

/**
 * The scores a reader of a report sees beside it: an instructor, every score of the paper; its student, what
 * studentResults shows them (the AI score only where the assignment shows it to students).
 */
export function scoresShown(
  asker: ReportAsker,
  assignment: Assignment,
  submission: Submission,
): { similarity: number | null; aiScore: number | null } {
  if (asker.audience === 'instructor') return { similarity: submission.similarity, aiScore: submission.aiScore };
  if (asker.audience !== 'learner' || submission.userId !== asker.userId) return { similarity: null, aiScore: null };
  const { similarity, aiScore } = studentResults(assignment, submission);
  return { similarity, aiScore };
}

export const NO_SUCH_REPORT: ReportRefusal = { status: 404, sentence: { key: 'report.noSuch' } };

/**
 * Whether the asker may open this report of a submission of the assignment (the caller has checked that the
 * assignment is of the asker's own course): an instructor, any checked paper's; a student, their own checked
 * paper's, as the assignment allows. Null: they may.
 */
export function reportRefusal(
  asker: ReportAsker,
  assignment: Assignment,
  submission: Submission,
  kind: ReportKind,
): ReportRefusal | null {
  const instructor = asker.audience === 'instructor';
  const owner = asker.audience === 'learner' && submission.userId === asker.userId;
  if (!instructor && !owner) return { status: 403, sentence: { key: 'report.othersPaper' } };
  if (!instructor && !(resultsVisible(assignment) && studentMayOpen(assignment.settings, kind)))
    return { status: 403, sentence: { key: 'report.notShown' } };
  // Its paper and report were deleted at the service when a later attempt replaced it (submissions/replace-earlier.ts).
  if (submission.replacedAt !== null) return { status: 404, sentence: { key: 'report.replaced' } };
  if (submission.paperId === null || !checked(submission)) return { status: 409, sentence: { key: 'report.notReady' } };
  return null;
}
