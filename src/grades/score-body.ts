// The scores the tool posts (https://www.imsglobal.org/spec/lti-ags/v2p0/#score-publish-service): a receipt while
// the paper is checked, the similarity once it is, and an empty cell after a deletion.
import type { PlatformQuirks } from './platform-quirks.js';

export type ScoreBody = Record<string, unknown>;

/** What a submission's score shows. */
export interface SubmissionScore {
  /** The LTI user id (https://www.imsglobal.org/spec/lti-ags/v2p0/#userid-0): the launch's `sub`. */
  userSubject: string;
  state: string;
  similarity: number | null;
  submittedAt: Date;
}

/** The similarity, once the paper is checked: the final score. Null before (a receipt). */
export function finalScoreOf(submission: Pick<SubmissionScore, 'state' | 'similarity'>): number | null {
  return submission.state === 'scored' || submission.state === 'graded' ? submission.similarity : null;
}

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
  if (score !== null) {
    return {
      ...base,
      // https://www.imsglobal.org/spec/lti-ags/v2p0/#scoregiven-and-scoremaximum
      scoreGiven: score,
      scoreMaximum: 100,
      // https://www.imsglobal.org/spec/lti-ags/v2p0/#gradingprogress: final, the LMS may show it (some keep a
      // score only when it is FullyGraded).
      gradingProgress: 'FullyGraded',
      // https://www.imsglobal.org/spec/lti-ags/v2p0/#comment-0: plain text, shown to the student and the
      // instructor; leaving it out would clear an earlier comment.
      comment: `Similarity ${score}%. The full report is in the assignment.`,
      ...quirks.finalScoreExtension(submission.submittedAt),
    };
  }
  return { ...base, gradingProgress: 'Pending', comment: 'Received; the similarity check is running.' };
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
