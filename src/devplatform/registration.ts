// LTI Dynamic Registration 1.0, platform side (https://www.imsglobal.org/spec/lti-dr/v1p0): the registration
// address an administrator opens, the platform's OpenID configuration, the endpoint where the tool registers itself,
// and the administrator's page that shows the tool's registration page in a panel, as Moodle does.
import express from 'express';
import { productFamilyCode, type MountConcern, type PlatformContext } from './context.js';
import { escapeHtml } from './html.js';
import { jwksUrl } from './keys.js';
import { authUrl } from './oidc.js';
import { SCOPES, tokenUrl } from './token.js';

const CONFIGURATION_PATH = '/.well-known/openid-configuration';
/** Canvas's (config/routes.rb's openid_configuration_url), which takes the token in its query. */
const CANVAS_CONFIGURATION_PATH = '/api/lti/security/openid-configuration';
const TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

/**
 * The tool's registration address with the platform's configuration URL and a registration token
 * (https://www.imsglobal.org/spec/lti-dr/v1p0#step-1-registration-initiation-request). Canvas puts the token in the
 * configuration URL as well (dynamic_registration_controller.rb, oidc_configuration_url:
 * `openid_configuration_url(protocol:, port:, host: issuer_domain, registration_token:)`).
 */
export function registrationUrl(platform: PlatformContext, toolRegisterUrl: string): string {
  const { registrationToken } = platform.memory;
  const url = new URL(toolRegisterUrl);
  url.searchParams.set(
    'openid_configuration',
    platform.memory.rules === 'canvas'
      ? `${platform.baseUrl}${CANVAS_CONFIGURATION_PATH}?${new URLSearchParams({ registration_token: registrationToken })}`
      : `${platform.baseUrl}${CONFIGURATION_PATH}`,
  );
  url.searchParams.set('registration_token', registrationToken);
  return url.toString();
}

/**
 * The message types Canvas's registration takes (lib/schemas/lti/ims/lti_tool_configuration.rb, LTI_MESSAGE_SCHEMA:
 * `"enum" => Lti::ResourcePlacement::PLACEMENTS_BY_MESSAGE_TYPE.keys`, and the EULA's, which
 * lib/lti/resource_placement.rb keeps as PLACEMENTLESS_MESSAGE_TYPES and doc/api/document_processor.md asks for).
 */
const CANVAS_MESSAGE_TYPES = ['LtiResourceLinkRequest', 'LtiDeepLinkingRequest', 'LtiEulaRequest'];

/** The administrator's page (linked from /dev) when the platform knows the tool's registration address. */
export const registerToolPageUrl = (platform: PlatformContext) =>
  platform.tool.registerUrl ? `${platform.baseUrl}/register-tool` : null;

/**
 * The registration panel's script: waits for the tool's close message from the panel (and from nowhere else), then
 * closes the panel and says so, as Moodle does before it lists the new tool
 * (https://www.imsglobal.org/spec/lti-dr/v1p0#step-4-registration-completed-and-activation).
 */
const REGISTRATION_PANEL_SCRIPT = `window.addEventListener('message', function (event) {
  var panel = document.getElementById('registration-panel');
  if (!panel || event.source !== panel.contentWindow) return;
  if (!event.data || event.data.subject !== 'org.imsglobal.lti.close') return;
  panel.remove();
  var status = document.getElementById('registration-status');
  status.textContent = 'The tool closed its registration panel.';
  document.body.setAttribute('data-closed', 'true');
});
`;

