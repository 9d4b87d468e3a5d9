// LTI Dynamic Registration 1.0 (https://www.imsglobal.org/spec/lti-dr/v1p0): the LMS opens
// /lti/register?openid_configuration=...&registration_token=...; the tool reads the platform's configuration,
// registers itself at the platform's registration endpoint, and stores the client id and deployment id the
// platform answers with. ltijs has its own flow, but it drops the deployment id and sets no timeouts.
import { z } from 'zod';
import { assetProcessorMessages, assetProcessorScopes } from './asset-processor.js';
import { PlatformRequestError, assertPlatformAddress, platformRequest } from './platform-http.js';
import { SCOPE } from './claims.js';
import { DUE_DATE_PARAMETERS } from './due-date.js';
import { lmsOf } from './product-family.js';
import { SUBMISSION_REVIEW_MESSAGE } from './messages/submission-review.js';
import {
  countPendingRegistrations,
  createRegistration,
  dynamicRegistrationInput,
  productFamily as productFamilyCode,
  type Registration,
  type RegistrationStore,
} from './registrations.js';
import { foreignAddresses, sharedIssuer, type SharedIssuer } from './shared-issuers.js';

const FETCH_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 256 * 1024;

const SCOPES = [SCOPE.agsLineItem, SCOPE.agsLineItemRead, SCOPE.agsResult, SCOPE.agsScore, SCOPE.nrps];

