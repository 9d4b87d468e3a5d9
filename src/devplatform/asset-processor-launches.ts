// The Asset Processor's launches besides deep linking, as Canvas sends them (doc/api/document_processor.md): report
// review ("View report" beside a submitted file; its claims: report-review.ts), the processor's settings ("Modify" in the assignment's editor) and
// the EULA. Each is an id_token with the core claims of any launch plus the claims below.
// https://standards.1edtech.org/lti/specifications/proposals/asset-processor
import { LTI_CLAIM, type PlatformContext } from './context.js';
import { reportUrl } from './asset-reports.js';
import { launchReportClaim } from './dialect.js';
import { eulaServiceUrl } from './eula.js';
import { reportReviewClaims, type ReportReview } from './report-review.js';
import { SCOPES } from './token.js';

export type AssetProcessorLaunch =
  | ({ messageType: 'LtiReportReviewRequest' } & ReportReview)
  | { messageType: 'LtiAssetProcessorSettingsRequest'; activityId: string; custom?: Record<string, string> }
  | { messageType: 'LtiEulaRequest' };

/** The launch's own claims, beside the core claims every launch carries. */
export function assetProcessorLaunchClaims(
  platform: PlatformContext,
  launch: AssetProcessorLaunch,
): Record<string, unknown> {
  const common = {
    [`${LTI_CLAIM}/message_type`]: launch.messageType,
    [`${LTI_CLAIM}/target_link_uri`]: platform.tool.launchUrl,
  };
  if (launch.messageType === 'LtiReportReviewRequest') return reportReviewClaims(platform, launch);
  if (launch.messageType === 'LtiAssetProcessorSettingsRequest') {
    return {
      ...common,
      [`${LTI_CLAIM}/activity`]: { id: launch.activityId },
      [`${LTI_CLAIM}/custom`]: launch.custom ?? {},
      ...launchReportClaim(platform.memory.dialect, reportUrl(platform, launch.activityId)),
    };
  }
  return {
    ...common,
    [`${LTI_CLAIM}/eulaservice`]: { url: eulaServiceUrl(platform), scope: [SCOPES.eulaUser, SCOPES.eulaDeployment] },
  };
}