/** The administrator's "register a tool by URL" page with the tool's registration page in a panel. */
function renderRegistrationPanel(panelUrl: string, scriptUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev platform: register a tool</title>
<script src="${escapeHtml(scriptUrl)}"></script></head><body>
<h1>Register a tool (LTI Dynamic Registration)</h1>
<p id="registration-status" role="status">The tool's registration page is open below; the platform waits for it to close.</p>
<iframe id="registration-panel" title="The tool's registration" src="${escapeHtml(panelUrl)}" width="900" height="500"></iframe>
</body></html>`;
}

export const mountDynamicRegistration: MountConcern = (router, platform) => {
  const { issuer, memory, tool } = platform;
  const hasRegistrationToken = (authorization: string | undefined) =>
    authorization === `Bearer ${memory.registrationToken}`;

  // The platform configuration (https://www.imsglobal.org/spec/lti-dr/v1p0#platform-configuration), for the token holder.
  router.get(CONFIGURATION_PATH, (req, res) => {
    if (!hasRegistrationToken(req.headers.authorization))
      return void res.status(401).json({ error: 'registration token required' });
    res.json({
      issuer,
      authorization_endpoint: authUrl(platform),
      token_endpoint: tokenUrl(platform),
      jwks_uri: jwksUrl(platform),
      registration_endpoint: `${platform.baseUrl}/register`,
      scopes_supported: ['openid', ...Object.values(SCOPES)],
      response_types_supported: ['id_token'],
      id_token_signing_alg_values_supported: ['RS256'],
      claims_supported: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
      'https://purl.imsglobal.org/spec/lti-platform-configuration': {
        product_family_code: productFamilyCode(platform),
        version: '1.0',
        messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }],
      },
    });
  });

  // Canvas's configuration, as app/controllers/security_controller.rb SecurityController#openid_configuration answers
  // it (test/fixtures/lms/canvas/hosted-registration.json): the token from the query, the issuer, the keys, the OIDC
  // authorization endpoint and the token endpoint on its SSO host (Lti::Oidc.auth_domain) when it plays hosted
  // Canvas, the registration endpoint on the school's own host, and `authorization_server` a host name, not a URL.
  router.get(CANVAS_CONFIGURATION_PATH, (req, res) => {
    if (memory.rules !== 'canvas') return void res.status(404).json({ error: 'not found' });
    if (req.query.registration_token !== memory.registrationToken)
      return void res
        .status(401)
        .json({ error: 'Access token missing (You must include the registration_token parameter).' });
    res.json({
      issuer,
      authorization_endpoint: authUrl(platform),
      registration_endpoint: `${platform.baseUrl}/register`,
      jwks_uri: jwksUrl(platform),
      token_endpoint: tokenUrl(platform),
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS256'],
      scopes_supported: Object.values(SCOPES),
      response_types_supported: ['id_token'],
      id_token_signing_alg_values_supported: ['RS256'],
      claims_supported: ['sub', 'picture', 'email', 'name', 'given_name', 'family_name', 'locale'],
      subject_types_supported: ['public'],
      authorization_server: new URL(authUrl(platform)).hostname,
      'https://purl.imsglobal.org/spec/lti-platform-configuration': {
        product_family_code: 'canvas',
        version: 'OpenSource',
        messages_supported: [
          { type: 'LtiResourceLinkRequest', placements: ['course_navigation', 'link_selection'] },
          {
            type: 'LtiDeepLinkingRequest',
            placements: ['assignment_selection', 'ActivityAssetProcessor', 'link_selection'],
          },
        ],
        'https://canvas.instructure.com/lti/account_name': platform.course.title,
      },
    });
  });

  // https://www.imsglobal.org/spec/lti-dr/v1p0#step-3-client-registration: the tool's addresses must be the ones
  // this platform launches (its options), and the answer gives it the client and deployment ids. Canvas's answer
  // (dynamic_registration_controller.rb, create and render_registration) names no deployment: the tool configuration
  // as the tool sent it with Canvas's registration_config_url; a message type its schema does not list is a 422.
  router.post('/register', express.json({ limit: '64kb' }), (req, res) => {
    if (!hasRegistrationToken(req.headers.authorization))
      return void res.status(401).json({ error: 'registration token required' });
    const body = req.body as Record<string, unknown>;
    const config = body[TOOL_CONFIGURATION] as Record<string, unknown> | undefined;
    if (
      body.initiate_login_uri !== tool.loginUrl ||
      !Array.isArray(body.redirect_uris) ||
      !body.redirect_uris.includes(tool.launchUrl) ||
      body.jwks_uri !== tool.jwksUrl ||
      !config
    ) {
      return void res.status(400).json({ error: 'invalid_client_metadata' });
    }
    const canvas = memory.rules === 'canvas';
    const messages = Array.isArray(config.messages) ? (config.messages as Array<{ type?: unknown }>) : [];
    const refused = messages.filter((message) => !CANVAS_MESSAGE_TYPES.includes(String(message.type)));
    if (canvas && refused.length > 0)
      return void res.status(422).json({
        errors: refused.map(
          (message) => `messages: ${String(message.type)} is not one of ${CANVAS_MESSAGE_TYPES.join(', ')}`,
        ),
      });
    memory.dynamicRegistrations.push(body);
    res.json({
      ...body,
      client_id: platform.clientId,
      [TOOL_CONFIGURATION]: canvas
        ? {
            ...config,
            'https://canvas.instructure.com/lti/registration_config_url': `${platform.baseUrl}/registration/1`,
          }
        : { ...config, deployment_id: platform.deploymentId },
    });
  });

  router.get('/registration-panel.js', (_req, res) => {
    res.type('text/javascript').send(REGISTRATION_PANEL_SCRIPT);
  });
  router.get('/register-tool', (_req, res) => {
    if (!tool.registerUrl)
      return void res
        .status(404)
        .send(
          "<!doctype html><title>Not set up</title><p>This platform does not know the tool's registration address.</p>",
        );
    const panelUrl = registrationUrl(platform, tool.registerUrl);
    // The platform's own policy for this page (it replaces any the host app set): its script, and a frame of the tool.
    res.setHeader(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'self'; frame-src ${new URL(panelUrl).origin}; frame-ancestors 'self'; base-uri 'none'`,
    );
    res.send(renderRegistrationPanel(panelUrl, `${platform.baseUrl}/registration-panel.js`));
  });
};
