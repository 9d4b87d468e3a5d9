// The OpenID Connect launch flow, platform side (LTI Security Framework 5.1.1): the third-party initiated login the
// platform sends the browser to (https://www.imsglobal.org/spec/security/v1p0/#step-1-third-party-initiated-login),
// and its authorization endpoint, which checks the tool's authentication request
// (https://www.imsglobal.org/spec/security/v1p0/#step-2-authentication-request) and answers with the id_token in an
// auto-posting form (https://www.imsglobal.org/spec/security/v1p0/#step-3-authentication-response).
import express, { type Request, type Response } from 'express';
import { SSO_PATHS, type MountConcern, type PlatformContext } from './context.js';
import { escapeHtml } from './html.js';
import type { AssetProcessorLaunch } from './asset-processor-launches.js';
import { launchIdToken, type LaunchHint, type LaunchMessageType } from './id-token.js';

/** The platform's own authorization (Canvas: the school's /api/lti/authorize). */
export const AUTH_PATH = '/auth';
/** Where the tool sends the browser to sign in: the platform's own host, or hosted Canvas's SSO host (sso.ts). */
export const authUrl = (platform: PlatformContext) =>
  platform.sso ? `${platform.sso.origin}${SSO_PATHS.authorize}` : `${platform.baseUrl}${AUTH_PATH}`;

export interface LoginInitiation {
  userId: string;
  resourceLinkId?: string;
  messageType?: LaunchMessageType;
  /** Offers LTI platform storage (lti_storage_target), as Canvas does. */
  storageTarget?: string;
  /** A deep-linking launch from this LMS assignment's "Add document processing app". */
  activity?: { id: string; title: string };
  /** One of the Asset Processor's own launches (devplatform/asset-processor-launches.ts). */
  assetProcessor?: AssetProcessorLaunch;
  /** Where the launch goes when not to the tool's launch address (a processor's report url). */
  targetLinkUri?: string;
  /** A submission review: the user whose submission the gradebook opens. */
  forUserId?: string;
}

/** The tool's login address with the platform's login parameters: where a launch starts. */
export function loginInitiationUrl(platform: PlatformContext, init: LoginInitiation): string {
  const url = new URL(platform.tool.loginUrl);
  const hint: LaunchHint = {
    messageType: init.messageType ?? 'LtiResourceLinkRequest',
    ...(init.resourceLinkId ? { resourceLinkId: init.resourceLinkId } : {}),
    ...(init.activity ? { activity: init.activity } : {}),
    ...(init.assetProcessor ? { assetProcessor: init.assetProcessor } : {}),
    ...(init.forUserId ? { forUserId: init.forUserId } : {}),
  };
  url.searchParams.set('iss', platform.issuer);
  url.searchParams.set('login_hint', init.userId);
  url.searchParams.set('target_link_uri', init.targetLinkUri ?? platform.tool.launchUrl);
  url.searchParams.set('lti_message_hint', Buffer.from(JSON.stringify(hint)).toString('base64url'));
  url.searchParams.set('client_id', platform.clientId);
  url.searchParams.set('lti_deployment_id', platform.deploymentId);
  if (init.storageTarget) url.searchParams.set('lti_storage_target', init.storageTarget);
  return url.toString();
}

/** The script that sends the form on; served as a file, so pages with a script-src 'self' policy run it. */
const AUTO_POST_SCRIPT = "document.getElementById('launch').submit();\n";

/** The form_post response of the OIDC login (OpenID Connect Form Post Response Mode), sent on by itself. */
function renderAutoPost(action: string, fields: Record<string, string>, scriptUrl: string): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Opening the tool</title></head><body>
<form id="launch" method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">Continue to the tool</button></noscript></form>
<script src="${escapeHtml(scriptUrl)}"></script></body></html>`;
}

export const mountAuthorization: MountConcern = (router, platform) => {
  const { memory, tool } = platform;
  router.get('/auto-post.js', (_req, res) => {
    res.type('text/javascript').send(AUTO_POST_SCRIPT);
  });

  // The authentication request's parameters (LTI Security Framework 5.1.1.2, OpenID Connect Core 3.1.2.1).
  router.all(
    AUTH_PATH,
    express.urlencoded({ extended: false, limit: '256kb' }),
    async (req: Request, res: Response) => {
      const p = { ...(req.query as Record<string, string>), ...((req.body as Record<string, string>) ?? {}) };
      const problem =
        p.client_id !== platform.clientId
          ? 'unknown client_id'
          : p.redirect_uri !== tool.launchUrl
            ? 'redirect_uri is not registered for this tool'
            : p.response_type !== 'id_token'
              ? 'response_type must be id_token'
              : p.response_mode !== 'form_post'
                ? 'response_mode must be form_post'
                : !String(p.scope ?? '')
                      .split(' ')
                      .includes('openid')
                  ? 'scope must include openid'
                  : !p.nonce
                    ? 'nonce is missing'
                    : !p.login_hint || !memory.people.has(p.login_hint)
                      ? 'unknown login_hint'
                      : null;
      if (problem)
        return void res
          .status(400)
          .send(
            `<!doctype html><title>Launch refused</title><p>The platform refused the login: ${escapeHtml(problem)}.</p>`,
          );
      let hint: LaunchHint;
      try {
        hint = JSON.parse(Buffer.from(String(p.lti_message_hint ?? ''), 'base64url').toString('utf8'));
      } catch {
        return void res
          .status(400)
          .send(
            '<!doctype html><title>Launch refused</title><p>The platform refused the login: bad lti_message_hint.</p>',
          );
      }
      const token = await launchIdToken(platform, memory.people.get(p.login_hint!)!, String(p.nonce), hint);
      res.send(
        renderAutoPost(
          tool.launchUrl,
          { id_token: token, ...(p.state ? { state: String(p.state) } : {}) },
          `${platform.baseUrl}/auto-post.js`,
        ),
      );
    },
  );
};
