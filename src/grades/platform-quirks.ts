// What LMSs do differently with the scores a tool posts, in one place, keyed by the LMS its platform's product family
// names as stored at registration (lti/product-family.ts: the code the LMS announced in dynamic registration, or the
// one an administrator gave): never guessed from an address. Every LMS has its line, so that one added there is
// decided here; Brightspace, Blackboard, Sakai and Schoology (their documents say too little of it to follow), and
// any other, get GENERIC: the specification's scores, with Canvas's extension (ignored by the others) filled in the safe way. Each
// rule rests on its LMS's code or documents, kept in test/fixtures/lms/<lms>/gradebook.md (Moodle's
// mod/lti/service/gradebookservices/classes/local/resources/scores.php; Canvas's
// app/controllers/lti/ims/scores_controller.rb and the models it calls).
import { lmsOf, type Lms } from '../lti/product-family.js';
import type { AgsAnswer } from './ags.js';

/** What a post is, for the extension an LMS reads beside it. */
export interface ScorePost {
  /** The student's real submission time (null: none, a deletion's). */
  submittedAt: Date | null;
  /** The first post of this attempt to the assignment's column not yet acknowledged (Canvas counts an attempt). */
  newSubmission: boolean;
  /** The post carries scoreGiven. */
  grades: boolean;
  /** A grade post: keep a grade already in the cell (Canvas's prioritize_non_tool_grade). */
  keepGradeThere: boolean;
  /** A post without scoreGiven: keep the grade in the cell (Canvas's preserve_score); false clears it. */
  keepGrade: boolean;
}

export interface PlatformQuirks {
  /**
   * The least time between two score timestamps for one (line item, user). The specification asks only that they
   * strictly increase (https://www.imsglobal.org/spec/lti-ags/v2p0/#timestamp); an LMS may compare them coarser.
   */
  scoreTimestampGapMs: number;
  /** Members the LMS reads beside a score, in its own namespace; other LMSs ignore members they do not know. */
  scoreExtension(post: ScorePost): Record<string, unknown>;
  /**
   * The gradingProgress of a result that gives no grade (the similarity as a comment). The specification's
   * PendingManual, "human intervention is required"; Canvas's FullyGraded without scoreGiven, since its PendingManual
   * sends a graded paper back to "needs grading" and out of the student's total (canvas/gradebook.md C4), while a
   * submitted paper without a grade is in its needs-grading list anyway.
   */
  ungradedResultProgress: 'PendingManual' | 'FullyGraded';
  /** The LMS adds every comment it is sent (Canvas, C7): a result's comment goes once per attempt and column. */
  commentsAccumulate: boolean;
  /**
   * The assignment's own column records the attempt (Canvas, C5): the receipt goes there whatever the gradebook
   * choice, and a result posted before any receipt records it.
   */
  recordsAttempts: boolean;
  /**
   * Whether a column of the tool's own is bound to the assignment's resource link. Canvas adds a line item made with
   * a resourceLinkId to the link's assignment as a second line item, which is no column (C10): there it is made
   * without one, a column (an assignment) of its own.
   */
  linksOwnColumn: boolean;
  /**
   * How the teacher's grade stays theirs: `lms`, the LMS keeps it by itself (Moodle: a grade given in the gradebook is
   * an override); `followed`, the tool reads the cell before each post and follows it (Canvas: grades/canvas-cell.ts);
   * `read-first`, the tool reads the cell before a grade and sends a comment where a grade it never posted is
   * (grades/teacher-grade.ts), for an LMS whose rules are not known.
   */
  teacherGrade: 'lms' | 'followed' | 'read-first';
  /** Whether a refused score lost to a later timestamp the LMS holds (then a later one is sent). */
  isTimestampConflict(answer: AgsAnswer): boolean;
  /** Whether a refused score says the user is no gradable student of the course: not posted again until a resync. */
  isNotGradable(answer: AgsAnswer): boolean;
}

/** Moodle compares timestamps in whole seconds (strtotime drops the fraction): the coarsest clock known. */
const WHOLE_SECOND_MS = 1000;

const CANVAS_SUBMISSION_EXTENSION = 'https://canvas.instructure.com/lti/submission';

/**
 * Canvas's submission extension (scores_controller.rb; test/fixtures/lms/canvas/gradebook.md): new_submission once
 * per attempt (C5); on a grade, prioritize_non_tool_grade unless the cell holds the tool's own grade (C2), and never
 * preserve_score, which stops the grade (C1); on a post without a grade, preserve_score unless the tool clears its
 * own grade (C1, C6); submitted_at, the student's real time, so that the paper is not marked late.
 */
