// The "View report" launch of the Asset Processor (lti-notes §4, 2.2 and 2.3 step 8; Canvas:
// doc/api/document_processor.md): an LtiReportReviewRequest to the processor's report address, naming the
// assignment (activity), the submission, the asset and the report's type, and for_user the student whose work it
// is, while sub and roles are the viewer's. Canvas offers it only on a Processed report.
import { LTI_CLAIM, type PlatformContext } from './context.js';
import type { AttachedProcessor } from './state.js';

/** What a report review launch is about; it travels in the login's lti_message_hint. */
export interface ReportReview {
  /** The processor whose report url the launch goes to and whose custom parameters it carries; none: the tool's launch address. */
  processorId?: string;
  /** Custom parameters of a launch with no processor named. */
  custom?: Record<string, string>;
  activityId: string;
  submissionId: string;
  assetId: string;
  reportType: string;
  /** The student who submitted. */
  forUserId: string;
}

/** Where the review opens: the processor's report url, else its url, else the tool's launch address. */
export function reportReviewTarget(platform: PlatformContext, processor: AttachedProcessor): string {
  return processor.report?.url ?? processor.url ?? platform.tool.launchUrl;
}

/** The claims particular to the report review launch; throws when the processor it names is gone. */
export function reportReviewClaims(platform: PlatformContext, review: ReportReview): Record<string, unknown> {
  const processor =
    review.processorId === undefined
      ? undefined
      : platform.memory.assetProcessors.find((p) => p.id === review.processorId);
  if (review.processorId !== undefined && !processor) throw new Error(`No document processor ${review.processorId}`);
  const activity = platform.memory.activities.get(review.activityId);
  // Canvas merges the processor's custom parameters with its report's.
  const custom = processor ? { ...processor.custom, ...processor.report?.custom } : (review.custom ?? {});
  return {
    [`${LTI_CLAIM}/message_type`]: 'LtiReportReviewRequest',
    [`${LTI_CLAIM}/target_link_uri`]: processor ? reportReviewTarget(platform, processor) : platform.tool.launchUrl,
    [`${LTI_CLAIM}/activity`]: { id: review.activityId, ...(activity ? { title: activity.title } : {}) },
    [`${LTI_CLAIM}/submission`]: { id: review.submissionId },
    [`${LTI_CLAIM}/asset`]: { id: review.assetId },
    [`${LTI_CLAIM}/assetreport_type`]: review.reportType,
    [`${LTI_CLAIM}/for_user`]: { user_id: review.forUserId, ...forUserDetails(platform, review.forUserId) },
    ...(Object.keys(custom).length ? { [`${LTI_CLAIM}/custom`]: custom } : {}),
  };
}

function forUserDetails(platform: PlatformContext, userId: string): Record<string, unknown> {
  const person = platform.memory.people.get(userId);
  return person ? { name: person.name, email: person.email, roles: person.roles } : {};
}
