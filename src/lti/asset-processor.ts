// The LTI Asset Processor's vocabulary as the platform and the tool exchange it at registration: the placement on
// which an instructor attaches the tool to the LMS's own assignment, the messages the platform launches, and the
// scopes of the services the tool calls (Platform Notification Service, Asset Service, Asset Report Service).
// https://standards.1edtech.org/lti/specifications/proposals/asset-processor ; Canvas ("Document Processor"):
// https://canvas.instructure.com/doc/api/file.document_processor.html
import { SCOPE } from './claims.js';
import { DEEP_LINKING_MESSAGE } from './messages/deep-linking.js';
import { EULA_MESSAGE } from './messages/eula.js';
import { PROCESSOR_SETTINGS_MESSAGE } from './messages/processor-settings.js';
import { REPORT_REVIEW_MESSAGE } from './messages/report-review.js';

/** The deep-linking placement of "Add document processing app" in an assignment's editor. */
export const ASSET_PROCESSOR_PLACEMENT = 'ActivityAssetProcessor';

/** Register the tool's notice handler (PNS), download an asset, post a report: their URIs live in claims.ts. */
export const NOTICE_HANDLERS_SCOPE = SCOPE.noticeHandlers;
export const ASSET_READ_SCOPE = SCOPE.assetRead;
export const ASSET_REPORT_SCOPE = SCOPE.report;
/** Record a user's acceptance of the tool's terms with the EULA service, and (deployment) whether it asks for them. */
export const EULA_USER_SCOPE = SCOPE.eulaUser;
export const EULA_DEPLOYMENT_SCOPE = SCOPE.eulaDeployment;

export const ASSET_PROCESSOR_SCOPES = [NOTICE_HANDLERS_SCOPE, ASSET_READ_SCOPE, ASSET_REPORT_SCOPE] as const;

/** The scopes to ask for: the EULA's only when the tool has terms to accept. */
export function assetProcessorScopes(eula: boolean): string[] {
  return [...ASSET_PROCESSOR_SCOPES, ...(eula ? [EULA_USER_SCOPE, EULA_DEPLOYMENT_SCOPE] : [])];
}

/**
 * The messages a tool configuration lists for the Asset Processor (https://www.imsglobal.org/spec/lti-dr/v1p0#lti-message):
 * deep linking on the processor's placement, and the two launches. They all land on the tool's launch address, the
 * one redirect URI a registration by hand has too.
 *
 * Canvas takes only the first and the EULA's: canvas-lms doc/api/document_processor.md ("Tool Registration") asks a
 * tool registering dynamically to "add the `ActivityAssetProcessor` placement to a `LtiDeepLinkingRequest` entry in
 * the `messages` array" and, with terms, an `LtiEulaRequest` message ("EULA"), and names no other; its registration
 * schema refuses a message of any other type (lib/schemas/lti/ims/lti_tool_configuration.rb, LTI_MESSAGE_SCHEMA:
 * `"enum" => Lti::ResourcePlacement::PLACEMENTS_BY_MESSAGE_TYPE.keys`, the resource-link and deep-linking types;
 * lib/lti/resource_placement.rb adds `PLACEMENTLESS_MESSAGE_TYPES = [EulaRequest::MESSAGE_TYPE]` and says "Some
 * message types that currently don't appear anywhere in configurations (LtiAssetProcessorSettingsRequest,
 * LtiReportReviewRequest) are not listed in this file"). Canvas launches those two at the processor's own addresses.
 */
export function assetProcessorMessages(launchUrl: string, label: string, options: { eula: boolean; canvas: boolean }) {
  return [
    { type: DEEP_LINKING_MESSAGE, target_link_uri: launchUrl, label, placements: [ASSET_PROCESSOR_PLACEMENT] },
    ...(options.canvas
      ? []
      : [
          { type: PROCESSOR_SETTINGS_MESSAGE, target_link_uri: launchUrl, label },
          { type: REPORT_REVIEW_MESSAGE, target_link_uri: launchUrl, label },
        ]),
    // Canvas doc/api/document_processor.md: a tool with terms lists the EULA message too.
    ...(options.eula ? [{ type: EULA_MESSAGE, target_link_uri: launchUrl, label }] : []),
  ];
}
