// The deep-linking request (LTI Deep Linking 2.0, 4.4: https://www.imsglobal.org/spec/lti-dl/v2p0#deep-linking-request-message):
// an instructor adds the tool to their course, and the tool answers with the link to create. The message is verified
// by the one verifier (verify-launch.ts); this file holds only what is particular to it, and the table of message
// types names it (index.ts).
//
// An Asset Processor's deep linking (https://www.imsglobal.org/spec/lti-pns/v1p0/main ; Canvas:
// doc/api/document_processor.md) says more: the LMS's own assignment (the activity claim), where its notification
// service is, and (Blackboard) where reports go. They are read here too, so that the page the instructor then posts
// can subscribe and attach.
import { z } from 'zod';
import { CLAIM, reportAddressOf } from '../claims.js';

export const DEEP_LINKING_MESSAGE = 'LtiDeepLinkingRequest';

/**
 * What the message must carry besides the core claims (4.4.1, the deep_linking_settings claim, required): where the
 * answer goes (deep_link_return_url, required) and the content item types the platform takes (accept_types,
 * required; the tool offers only ltiResourceLink, and says so when it is missing from them). The other settings
 * are the platform's to send or not: an LMS that leaves one out still gets its link. `data` is sent back as it came
 * (4.4.1: "the tool MUST include it in the response"); accept_multiple false keeps the answer to one item.
 */
const deepLinkingSettings = z.object({
  deep_link_return_url: z.string().url().max(4096),
  accept_types: z.array(z.string().max(200)).max(50),
  accept_multiple: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .catch(undefined),
  data: z.string().max(65_536).optional().catch(undefined),
});

/** The Platform Notification Service's claim (https://www.imsglobal.org/spec/lti-pns/v1p0/main): its address. */
const noticeServiceClaim = z.object({
  platform_notification_service_url: z.string().url().max(4096),
  notice_types_supported: z.array(z.string()).optional(),
});

/** The Asset Processor's part of a deep-linking launch, as the session keeps it. */
export interface AssetProcessorContext {
  noticeServiceUrl: string | null;
  activityId: string | null;
  activityTitle: string | null;
  /** The Asset Report Service's address and scope, where the LMS names them at launch (Blackboard). */
  reportAddress: { url: string; scope: string } | null;
}

/**
 * One object, its other claims kept for the report address (reportAddressOf): an intersection of two objects that read
 * the activity differently (one keeping it as sent, the other dropping an odd one) cannot be merged, and zod throws.
 * The activity and the notification service are only hints of where the processor is attached: an odd one is
 * dropped, not a failed launch.
 */
export const deepLinkingClaims = z
  .looseObject({
    [CLAIM.deepLinkingSettings]: deepLinkingSettings,
    [CLAIM.activity]: z
      .object({ id: z.string().min(1).max(255), title: z.string().max(1000).optional() })
      .optional()
      .catch(undefined),
    [CLAIM.platformNotificationService]: noticeServiceClaim.optional().catch(undefined),
  })
  .transform((claims) => {
    const settings = claims[CLAIM.deepLinkingSettings];
    const activity = claims[CLAIM.activity];
    const service = claims[CLAIM.platformNotificationService];
    const assetProcessor: AssetProcessorContext | null =
      activity || service
        ? {
            noticeServiceUrl: service?.platform_notification_service_url ?? null,
            activityId: activity?.id ?? null,
            activityTitle: activity?.title ?? null,
            reportAddress: reportAddressOf(claims),
          }
        : null;
    return {
      type: DEEP_LINKING_MESSAGE,
      returnUrl: settings.deep_link_return_url,
      acceptTypes: settings.accept_types,
      acceptMultiple: settings.accept_multiple !== false && settings.accept_multiple !== 'false',
      data: settings.data ?? null,
      assetProcessor,
    } as const;
  });
