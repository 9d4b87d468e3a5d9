// LTI Submission Review (https://www.imsglobal.org/spec/lti-sr/v1p0/): the platform's gradebook opens the tool on
// one user's submissions of one resource link. The message is verified with every check of every launch
// (verify-launch.ts); this file holds only what is particular to it: the claims it must carry, who may see what it
// names, and the line item's submissionReview that makes a platform offer it. The table of message types names it
// (index.ts).
//
// Moodle 4.5 sends it from its grade analysis (mod/lti/grade.php redirects to view.php?action=gradeReport, whose
// launch carries for_user = { user_id } of the student and the activity's resource link, to the line item's
// submissionReview url when it has one): test/fixtures/lms/moodle/submission-review-request.json names the source.
// Its grader report's column menu ("View External tool results") links grade.php with no user, and the launch then
// carries no for_user at all: test/fixtures/lms/moodle/grader-report-review-request.json.
import { z } from 'zod';
import { CLAIM } from '../claims.js';
import { MEMBERSHIP, type Audience } from '../roles.js';

/** The claim and role URIs this message reads (their one home: claims.ts, roles.ts). */
export const SUBMISSION_REVIEW_URIS = {
  message: 'LtiSubmissionReviewRequest',
  forUser: CLAIM.forUser,
  resourceLink: CLAIM.resourceLink,
  instructorRole: MEMBERSHIP.instructor,
  learnerRole: MEMBERSHIP.learner,
} as const;

export const SUBMISSION_REVIEW_MESSAGE = SUBMISSION_REVIEW_URIS.message;

/**
 * What the message must carry besides the core claims (lti-sr 2.1 "Submission Review Request"): the resource link
 * the submission belongs to, and for_user naming the user whose submission is reviewed (user_id required when it is
 * there: lti-sr "for_user claim"). The rest of for_user is the platform's to send or not (Moodle sends only user_id).
 *
 * Sources disagree on for_user itself: lti-sr requires it, Moodle 4.5 leaves it out when its grader report opens the
 * activity's column rather than one student's cell (grade.php's userid is then 0 and locallib.php adds no for_user).
 * The tool takes Moodle's launch: without for_user it is a review of the whole activity, not of a user.
 */
export const submissionReviewClaims = z
  .object({
    [SUBMISSION_REVIEW_URIS.forUser]: z
      .object({
        user_id: z.string().min(1).max(255),
        name: z.string().max(500).optional(),
        given_name: z.string().max(500).optional(),
        family_name: z.string().max(500).optional(),
        email: z.string().max(500).optional(),
      })
      .optional(),
    [SUBMISSION_REVIEW_URIS.resourceLink]: z.object({ id: z.string().min(1).max(255) }),
  })
  .transform((claims) => {
    const named = claims[SUBMISSION_REVIEW_URIS.forUser];
    return {
      type: SUBMISSION_REVIEW_MESSAGE,
      resourceLinkId: claims[SUBMISSION_REVIEW_URIS.resourceLink].id,
      /** The user whose submissions are reviewed, with the name the LMS gave; null: the whole activity (Moodle). */
      forUser: named
        ? {
            userId: named.user_id,
            name:
              named.name ??
              ([named.given_name, named.family_name].filter(Boolean).join(' ') || named.email || named.user_id),
          }
        : null,
    } as const;
  });
export type SubmissionReviewMessage = z.output<typeof submissionReviewClaims>;

/**
 * Whose review the launching user may open: an instructor any student's of their course, or the whole class when
 * the launch names nobody; a learner only their own (lti-sr: the platform may let a learner review their own
 * submission), which is also what a learner's launch naming nobody opens; anyone else nothing.
 */
export function reviewerOf(
  viewer: { subject: string; audience: Audience },
  forUserId: string | undefined,
): 'instructor' | 'class' | 'self' | 'refused' {
  if (viewer.audience === 'instructor') return forUserId === undefined ? 'class' : 'instructor';
  if (viewer.audience === 'learner' && (forUserId === undefined || viewer.subject === forUserId)) return 'self';
  return 'refused';
}

/**
 * The submissionReview of a line item the tool creates (https://www.imsglobal.org/spec/lti-ags/v2p0/#submissionreview):
 * who may open it, the tool's launch address, and custom parameters the platform adds to the launch (Moodle
 * appends them to the link's own). Without `url` the platform launches the resource link's own target, which is
 * the same address: the grade jobs, which do not know the address, leave it out.
 */
export function submissionReviewOfLineItem(
  custom: Record<string, string>,
  launchUrl?: string,
): { reachableBy: string[]; url?: string; custom: Record<string, string> } {
  return {
    reachableBy: [SUBMISSION_REVIEW_URIS.instructorRole, SUBMISSION_REVIEW_URIS.learnerRole],
    ...(launchUrl ? { url: launchUrl } : {}),
    custom,
  };
}
