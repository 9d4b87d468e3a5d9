// The scores the tool posts (https://www.imsglobal.org/spec/lti-ags/v2p0/#score-publish-service): a receipt while
// the paper is checked, the result once it is, and an empty cell after a deletion. What the result says, and where,
// follows the assignment's gradeColumn (gradebook-use.ts says what each LMS makes of each).
import type { GradeColumn } from '../assignments/settings.js';
import { wordsFor, type Language } from '../messages/index.js';
import type { PlatformQuirks } from './platform-quirks.js';

export type ScoreBody = Record<string, unknown>;

/** What a submission's score shows. */
export interface SubmissionScore {
  /** The LTI user id (https://www.imsglobal.org/spec/lti-ags/v2p0/#userid-0): the launch's `sub`. */
  userSubject: string;
  state: string;
  similarity: number | null;
  submittedAt: Date;
  gradeColumn: GradeColumn;
  /** Whether the comment may name the similarity: the LMS shows a score's comment to the student as well. */
  commentShowsSimilarity: boolean;
  /** The language the comment is written in: the assignment's instructors' (assignments/language.ts). */
  commentLanguage: Language;
}

/** The similarity, once the paper is checked: the final score. Null before (a receipt). */
export function finalScoreOf(submission: Pick<SubmissionScore, 'state' | 'similarity'>): number | null {
  return submission.state === 'scored' || submission.state === 'graded' ? submission.similarity : null;
}

/**
 * The comment beside the result (https://www.imsglobal.org/spec/lti-ags/v2p0/#comment-0): plain text, shown to the
 * student and the instructor; leaving it out would clear an earlier comment. It names the similarity only when the
 * assignment lets the student see it as soon as the paper is checked.
 */
export function resultComment(similarity: number, showsSimilarity: boolean, language: Language): string {
  const { t } = wordsFor(language);
  return showsSimilarity ? t('gradebook.comment.similarity', { similarity }) : t('gradebook.comment.checked');
}

/**
 * The score of a submission: a receipt before the result; with the result, by gradeColumn:
 * - "comment": no scoreGiven, gradingProgress PendingManual and the similarity in the comment. No LMS computes a
 *   grade or a course total from it: Moodle keeps a score only when FullyGraded and stores the comment as feedback;
 *   Canvas grades nothing without scoreGiven, lists the paper as needing grading and adds the comment to the
 *   submission (test/fixtures/lms/<lms>/gradebook.md). The grade stays the teacher's to give.
 * - "assignment" and "similarity": the similarity as the score, FullyGraded.
 */
export function submissionScoreBody(submission: SubmissionScore, timestamp: Date, quirks: PlatformQuirks): ScoreBody {
  const base = {
    userId: submission.userSubject,
    // https://www.imsglobal.org/spec/lti-ags/v2p0/#timestamp (score-clock.ts chooses it)
    timestamp: timestamp.toISOString(),
    // The student's real submission time, so the LMS does not count a result that comes later as a late paper.
    submission: { submittedAt: submission.submittedAt.toISOString() },
    activityProgress: 'Submitted',
  };
  const score = finalScoreOf(submission);
  // No comment: one would outlive the check where the teacher grades before the result (Moodle keeps the feedback
  // of an overridden grade as it was), and leaving it out clears the comment of an earlier attempt.
  if (score === null) return { ...base, gradingProgress: 'Pending', ...quirks.receiptExtension() };
  const comment = resultComment(score, submission.commentShowsSimilarity, submission.commentLanguage);
  if (submission.gradeColumn === 'comment') return commentOnlyBody(base, comment, submission, quirks);
  return {
    ...base,
    // https://www.imsglobal.org/spec/lti-ags/v2p0/#scoregiven-and-scoremaximum
    scoreGiven: score,
    scoreMaximum: 100,
    // https://www.imsglobal.org/spec/lti-ags/v2p0/#gradingprogress: final, the LMS may show it (some keep a
    // score only when it is FullyGraded).
    gradingProgress: 'FullyGraded',
    comment,
    ...quirks.finalScoreExtension(submission.submittedAt),
  };
}

/**
 * The result without a grade: the similarity in the comment, the grading left to the teacher
 * (https://www.imsglobal.org/spec/lti-ags/v2p0/#gradingprogress: PendingManual, "human intervention is required").
 */
function commentOnlyBody(
  base: ScoreBody,
  comment: string,
  submission: Pick<SubmissionScore, 'submittedAt'>,
  quirks: PlatformQuirks,
): ScoreBody {
  return { ...base, gradingProgress: 'PendingManual', comment, ...quirks.finalScoreExtension(submission.submittedAt) };
}

/**
 * The result as a comment only, whatever the gradeColumn: sent instead of a grade where the cell holds a grade the
 * teacher gave and the LMS would not keep it by itself (teacher-grade.ts).
 */
export function resultCommentBody(
  submission: SubmissionScore,
  similarity: number,
  timestamp: Date,
  quirks: PlatformQuirks,
): ScoreBody {
  return commentOnlyBody(
    {
      userId: submission.userSubject,
      timestamp: timestamp.toISOString(),
      submission: { submittedAt: submission.submittedAt.toISOString() },
      activityProgress: 'Submitted',
    },
    resultComment(similarity, submission.commentShowsSimilarity, submission.commentLanguage),
    submission,
    quirks,
  );
}

/**
 * An empty cell: a score without scoreGiven clears the tool's score before it
 * (https://www.imsglobal.org/spec/lti-ags/v2p0/#scoregiven-and-scoremaximum).
 */
export function clearedScoreBody(userSubject: string, timestamp: Date): ScoreBody {
  return {
    userId: userSubject,
    timestamp: timestamp.toISOString(),
    activityProgress: 'Initialized',
    gradingProgress: 'NotReady',
    comment: 'The submission was deleted by an instructor.',
  };
}
