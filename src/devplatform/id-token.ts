// The id_token of a launch: what the platform says about the user, the course and the link, signed with its key.
// LTI Core's required and optional message claims (https://www.imsglobal.org/spec/lti/v1p3/#required-message-claims,
// https://www.imsglobal.org/spec/lti/v1p3/#optional-message-claims), the AGS and NRPS service claims, and for a
// deep-linking launch the deep-linking settings instead of a resource link.
import { reportUrl } from './asset-reports.js';
import { launchReportClaim } from './dialect.js';
import { agsClaim } from './ags.js';
import { assetProcessorLaunchClaims, type AssetProcessorLaunch } from './asset-processor-launches.js';
import { LTI_CLAIM, productFamilyCode, type PlatformContext } from './context.js';
import { expandedCustom } from './custom-variables.js';
import { deepLinkingSettingsClaim } from './deep-linking.js';
import { noticeServiceClaim } from './notice-handlers.js';
import { nrpsClaim } from './nrps.js';
import { SUBMISSION_REVIEW_MESSAGE, submissionReviewClaims } from './submission-review.js';
import type { DevUser } from './state.js';

export type LaunchMessageType =
  'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest' | 'LtiReportReviewRequest' | 'LtiSubmissionReviewRequest';

/** What the platform's login initiation carries in lti_message_hint, and gets back at its authorization endpoint. */
export interface LaunchHint {
  resourceLinkId?: string;
  messageType: string;
  /** The LMS's own assignment whose editor asked for a document processor ("Add document processing app"). */
  activity?: { id: string; title: string };
  /** One of the Asset Processor's own launches (report review, settings, EULA) instead. */
  assetProcessor?: AssetProcessorLaunch;
  /** A submission review (the gradebook's grade analysis): whose submission of the resource link. */
  forUserId?: string;
}

export async function launchIdToken(
  platform: PlatformContext,
  user: DevUser,
  nonce: string,
  hint: LaunchHint,
): Promise<string> {
  const { issuer, clientId, course } = platform;
  const common: Record<string, unknown> = {
    iss: issuer,
    aud: clientId,
    azp: clientId,
    sub: user.id,
    nonce,
    name: user.name,
    given_name: user.name.split(' ')[0],
    family_name: user.name.split(' ').slice(1).join(' '),
    email: user.email,
    [`${LTI_CLAIM}/version`]: '1.3.0',
    [`${LTI_CLAIM}/deployment_id`]: platform.deploymentId,
    [`${LTI_CLAIM}/roles`]: user.roles,
    [`${LTI_CLAIM}/context`]: {
      id: course.id,
      label: course.label,
      title: course.title,
      type: ['http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering'],
    },
    [`${LTI_CLAIM}/tool_platform`]: {
      guid: issuer,
      name: 'Dev platform',
      product_family_code: productFamilyCode(platform),
    },
    [`${LTI_CLAIM}/launch_presentation`]: {
      document_target: 'iframe',
      return_url: `${platform.baseUrl}/`,
      ...(user.locale ? { locale: user.locale } : {}),
    },
    ...nrpsClaim(platform),
  };
  if (hint.assetProcessor)
    return platform.keys.sign({ ...common, ...assetProcessorLaunchClaims(platform, hint.assetProcessor) });
  if (hint.messageType === 'LtiDeepLinkingRequest' && hint.activity) {
    // Canvas's "Add Document Processing App": the assignment, the notification service, and only that item type.
    return platform.keys.sign({
      ...common,
      [`${LTI_CLAIM}/message_type`]: 'LtiDeepLinkingRequest',
      [`${LTI_CLAIM}/target_link_uri`]: platform.tool.launchUrl,
      [`${LTI_CLAIM}/activity`]: hint.activity,
      ...noticeServiceClaim(platform),
      ...launchReportClaim(platform.memory.dialect, reportUrl(platform, hint.activity.id)),
      ...deepLinkingSettingsClaim(platform, {
        acceptTypes: ['ltiAssetProcessor'],
        data: `activity:${hint.activity.id}`,
      }),
    });
  }
  if (hint.messageType === 'LtiDeepLinkingRequest') {
    return platform.keys.sign({
      ...common,
      [`${LTI_CLAIM}/message_type`]: 'LtiDeepLinkingRequest',
      [`${LTI_CLAIM}/target_link_uri`]: platform.tool.launchUrl,
      ...agsClaim(platform),
      ...deepLinkingSettingsClaim(platform),
    });
  }
  const link = platform.memory.links.get(hint.resourceLinkId ?? '');
  if (!link) throw new Error(`No resource link ${hint.resourceLinkId}`);
  if (hint.messageType === SUBMISSION_REVIEW_MESSAGE) {
    // Without a user: Moodle's grader report column menu (submission-review.ts).
    return platform.keys.sign({ ...common, ...submissionReviewClaims(platform, link, hint.forUserId) });
  }
  return platform.keys.sign({
    ...common,
    [`${LTI_CLAIM}/message_type`]: 'LtiResourceLinkRequest',
    [`${LTI_CLAIM}/target_link_uri`]: platform.tool.launchUrl,
    [`${LTI_CLAIM}/resource_link`]: { id: link.id, title: link.title },
    [`${LTI_CLAIM}/custom`]: expandedCustom(platform.memory, link, user),
    ...agsClaim(platform, link),
  });
}
