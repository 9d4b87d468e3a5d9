// Who sees a checked paper's results: the instructors of the course always; the student whose paper it is as the
// assignment's settings allow (when results are shown at all, and the AI score and its reports only where the
// assignment shows them).
import type { Assignment } from '../assignments/store.js';
import type { Audience } from '../lti/roles.js';
import type { Submission } from '../submissions/store.js';
import { reportsOffered, studentMayOpen, type ReportKind } from './kinds.js';

/** Whether students see their results now, under the assignment's setting. */
export function resultsVisible(assignment: Assignment, now = new Date()): boolean {
  const rule = assignment.settings.resultsVisibleTo;
  if (rule === 'instructors') return false;
  if (rule === 'students-after-due') return assignment.settings.dueAt !== null && now > new Date(assignment.settings.dueAt);
  return true;
}

const checked = (submission: Submission) => submission.state === 'scored' || submission.state === 'graded';

/** What a student sees of the results of their own attempt: nothing until it is checked and results are shown. */
export function studentResults(assignment: Assignment, submission: Submission): { similarity: number | null; aiScore: number | null; reports: Array<{ kind: ReportKind; label: string }> } {
  const visible = resultsVisible(assignment) && checked(submission);
  return {
    similarity: visible ? submission.similarity : null,
    aiScore: visible && assignment.settings.showAiScoreToStudents ? submission.aiScore : null,
    reports: visible ? reportsOffered('student', assignment.settings, submission) : [],
  };
}

/** Who asks for a report: their side of the course and who they are. */
export interface ReportAsker {
  audience: Audience;
  userId: string;
}

export interface ReportRefusal {
  status: 403 | 404 | 409 | 502;
  message: string;
}

export const NO_SUCH_REPORT: ReportRefusal = { status: 404, message: 'There is no such report. Go back to the assignment and open the report from its list.' };

/**
 * Whether the asker may open this report of a submission of the assignment (the caller has checked that the
 * assignment is of the asker's own course): an instructor, any checked paper's; a student, their own checked
 * paper's, as the assignment allows. Null: they may.
 */
export function reportRefusal(asker: ReportAsker, assignment: Assignment, submission: Submission, kind: ReportKind): ReportRefusal | null {
  const instructor = asker.audience === 'instructor';
  const owner = asker.audience === 'learner' && submission.userId === asker.userId;
  if (!instructor && !owner) return { status: 403, message: 'This report is of another student\'s paper. Open your own reports from the assignment.' };
  if (!instructor && !(resultsVisible(assignment) && studentMayOpen(assignment.settings, kind))) {
    return { status: 403, message: 'Your instructor has not made this report available to you. Your results stay on the assignment page, where they appear once your instructor shows them.' };
  }
  if (submission.paperId === null || !checked(submission)) return { status: 409, message: 'The report is not ready: the paper is still being checked. The assignment page shows when it is done; open the report from there.' };
  return null;
}
