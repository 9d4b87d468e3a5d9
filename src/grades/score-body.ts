// The scores the tool posts (https://www.imsglobal.org/spec/lti-ags/v2p0/#score-publish-service): a receipt while
// the paper is checked, the result once it is, and an empty cell after a deletion. What the result says, and where,
// follows the assignment's gradeColumn; what each LMS makes of each is in test/fixtures/lms/<lms>/gradebook.md, and
// the members each LMS needs beside them in platform-quirks.ts.
import type { GradeColumn } from '../assignments/settings.js';
import { wordsFor, type Language } from '../i18n/index.js';
import type { PlatformQuirks, ScorePost } from './platform-quirks.js';

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
 * student and the instructor. It names the similarity only when the assignment lets the student see it as soon as
 * the paper is checked.
 */
export function resultComment(similarity: number, showsSimilarity: boolean, language: Language): string {
  const { t } = wordsFor(language);
  return showsSimilarity ? t('gradebook.comment.similarity', { similarity }) : t('gradebook.comment.checked');
}

/** What every post of a submission's score carries. */
function baseOf(submission: Pick<SubmissionScore, 'userSubject' | 'submittedAt'>, timestamp: Date): ScoreBody {
  return {
    userId: submission.userSubject,
    // https://www.imsglobal.org/spec/lti-ags/v2p0/#timestamp (score-clock.ts chooses it)
    timestamp: timestamp.toISOString(),
    // The student's real submission time, so the LMS does not count a result that comes later as a late paper.
    submission: { submittedAt: submission.submittedAt.toISOString() },
    activityProgress: 'Submitted',
  };
}

/** How a post stands to the cell: is it the attempt's first to the assignment's column, and may it touch a grade there. */
export type PostStanding = Pick<ScorePost, 'newSubmission' | 'keepGradeThere' | 'keepGrade'>;

/**
 * The receipt while the paper is checked: Submitted, Pending, no score. No comment: one would outlive the check
 * where the teacher grades before the result (Moodle keeps the feedback of an overridden grade as it was), and
 * leaving it out clears the comment of an earlier attempt.
 */
export function receiptBody(
  submission: SubmissionScore,
  timestamp: Date,
  quirks: PlatformQuirks,
  standing: PostStanding,
): ScoreBody {
  return {
    ...baseOf(submission, timestamp),
    gradingProgress: 'Pending',
    ...quirks.scoreExtension({ submittedAt: submission.submittedAt, grades: false, ...standing }),
  };
}

/**
 * The result: with `grade`, the similarity as the score out of 100, FullyGraded
 * (https://www.imsglobal.org/spec/lti-ags/v2p0/#scoregiven-and-scoremaximum, #gradingprogress: final, the LMS may
 * show it; some keep a score only when it is FullyGraded); without, no scoreGiven and the LMS's progress for a
 * result the teacher grades (platform-quirks.ts ungradedResultProgress). `comment` null: none this time (an LMS that
 * adds every comment has it already).
 */
export function resultBody(
  submission: SubmissionScore,
  timestamp: Date,
  quirks: PlatformQuirks,
  result: { grade: number | null; comment: string | null; standing: PostStanding },
): ScoreBody {
  const grades = result.grade !== null;
  return {
    ...baseOf(submission, timestamp),
    ...(grades ? { scoreGiven: result.grade, scoreMaximum: 100 } : {}),
    gradingProgress: grades ? 'FullyGraded' : quirks.ungradedResultProgress,
    ...(result.comment !== null ? { comment: result.comment } : {}),
    ...quirks.scoreExtension({ submittedAt: submission.submittedAt, grades, ...result.standing }),
  };
}

/**
 * An empty cell after a deletion: a score without scoreGiven clears the tool's score before it
 * (https://www.imsglobal.org/spec/lti-ags/v2p0/#scoregiven-and-scoremaximum); an LMS that keeps grades unless told
 * (Canvas) is told by the standing. No new attempt is made of it.
 */
export function clearedScoreBody(
  userSubject: string,
  timestamp: Date,
  quirks: PlatformQuirks,
  removal: { comment: string; keepGrade: boolean },
): ScoreBody {
  return {
    userId: userSubject,
    timestamp: timestamp.toISOString(),
    activityProgress: 'Initialized',
    gradingProgress: 'NotReady',
    comment: removal.comment,
    ...quirks.scoreExtension({
      submittedAt: null,
      grades: false,
      newSubmission: false,
      keepGradeThere: true,
      keepGrade: removal.keepGrade,
    }),
  };
}
