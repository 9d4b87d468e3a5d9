// What LMSs do differently with the scores a tool posts, in one place, keyed by the platform's product family as
// stored at registration (lti/registrations.ts: the code the LMS announced in dynamic registration, or the one an
// administrator gave): never guessed from an address. The codes are compared without regard to case, since the
// stored one is kept as the LMS sent it. A family with no entry here, or none at all (Brightspace's
// "desire2learn", "BlackboardLearn", "sakai", "schoology": no quirk of theirs is known) gets GENERIC, which is
// safe for every LMS: what each known LMS needs, sent where the others ignore it, and every known wording of a
// refusal understood. Sources: Moodle's mod/lti/service/gradebookservices/classes/local/resources/scores.php,
// Canvas's app/controllers/lti/ims/scores_controller.rb (summed up in reference/lti-notes.md §3.4 and §3.5).
import type { AgsAnswer } from './ags.js';

export interface PlatformQuirks {
  /**
   * The least time between two score timestamps for one (line item, user). The specification asks only that they
   * strictly increase (https://www.imsglobal.org/spec/lti-ags/v2p0/#timestamp); an LMS may compare them coarser.
   */
  scoreTimestampGapMs: number;
  /** Members the LMS reads beside a final score, in its own namespace; other LMSs ignore members they do not know. */
  finalScoreExtension(submittedAt: Date): Record<string, unknown>;
  /** Members the LMS reads beside a receipt (a score without scoreGiven), so that it keeps a grade the teacher gave. */
  receiptExtension(): Record<string, unknown>;
  /**
   * Whether the LMS itself keeps a grade the teacher gave when the tool posts over it (Moodle: a grade given in the
   * gradebook is an override; Canvas: with the extension's prioritize_non_tool_grade and preserve_score). When it
   * does not (an LMS whose rules are not known), the tool reads the cell first and posts no grade over one it did not
   * post (grades/teacher-grade.ts).
   */
  keepsTeacherGrade: boolean;
  /** Whether a refused score lost to a later timestamp the LMS holds (then a later one is sent). */
  isTimestampConflict(answer: AgsAnswer): boolean;
  /** Whether a refused score says the user is no gradable student of the course: not posted again until a resync. */
  isNotGradable(answer: AgsAnswer): boolean;
}

/** Moodle compares timestamps in whole seconds (strtotime drops the fraction): the coarsest clock known. */
const WHOLE_SECOND_MS = 1000;

const CANVAS_SUBMISSION_EXTENSION = 'https://canvas.instructure.com/lti/submission';

const MOODLE: PlatformQuirks = {
  // Moodle refuses (409) a timestamp whose whole second is not after the stored one's: a receipt and a result
  // posted within one second would clash.
  scoreTimestampGapMs: WHOLE_SECOND_MS,
  finalScoreExtension: () => ({}),
  receiptExtension: () => ({}),
  // A grade a teacher gives in Moodle's gradebook is an override: a tool's later score changes the raw grade but not
  // the final grade, nor the feedback (lib/grade/grade_item.php update_raw_grade, "!$grade->is_overridden()";
  // test/fixtures/lms/moodle/gradebook.md).
  keepsTeacherGrade: true,
  // "Refusing score with an earlier timestamp".
  isTimestampConflict: (answer) => answer.status === 409,
  // "Incorrect score received": Moodle's one answer for every score it will not take, which for the tool's own
  // (well-formed) scores means the user is not enrolled with a graded role.
  isNotGradable: (answer) => answer.status === 400 && /incorrect score/i.test(answer.body),
};

const CANVAS: PlatformQuirks = {
  scoreTimestampGapMs: WHOLE_SECOND_MS,
  // Canvas's submission extension (https://canvas.instructure.com/doc/api/score.html): the score is not a new
  // attempt (which would count against the student's allowed attempts), and never replaces a grade the instructor
  // gave by hand (prioritize_non_tool_grade), nor clears it when it carries no scoreGiven (preserve_score: without it
  // Canvas sets the submission's score to nil, scores_controller.rb "ignore_score?"); submitted_at keeps the
  // student's real time, so the paper is not marked late. test/fixtures/lms/canvas/gradebook.md
  finalScoreExtension: (submittedAt) => ({
    [CANVAS_SUBMISSION_EXTENSION]: {
      new_submission: false,
      prioritize_non_tool_grade: true,
      preserve_score: true,
      submitted_at: submittedAt.toISOString(),
    },
  }),
  // A receipt has no scoreGiven: Canvas would clear the teacher's grade of an earlier attempt without preserve_score.
  receiptExtension: () => ({
    [CANVAS_SUBMISSION_EXTENSION]: { prioritize_non_tool_grade: true, preserve_score: true },
  }),
  keepsTeacherGrade: true,
  // "Provided timestamp of … before last updated timestamp of …", with 400.
  isTimestampConflict: (answer) => answer.status === 400 && /timestamp/i.test(answer.body),
  // "User not found in course or is not a student" (Student View's test student, a dropped enrolment). Canvas's
  // other 422s (the attempts used up, an unpublished assignment) are for an instructor to fix; a resync then posts.
  isNotGradable: (answer) => answer.status === 422 && /not a student|not found in course/i.test(answer.body),
};

/** An LMS whose family is not known: every known need met, every known refusal understood. */
const GENERIC: PlatformQuirks = {
  scoreTimestampGapMs: WHOLE_SECOND_MS,
  // It may be a Canvas registered without its family; any other LMS ignores Canvas's namespace.
  finalScoreExtension: CANVAS.finalScoreExtension,
  receiptExtension: CANVAS.receiptExtension,
  // Not known (Blackboard, Brightspace, others): the tool reads the cell before it posts a grade.
  keepsTeacherGrade: false,
  isTimestampConflict: (answer) => MOODLE.isTimestampConflict(answer) || CANVAS.isTimestampConflict(answer),
  // A 422 is a refusal of this user by every LMS known to send it; sending again would only be refused again.
  isNotGradable: (answer) => answer.status === 422 || MOODLE.isNotGradable(answer) || CANVAS.isNotGradable(answer),
};

const BY_FAMILY = new Map<string, PlatformQuirks>([
  ['moodle', MOODLE],
  ['canvas', CANVAS],
]);

/** The quirks of the platform's LMS, by the product family stored with its registration (null: not known). */
export function quirksFor(productFamily: string | null): PlatformQuirks {
  return (productFamily && BY_FAMILY.get(productFamily.trim().toLowerCase())) || GENERIC;
}
