// What an Asset Processor's deep-linking launch says beyond what ltijs keeps of a launch: the LMS's own assignment
// (the activity claim), where its notification service is, and (Blackboard) where reports go. ltijs validates the whole token but keeps only the
// claims it knows; these are read from the same, validated token and kept with the launch's session, so that the
// page the instructor then posts can subscribe and attach.
// https://www.imsglobal.org/spec/lti-pns/v1p0/main ; Canvas: doc/api/document_processor.md
import { decodeJwt } from 'jose';
import { z } from 'zod';
import { CLAIM, reportAddressOf, withStandardNames } from './claims.js';
import { extendLaunchContext } from './launch-scope.js';
import { noticeServiceClaim } from './notice-service.js';

const claims = z.object({
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
 * Keeps the activity and notification service of the launch being recorded with its session. `idToken` is the
 * token ltijs has just validated (signature, issuer, audience, expiry, nonce, deployment): only then is it read.
 */
export function keepAssetProcessorContext(idToken: string): AssetProcessorContext | null {
  let payload: unknown;
  try {
    payload = decodeJwt(idToken);
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null) return null;
  const standard = withStandardNames(payload as Record<string, unknown>);
  const parsed = claims.safeParse(standard);
  if (!parsed.success) return null;
  const activity = parsed.data[CLAIM.activity];
  const service = parsed.data[CLAIM.platformNotificationService];
  if (!activity && !service) return null;
  const context: AssetProcessorContext = {
    noticeServiceUrl: service?.platform_notification_service_url ?? null,
    activityId: activity?.id ?? null,
    activityTitle: activity?.title ?? null,
    reportAddress: reportAddressOf(standard),
  };
  extendLaunchContext({ assetProcessor: context });
  return context;
}
