// Moodle's grade analysis, platform side: a teacher opens a student's grade of an LTI activity and the platform
// launches the tool with LtiSubmissionReviewRequest for that student (https://www.imsglobal.org/spec/lti-sr/v1p0/).
// Built as Moodle 4.5 builds it (test/fixtures/lms/moodle/submission-review-request.json names the source):
// mod/lti/grade.php → view.php?action=gradeReport&user=<student> → the message type LtiSubmissionReviewRequest,
// for_user = { user_id } of the student and nothing more of them, the activity's resource link, the launching
// user's own roles; when the activity's one line item has a submissionReview (deep linking's lineItem or AGS),
// its url is the target and its custom parameters are added to the link's own (gradebookservices.php,
// override_endpoint). Moodle checks no role of the launching user for this launch beyond viewing the activity:
// whoever opens view.php?action=gradeReport&user=<id> is launched, so the tool decides who sees what. The grader
// report's column menu ("View External tool results") links grade.php without a user: no for_user at all
// (test/fixtures/lms/moodle/grader-report-review-request.json).
import { agsClaim } from './ags.js';
import { LTI_CLAIM, type PlatformContext } from './context.js';
import type { ResourceLink } from './state.js';

export const SUBMISSION_REVIEW_MESSAGE = 'LtiSubmissionReviewRequest';

/**
 * Where the review launch goes and the custom parameters it carries: Moodle uses the link's single line item's
 * submissionReview only when the link has exactly one (gradebookservices.php, override_endpoint).
 */
export function reviewTarget(
  platform: PlatformContext,
  link: ResourceLink,
): { url: string; custom: Record<string, string> } {
  const only = link.lineItemIds.length === 1 ? platform.memory.lineItems.get(link.lineItemIds[0]!) : undefined;
  const review = only?.submissionReview;
  return { url: review?.url ?? platform.tool.launchUrl, custom: { ...link.custom, ...(review?.custom ?? {}) } };
}

/** The claims of the review launch beyond those every launch carries (id-token.ts). */
export function submissionReviewClaims(
  platform: PlatformContext,
  link: ResourceLink,
  forUserId: string | undefined,
): Record<string, unknown> {
  const target = reviewTarget(platform, link);
  return {
    [`${LTI_CLAIM}/message_type`]: SUBMISSION_REVIEW_MESSAGE,
    [`${LTI_CLAIM}/target_link_uri`]: target.url,
    [`${LTI_CLAIM}/resource_link`]: { id: link.id, title: link.title },
    // Moodle's grader report column menu opens grade.php with no user: the launch then names nobody.
    ...(forUserId === undefined ? {} : { [`${LTI_CLAIM}/for_user`]: { user_id: forUserId } }),
    [`${LTI_CLAIM}/custom`]: target.custom,
    ...agsClaim(platform, link),
  };
}
