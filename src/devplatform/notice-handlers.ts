// The Platform Notification Service's handler registration (https://www.imsglobal.org/spec/lti-pns/v1p0/main), as
// Canvas serves it (doc/api/pns.md): one handler per notice type and deployment, set with PUT
// {notice_type, handler} and listed with GET, both with an access token of the noticehandlers scope; an empty
// handler removes it. A launch that may subscribe carries the service's claim.
import express from 'express';
import { LTI_CLAIM, type MountConcern, type PlatformContext } from './context.js';
import { SCOPES, requireScope } from './token.js';

const PATH = '/notice-handlers';
/** The notice types this platform sends (Canvas: doc/api/pns.md). */
export const NOTICE_TYPES = ['LtiHelloWorldNotice', 'LtiAssetProcessorSubmissionNotice'] as const;

export const noticeHandlersUrl = (platform: PlatformContext) => `${platform.baseUrl}${PATH}`;

/** The service's claim in a launch (https://www.imsglobal.org/spec/lti-pns/v1p0/main#platform-notification-service-claim). */
export function noticeServiceClaim(platform: PlatformContext): Record<string, unknown> {
  return {
    [`${LTI_CLAIM}/platformnotificationservice`]: {
      service_versions: ['1.0'],
      platform_notification_service_url: noticeHandlersUrl(platform),
      scope: [SCOPES.noticeHandlers],
      notice_types_supported: [...NOTICE_TYPES],
    },
  };
}

const handlerList = (platform: PlatformContext) => ({
  client_id: platform.clientId,
  deployment_id: platform.deploymentId,
  notice_handlers: [...platform.memory.noticeHandlers].map(([notice_type, handler]) => ({ notice_type, handler })),
});

export const mountNoticeHandlers: MountConcern = (router, platform) => {
  const { memory } = platform;
  router.get(PATH, requireScope(platform, SCOPES.noticeHandlers), (_req, res) => {
    res.json(handlerList(platform));
  });
  router.put(PATH, requireScope(platform, SCOPES.noticeHandlers), express.json({ limit: '16kb' }), (req, res) => {
    if (memory.faults.noticeHandlersStatus)
      return void res.status(memory.faults.noticeHandlersStatus).json({ error: 'switched on by the test' });
    const body = req.body as { notice_type?: unknown; handler?: unknown };
    if (typeof body.notice_type !== 'string' || !(NOTICE_TYPES as readonly string[]).includes(body.notice_type)) {
      return void res.status(400).json({ error: 'unknown notice_type' });
    }
    if (typeof body.handler !== 'string') return void res.status(400).json({ error: 'handler must be a string' });
    if (body.handler === '') memory.noticeHandlers.delete(body.notice_type);
    else {
      // Canvas: the handler must be on the tool's own domain.
      if (!URL.canParse(body.handler) || new URL(body.handler).host !== new URL(platform.tool.launchUrl).host) {
        return void res.status(400).json({ error: "handler must be on the tool's domain" });
      }
      memory.noticeHandlers.set(body.notice_type, body.handler);
    }
    res.json(handlerList(platform));
  });
};
