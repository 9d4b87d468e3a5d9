// Hosted Canvas's SSO host, played beside the school's own host (index.ts, `sso`): every Instructure-hosted Canvas
// publishes its keys, its OIDC authorization endpoint and its token endpoint there, while its configuration's
// registration endpoint, its pages and its services are on the school's host (canvas-lms
// app/controllers/security_controller.rb, SecurityController#openid_configuration; doc/api/lti_launch_overview.md,
// "Step 2: Authentication Request"; test/fixtures/lms/canvas/hosted-registration.json). The authorization endpoint
// there sends the browser on to the school's own authorization (app/controllers/lti/ims/authentication_controller.rb,
// AuthenticationController#authorize_redirect: "Redirect the 'authorize' action for the domain specified in the
// lti_message_hint", `url.host = canvas_domain`), which answers with the id_token.
import express, { Router } from 'express';
import { SSO_PATHS, type PlatformContext } from './context.js';
import { jwksHandler } from './keys.js';
import { AUTH_PATH } from './oidc.js';
import { tokenHandlers } from './token.js';

/** The SSO host's router, to be served at `platform.sso.servedAt`. */
export function ssoRouter(platform: PlatformContext): Router {
  const router = Router();
  router.all(SSO_PATHS.authorize, express.urlencoded({ extended: false, limit: '256kb' }), (req, res) => {
    const params = new URLSearchParams({
      ...(req.query as Record<string, string>),
      ...((req.body as Record<string, string> | undefined) ?? {}),
    });
    res.redirect(302, `${platform.baseUrl}${AUTH_PATH}?${params}`);
  });
  router.get(SSO_PATHS.jwks, jwksHandler(platform));
  router.post(SSO_PATHS.token, ...tokenHandlers(platform));
  return router;
}