const platformConfiguration = z.object({
  issuer: z.string().url(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  jwks_uri: z.string().url(),
  registration_endpoint: z.string().url(),
  // https://www.imsglobal.org/spec/lti-dr/v1p0#platform-configuration: the `aud` of the tool's token requests, the
  // token endpoint when left out. Canvas names a host here, not an address (app/controllers/security_controller.rb,
  // SecurityController#openid_configuration: `authorization_server: Lti::Oidc.auth_domain(account_domain)`, which is
  // "sso.canvaslms.com" on hosted Canvas), while its token endpoint takes only its own address as `aud`
  // (lib/canvas/security/jwt_validator.rb JwtValidator#aud: `errors.add(:base, msg) if @jwt.aud != @expected_aud`,
  // where lib/canvas/oauth/client_credentials_provider.rb sets `@expected_aud = ...oauth2_token_url(host:, protocol:)`).
  // The two sources disagree; the tool follows what Canvas checks: anything but an address is not kept, and the token
  // endpoint is the `aud`.
  authorization_server: z.string().url().optional().catch(undefined),
  // https://www.imsglobal.org/spec/lti-dr/v1p0#platform-configuration: the LMS product, stored with the
  // registration (grades/platform-quirks.ts keys its gradebook's quirks by it). A code the tool cannot store
  // counts as none: the LMS then gets the behaviour that is safe for every LMS, and the registration goes on.
  'https://purl.imsglobal.org/spec/lti-platform-configuration': z
    .object({ product_family_code: productFamilyCode.optional().catch(undefined), version: z.string().optional() })
    .partial()
    .optional(),
});

const registrationResponse = z.object({
  client_id: z.string().min(1),
  'https://purl.imsglobal.org/spec/lti-tool-configuration': z
    .object({ deployment_id: z.string().min(1).optional() })
    .partial()
    .optional(),
});

/**
 * Pending registrations (waiting for an administrator) the tool keeps at most: past it, new ones are refused
 * before the LMS is asked anything, so that nobody can fill the admin page (and the platform table) by registering
 * in a loop.
 */
export const MAX_PENDING_REGISTRATIONS = 20;

/**
 * A registration that did not happen. `message` is for the administrator's page: it names what failed in the
 * tool's own words, never what a foreign server answered (no HTTP status, no field name of its answer), so the page
 * is no oracle for probing other servers. `detail` is for the log only. `lmsOrigins`: the origins of the LMS's pages
 * once its configuration has been validated (lmsOriginsOf), which may then frame the answer; none before that.
 */
export class RegistrationFailed extends Error {
  readonly detail: string | undefined;
  readonly lmsOrigins: string[];
  readonly status: number;
  constructor(message: string, options: { status?: number; detail?: string; lmsOrigins?: string[] } = {}) {
    super(message);
    this.name = 'RegistrationFailed';
    this.status = options.status ?? 502;
    this.detail = options.detail;
    this.lmsOrigins = options.lmsOrigins ?? [];
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Text before an @ in the authority: the browser and undici treat it as credentials and go to the host after it. */
const hasUserInfo = (url: URL) => url.username !== '' || url.password !== '';

/**
 * Why an LMS's configuration address does not belong to the issuer its configuration names, or null when it does.
 * The one home of this rule. Both are parsed as URLs (never compared as strings: `https://lms.school.edu@evil.example/`
 * starts with `https://lms.school.edu` and goes to evil.example): no user info in either, the same origin (scheme,
 * host and port), and the configuration's path is the issuer's path or below it. The issuer is https, or http on a
 * loopback host outside production.
 * https://www.imsglobal.org/spec/lti-dr/v1p0#issuer-and-openid-configuration-url-match
 */
export function issuerMismatch(
  issuer: string,
  openidConfiguration: string,
  options: { production: boolean },
): string | null {
  let issuerUrl: URL;
  let configurationUrl: URL;
  try {
    issuerUrl = new URL(issuer);
    configurationUrl = new URL(openidConfiguration);
  } catch {
    return 'The issuer or the configuration address is not a URL.';
  }
  if (hasUserInfo(issuerUrl) || hasUserInfo(configurationUrl)) {
    return 'The issuer or the configuration address carries a user name or password (text before an @), which the tool does not accept.';
  }
  if (issuerUrl.origin !== configurationUrl.origin || issuerUrl.origin === 'null') {
    return "The configuration address is not on the issuer's own host: the scheme, host and port must be the same.";
  }
  const base = issuerUrl.pathname.replace(/\/+$/, '');
  if (configurationUrl.pathname !== base && !configurationUrl.pathname.startsWith(`${base}/`)) {
    return "The configuration address is not under the issuer's path.";
  }
  const secure =
    issuerUrl.protocol === 'https:' ||
    (!options.production && issuerUrl.protocol === 'http:' && LOOPBACK_HOSTS.has(issuerUrl.hostname));
  if (!secure)
    return options.production
      ? 'The issuer is not an https address.'
      : 'The issuer is not an https address (plain http is accepted for localhost only, outside production).';
  return null;
}

/**
 * Why a configuration naming a shared issuer (shared-issuers.ts: every hosted Canvas signs as one of three) is not
 * one the tool takes, or null when it is. The configuration may be on any host: hosted Canvas's is not on its
 * issuer's host in development (dynamic_registration_controller.rb, oidc_configuration_url:
 * `HostUrl.context_host(@domain_root_account, request.host)`), and a registration is worth what signs for it, not
 * where it was read. What signs for it is the key set: its keys, login and token addresses must be the environment's
 * own published ones, so that no launch under the shared issuer verifies with keys anyone else holds, and no token
 * request of the tool's goes anywhere else. The configuration address itself is https (http on loopback outside
 * production) and has no user info (refused earlier).
 */
export function sharedIssuerMismatch(
  shared: SharedIssuer,
  platform: { jwks_uri: string; authorization_endpoint: string; token_endpoint: string },
  openidConfiguration: string,
  options: { production: boolean },
): string | null {
  const foreign = foreignAddresses(shared, {
    jwksUrl: platform.jwks_uri,
    authUrl: platform.authorization_endpoint,
    tokenUrl: platform.token_endpoint,
  });
  if (foreign.length > 0) {
    const own = { keys: shared.jwksUrl, login: shared.authUrl, token: shared.tokenUrl };
    const named = foreign.map((what) => `its ${what} address is not ${own[what]}`).join(', ');
    return `It names ${shared.issuer}, the issuer every Instructure-hosted Canvas shares, but ${named}: launches under that issuer are signed only with Canvas's own keys. A Canvas you run yourself names its own issuer (lti_iss in its config/security.yml); register that one.`;
  }
  const configuration = new URL(openidConfiguration);
  const secure =
    configuration.protocol === 'https:' ||
    (!options.production && configuration.protocol === 'http:' && LOOPBACK_HOSTS.has(configuration.hostname));
  return secure ? null : 'The configuration address is not an https address.';
}

/**
 * The origins of the LMS's own pages, which may frame the registration's answer: the configuration's, and for a
 * shared issuer the school's Canvas too, where its administrator's page shows the registration panel. Canvas names
 * the school's host in the registration endpoint (security_controller.rb: `registration_endpoint:
 * create_lti_registration_url(host: account_domain)`), while the configuration is on the shared issuer's host in
 * production.
 */
function lmsOriginsOf(
  openidConfiguration: string,
  registrationEndpoint: string,
  shared: SharedIssuer | null,
): string[] {
  const origins = [new URL(openidConfiguration).origin];
  if (shared) origins.push(new URL(registrationEndpoint).origin);
  return [...new Set(origins)];
}

export interface ToolDescription {
  name: string;
  description: string;
  urls: { login: string; launch: string; keys: string };
  /** Registrations stay switched off until an administrator turns them on. */
  requireApproval: boolean;
  /** The tool offers the Asset Processor (ASSET_PROCESSOR=on): its placement, messages and scopes are asked for. */
  assetProcessor: boolean;
  /** The Asset Processor has terms to accept (ASSET_PROCESSOR_EULA=on): the EULA message and scopes are asked for. */
  assetProcessorEula?: boolean;
}

async function fetchJson(
  url: string,
  init: { method: 'GET' | 'POST'; token?: string; body?: unknown },
): Promise<unknown> {
  let response;
  try {
    response = await platformRequest(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: MAX_RESPONSE_BYTES,
    });
  } catch (error) {
    throw error instanceof PlatformRequestError ? error : new Error(`request failed: ${(error as Error).message}`);
  }
  // For the log only (see ask): the page never tells what a foreign server answered.
  if (response.status < 200 || response.status >= 300) throw new Error(`HTTP ${response.status}`);
  try {
    return JSON.parse(response.body);
  } catch {
    throw new Error('the answer is not JSON');
  }
}

/** What the tool asks a platform to register, for the LMS of that product family. */
export function toolConfiguration(tool: ToolDescription, productFamily: string | undefined) {
  const canvas = lmsOf(productFamily) === 'canvas';
  // Canvas checks placements against its own list; Moodle ignores them.
  const deepLinkingPlacements = canvas ? { placements: ['assignment_selection', 'link_selection'] } : {};
  return {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: tool.urls.login,
    redirect_uris: [tool.urls.launch],
    client_name: tool.name,
    jwks_uri: tool.urls.keys,
    token_endpoint_auth_method: 'private_key_jwt',
    scope: [...SCOPES, ...(tool.assetProcessor ? assetProcessorScopes(tool.assetProcessorEula ?? false) : [])].join(
      ' ',
    ),
    'https://purl.imsglobal.org/spec/lti-tool-configuration': {
      domain: new URL(tool.urls.launch).host,
      description: tool.description,
      target_link_uri: tool.urls.launch,
      claims: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
      messages: [
        { type: 'LtiResourceLinkRequest', target_link_uri: tool.urls.launch },
        {
          type: 'LtiDeepLinkingRequest',
          target_link_uri: tool.urls.launch,
          label: tool.name,
          ...deepLinkingPlacements,
        },
        // Submission review (https://www.imsglobal.org/spec/lti-sr/v1p0/): Moodle launches it from its grade analysis
        // whatever the registration lists; it is not announced to Canvas, whose acceptance of it is unverified.
        ...(canvas ? [] : [{ type: SUBMISSION_REVIEW_MESSAGE, target_link_uri: tool.urls.launch }]),
        // A platform without the Asset Processor ignores a placement and messages it does not know.
        ...(tool.assetProcessor
          ? assetProcessorMessages(tool.urls.launch, tool.name, {
              eula: tool.assetProcessorEula ?? false,
              canvas,
            })
          : []),
      ],
      // Canvas sends names and e-mail addresses only to tools registered as public.
      'https://canvas.instructure.com/lti/privacy_level': 'public',
      // Canvas states each launch's due date (a student's own, extensions included: lti/due-date.ts), so that
      // "late" follows the LMS's date.
      ...(canvas ? { custom_parameters: { ...DUE_DATE_PARAMETERS } } : {}),
    },
  };
}

/** Calls fetchJson and turns any failure into the tool's own sentence for `step`, keeping the detail for the log. */
async function ask(
  step: string,
  url: string,
  init: Parameters<typeof fetchJson>[1],
  lmsOrigins: string[],
): Promise<unknown> {
  try {
    return await fetchJson(url, init);
  } catch (error) {
    // What the tool itself found (the address rule and its setting, a deadline, a size limit) helps the administrator
    // and tells nothing a foreign server said; anything else stays in the log, so the page is no probe of other servers.
    const own = error instanceof PlatformRequestError ? ` ${error.message}` : '';
    throw new RegistrationFailed(`${step}${own}`, { detail: (error as Error).message, lmsOrigins });
  }
}

export async function registerDynamically(
  store: RegistrationStore,
  tool: ToolDescription,
  params: { openidConfiguration: string; registrationToken?: string },
  options: { production: boolean },
): Promise<{ registration: Registration; productFamily: string | null; lmsOrigins: string[] }> {
  // User info is refused before anything is fetched: the request would go to the host after the @.
  if (hasUserInfo(new URL(params.openidConfiguration))) {
    throw new RegistrationFailed(
      'The configuration address your LMS gave carries a user name or password (text before an @), which the tool does not accept. Start the registration from your LMS again.',
      { status: 400 },
    );
  }
  const token = params.registrationToken ? { token: params.registrationToken } : {};
  const configuration = platformConfiguration.safeParse(
    await ask(
      "The tool could not read your LMS's configuration from the address the LMS gave. Check that the tool can reach the LMS, and start the registration again from the LMS.",
      params.openidConfiguration,
      { method: 'GET', ...token },
      [],
    ),
  );
  if (!configuration.success) {
    throw new RegistrationFailed(
      "Your LMS's configuration is not one the tool can use for LTI Dynamic Registration. Register the tool by hand instead.",
      {
        detail: `invalid configuration: ${configuration.error.issues[0]!.path.join('.')}`,
      },
    );
  }
  const platform = configuration.data;
  // A shared issuer is taken on its keys, from any host; any other issuer, from its own origin only.
  const shared = sharedIssuer(platform.issuer);
  const mismatch = shared
    ? sharedIssuerMismatch(shared, platform, params.openidConfiguration, options)
    : issuerMismatch(platform.issuer, params.openidConfiguration, options);
  if (mismatch) {
    const why = shared
      ? "The LMS's configuration is not Canvas's own"
      : "The LMS's configuration names an issuer that its address does not belong to";
    throw new RegistrationFailed(`${why}, so the tool did not register. ${mismatch}`, { status: 400 });
  }
  // From here the LMS is known: its answers may be framed by it (the registration panel in its admin page).
  const lmsOrigins = lmsOriginsOf(params.openidConfiguration, platform.registration_endpoint, shared);
  if (tool.requireApproval && (await countPendingRegistrations(store.db)) >= MAX_PENDING_REGISTRATIONS) {
    throw new RegistrationFailed(
      "Too many registrations are waiting for an administrator of the tool to approve them. Ask the tool's administrator to approve or remove them, then start the registration again.",
      { status: 503, lmsOrigins },
    );
  }
  // The keys and token URLs are the ones the tool will fetch later: refuse now, before the LMS is asked to create
  // anything, a configuration that points them where the tool never connects (each fetch checks again).
  for (const url of [platform.jwks_uri, platform.token_endpoint]) {
    try {
      await assertPlatformAddress(url);
    } catch (error) {
      if (!(error instanceof PlatformRequestError)) throw error;
      throw new RegistrationFailed(`Your LMS's keys or token address is not one the tool can use. ${error.message}`, {
        status: 400,
        lmsOrigins,
        detail: error.message,
      });
    }
  }
  const productFamily = platform['https://purl.imsglobal.org/spec/lti-platform-configuration']?.product_family_code;
  const answer = registrationResponse.safeParse(
    await ask(
      "Your LMS did not accept the tool's registration. Start the registration again from the LMS; if it keeps failing, register the tool by hand.",
      platform.registration_endpoint,
      { method: 'POST', body: toolConfiguration(tool, productFamily), ...token },
      lmsOrigins,
    ),
  );
  if (!answer.success) {
    throw new RegistrationFailed(
      'Your LMS accepted the registration but did not say which client id it gave the tool. Register the tool by hand instead.',
      { lmsOrigins, detail: 'no client_id in the answer' },
    );
  }
  // Canvas names none (registrations.ts, dynamicRegistrationInput): the first verified launch names it.
  const deploymentId = answer.data['https://purl.imsglobal.org/spec/lti-tool-configuration']?.deployment_id;
  // Every hosted Canvas has the same issuer: the school is told apart by where it registered the tool.
  const host = new URL(shared ? platform.registration_endpoint : platform.issuer).host;
  const input = {
    name: productFamily ? `${productFamily} at ${host}` : host,
    issuer: platform.issuer,
    clientId: answer.data.client_id,
    ...(deploymentId ? { deploymentId } : {}),
    authUrl: platform.authorization_endpoint,
    tokenUrl: platform.token_endpoint,
    jwksUrl: platform.jwks_uri,
    ...(platform.authorization_server ? { authorizationServer: platform.authorization_server } : {}),
    ...(productFamily ? { productFamily } : {}),
  };
  const stored = dynamicRegistrationInput.safeParse(input);
  if (!stored.success) {
    throw new RegistrationFailed(
      "Your LMS's login, token or keys address is not one the tool can use (each must be https). Register the tool by hand instead.",
      {
        lmsOrigins,
        detail: `unusable URL: ${String(stored.error.issues[0]!.path[0])}`,
      },
    );
  }
  const registration = await createRegistration(store, stored.data, 'dynamic-registration', {
    active: !tool.requireApproval,
  });
  if (registration === 'exists') {
    throw new RegistrationFailed(
      'This LMS is already registered with the tool (the same issuer and client id), so nothing was changed. An administrator of the tool can remove or update the existing registration.',
      { status: 409, lmsOrigins, detail: `already registered: ${platform.issuer} ${answer.data.client_id}` },
    );
  }
  return { registration, productFamily: productFamily ?? null, lmsOrigins };
}
