// Deep Linking 2.0 (https://www.imsglobal.org/spec/lti-dl/v2p0): the settings a deep-linking launch carries, and the
// return address where the tool posts its signed response with the content items, which become resource links.
import { randomBytes, randomUUID } from 'node:crypto';
import express from 'express';
import { jwtVerify } from 'jose';
import { LTI_CLAIM, type MountConcern, type PlatformContext } from './context.js';
import { escapeHtml } from './html.js';
import { attachAssetProcessors } from './asset-processors.js';
import { addResourceLink, submissionReviewOf, type LineItem } from './state.js';

const DL_SETTINGS = 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings';
const DL_CONTENT_ITEMS = 'https://purl.imsglobal.org/spec/lti-dl/claim/content_items';
const DL_DATA = 'https://purl.imsglobal.org/spec/lti-dl/claim/data';
const RETURN_PATH = '/deep-link-return';

/**
 * The settings claim (https://www.imsglobal.org/spec/lti-dl/v2p0#deep-linking-settings): one resource link, or what
 * the caller accepts instead; `data` comes back in the response.
 */
export function deepLinkingSettingsClaim(
  platform: PlatformContext,
  options: { acceptTypes?: string[]; data?: string } = {},
): Record<string, unknown> {
  return {
    [DL_SETTINGS]: {
      deep_link_return_url: `${platform.baseUrl}${RETURN_PATH}`,
      accept_types: options.acceptTypes ?? ['ltiResourceLink'],
      accept_presentation_document_targets: ['iframe', 'window'],
      accept_multiple: false,
      auto_create: true,
      data: options.data ?? `dl-${randomUUID()}`,
    },
  };
}

// The response (https://www.imsglobal.org/spec/lti-dl/v2p0#deep-linking-response-message): a JWT the tool signed,
// for this deployment, whose ltiResourceLink items the platform adds to the course.
export const mountDeepLinkReturn: MountConcern = (router, platform) => {
  router.post(RETURN_PATH, express.urlencoded({ extended: false, limit: '256kb' }), async (req, res) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(String((req.body as { JWT?: string }).JWT ?? ''), platform.keys.toolKeys, {
        issuer: platform.clientId,
        audience: platform.issuer,
      }));
    } catch {
      return void res
        .status(400)
        .send('<!doctype html><title>Refused</title><p>The deep-linking response could not be verified.</p>');
    }
    if (
      payload[`${LTI_CLAIM}/message_type`] !== 'LtiDeepLinkingResponse' ||
      payload[`${LTI_CLAIM}/deployment_id`] !== platform.deploymentId
    ) {
      return void res
        .status(400)
        .send('<!doctype html><title>Refused</title><p>The deep-linking response is not for this deployment.</p>');
    }
    const contentItems = (payload[DL_CONTENT_ITEMS] as Array<Record<string, unknown>> | undefined) ?? [];
    const data = String(payload[DL_DATA] ?? '');
    if (data.startsWith('activity:')) {
      // An assignment's document processor (Canvas: app/models/lti/asset_processor.rb keeps these fields).
      const refused = attachAssetProcessors(platform, data.slice('activity:'.length), contentItems);
      if (refused)
        return void res.status(400).send(`<!doctype html><title>Refused</title><p>${escapeHtml(refused)}</p>`);
      return void res.send(
        `<!doctype html><title>Added</title><p>Added the document processing app to the assignment. <a href="${escapeHtml(platform.baseUrl)}/">Back to the course</a></p>`,
      );
    }
    for (const item of contentItems) {
      if (item.type !== 'ltiResourceLink') continue;
      const id = `link-${randomBytes(4).toString('hex')}`;
      const lineItem = item.lineItem as Omit<LineItem, 'id' | 'resourceLinkId'> | undefined;
      // Moodle keeps a lineItem's submissionReview (mod/lti/locallib.php, lti_tool_configuration_from_content_item).
      if (lineItem && submissionReviewOf(lineItem.submissionReview) === 'invalid') {
        return void res
          .status(400)
          .send("<!doctype html><title>Refused</title><p>A line item's submissionReview is malformed.</p>");
      }
      addResourceLink(platform.memory, {
        id,
        title: String(item.title ?? 'Tool link'),
        custom: (item.custom as Record<string, string>) ?? {},
        ...(lineItem ? { lineItem } : {}),
      });
      platform.memory.deepLinkResults.push({ resourceLinkId: id, contentItems });
    }
    res.send(
      `<!doctype html><title>Added</title><p>Added ${contentItems.length} item(s) to ${escapeHtml(platform.course.title)}. <a href="${escapeHtml(platform.baseUrl)}/">Back to the course</a></p>`,
    );
  });
};
