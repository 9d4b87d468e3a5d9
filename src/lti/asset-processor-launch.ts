// What an Asset Processor's deep-linking launch says beyond an ordinary deep-linking launch: the LMS's own assignment
// (the activity claim), where its notification service is, and (Blackboard) where reports go. They are read from
// the verified token (verify-launch.ts) and kept with the launch's session (launch-session.ts), so that the page the
// instructor then posts can subscribe and attach.
// https://www.imsglobal.org/spec/lti-pns/v1p0/main ; Canvas: doc/api/document_processor.md
import { z } from 'zod';
import { CLAIM, reportAddressOf } from './claims.js';
import { noticeServiceClaim } from './notice-service.js';

const activityAndService = z.object({
  [CLAIM.activity]: z
    .object({ id: z.string().min(1).max(255), title: z.string().max(1000).optional() })
    .optional()
    .catch(undefined),
  [CLAIM.platformNotificationService]: noticeServiceClaim.optional().catch(undefined),
});

/** The Asset Processor's part of a launch, as the session keeps it. */
export const assetProcessorContext = z.object({
  noticeServiceUrl: z.string().url().nullable(),
  activityId: z.string().nullable(),
  activityTitle: z.string().nullable(),
  /** The Asset Report Service's address and scope, where the LMS names them at launch (Blackboard). */
  reportAddress: z.object({ url: z.string(), scope: z.string() }).nullable().optional(),
});
export type AssetProcessorContext = z.infer<typeof assetProcessorContext>;

/**
 * The activity and notification service a verified launch names (its claims read under the standard names), as the
 * session keeps them; null when it names neither.
 */
export function assetProcessorContextOf(claims: Record<string, unknown>): AssetProcessorContext | null {
  const parsed = activityAndService.safeParse(claims);
  if (!parsed.success) return null;
  const activity = parsed.data[CLAIM.activity];
  const service = parsed.data[CLAIM.platformNotificationService];
  if (!activity && !service) return null;
  return {
    noticeServiceUrl: service?.platform_notification_service_url ?? null,
    activityId: activity?.id ?? null,
    activityTitle: activity?.title ?? null,
    reportAddress: reportAddressOf(claims),
  };
}