function canvasExtension(post: ScorePost): Record<string, unknown> {
  return {
    [CANVAS_SUBMISSION_EXTENSION]: {
      new_submission: post.newSubmission,
      ...(post.grades ? { prioritize_non_tool_grade: post.keepGradeThere } : { preserve_score: post.keepGrade }),
      ...(post.submittedAt ? { submitted_at: post.submittedAt.toISOString() } : {}),
    },
  };
}

const MOODLE: PlatformQuirks = {
  // Moodle refuses (409) a timestamp whose whole second is not after the stored one's: a receipt and a result
  // posted within one second would clash.
  scoreTimestampGapMs: WHOLE_SECOND_MS,
  scoreExtension: () => ({}),
  // Moodle keeps the comment as the feedback of an empty grade (moodle/gradebook.md (a)).
  ungradedResultProgress: 'PendingManual',
  // A score's comment replaces the feedback, and a score without one empties it (save_grade_item).
  commentsAccumulate: false,
  recordsAttempts: false,
  linksOwnColumn: true,
  // A grade a teacher gives in Moodle's gradebook is an override: a tool's later score changes the raw grade but not
  // the final grade, nor the feedback (lib/grade/grade_item.php update_raw_grade, "!$grade->is_overridden()";
  // test/fixtures/lms/moodle/gradebook.md).
  teacherGrade: 'lms',
  // "Refusing score with an earlier timestamp".
  isTimestampConflict: (answer) => answer.status === 409,
  // "Incorrect score received": Moodle's one answer for every score it will not take, which for the tool's own
  // (well-formed) scores means the user is not enrolled with a graded role.
  isNotGradable: (answer) => answer.status === 400 && /incorrect score/i.test(answer.body),
};

const CANVAS: PlatformQuirks = {
  scoreTimestampGapMs: WHOLE_SECOND_MS,
  scoreExtension: canvasExtension,
  ungradedResultProgress: 'FullyGraded',
  commentsAccumulate: true,
  recordsAttempts: true,
  linksOwnColumn: false,
  teacherGrade: 'followed',
  // "Provided timestamp of … before last updated timestamp of …", with 400.
  isTimestampConflict: (answer) => answer.status === 400 && /timestamp/i.test(answer.body),
  // "User not found in course or is not a student" (Student View's test student, a dropped enrolment). Canvas's
  // other 422s (the attempts used up, an unpublished assignment) are for an instructor to fix; a resync then posts.
  isNotGradable: (answer) => answer.status === 422 && /not a student|not found in course/i.test(answer.body),
};

/** An LMS whose family is not known: the specification's scores, every known refusal understood. */
const GENERIC: PlatformQuirks = {
  scoreTimestampGapMs: WHOLE_SECOND_MS,
  // It may be a Canvas registered without its family; any other LMS ignores Canvas's namespace. Without following
  // the cell it cannot know a grade there is its own: it keeps every grade.
  scoreExtension: (post) => canvasExtension({ ...post, keepGradeThere: true, keepGrade: true }),
  ungradedResultProgress: 'PendingManual',
  // The specification: a score's comment is the result's comment, and leaving it out clears it.
  commentsAccumulate: false,
  recordsAttempts: false,
  linksOwnColumn: true,
  // Not known (Blackboard, Brightspace, others): the tool reads the cell before it posts a grade.
  teacherGrade: 'read-first',
  isTimestampConflict: (answer) => MOODLE.isTimestampConflict(answer) || CANVAS.isTimestampConflict(answer),
  // A 422 is a refusal of this user by every LMS known to send it; sending again would only be refused again.
  isNotGradable: (answer) => answer.status === 422 || MOODLE.isNotGradable(answer) || CANVAS.isNotGradable(answer),
};

/** Each LMS's quirks: its own where its code or documents say them (test/fixtures/lms/<lms>/gradebook.md). */
export const QUIRKS: Record<Lms, PlatformQuirks> = {
  moodle: MOODLE,
  canvas: CANVAS,
  brightspace: GENERIC,
  blackboard: GENERIC,
  sakai: GENERIC,
  schoology: GENERIC,
  other: GENERIC,
};

/** The quirks of the platform's LMS, by the product family stored with its registration (null: not known). */
export function quirksFor(productFamily: string | null): PlatformQuirks {
  return QUIRKS[lmsOf(productFamily)];
}
