// LTI Dynamic Registration 1.0 (https://www.imsglobal.org/spec/lti-dr/v1p0): the LMS opens
// /lti/register?openid_configuration=...&registration_token=...; the tool reads the platform's configuration,
// registers itself at the platform's registration endpoint, and stores the client id and deployment id the
// platform answers with. ltijs has its own flow, but it drops the deployment id and sets no timeouts.
import { z } from 'zod';
import { PlatformRequestError, platformRequest } from './platform-http.js';
import { saveRegistration, type Registration, type RegistrationStore } from './registrations.js';

const FETCH_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 256 * 1024;

const SCOPES = [
  'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
];

const platformConfiguration = z.object({
  issuer: z.string().url(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  jwks_uri: z.string().url(),
  registration_endpoint: z.string().url(),
  authorization_server: z.string().optional(),
  'https://purl.imsglobal.org/spec/lti-platform-configuration': z
    .object({ product_family_code: z.string().optional(), version: z.string().optional() })
    .partial()
    .optional(),
});

const registrationResponse = z.object({
  client_id: z.string().min(1),
  'https://purl.imsglobal.org/spec/lti-tool-configuration': z.object({ deployment_id: z.string().min(1).optional() }).partial().optional(),
});

export class RegistrationFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistrationFailed';
  }
}

export interface ToolDescription {
  name: string;
  description: string;
  urls: { login: string; launch: string; keys: string };
  /** Registrations stay switched off until an administrator turns them on. */
  requireApproval: boolean;
}

async function fetchJson(url: string, init: { method: 'GET' | 'POST'; token?: string; body?: unknown }): Promise<unknown> {
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
    // The sentence names the host and the rule, never what a foreign server answered.
    if (error instanceof PlatformRequestError) throw new RegistrationFailed(`The LMS could not be asked: ${error.message}`);
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    throw new RegistrationFailed(`The LMS refused the registration (HTTP ${response.status}).`);
  }
  try {
    return JSON.parse(response.body);
  } catch {
    throw new RegistrationFailed('The LMS answered with something that is not JSON.');
  }
}

function toolConfiguration(tool: ToolDescription, productFamily: string | undefined) {
  // Canvas checks placements against its own list; Moodle ignores them.
  const deepLinkingPlacements = productFamily === 'canvas' ? { placements: ['assignment_selection', 'link_selection'] } : {};
  return {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: tool.urls.login,
    redirect_uris: [tool.urls.launch],
    client_name: tool.name,
    jwks_uri: tool.urls.keys,
    token_endpoint_auth_method: 'private_key_jwt',
    scope: SCOPES.join(' '),
    'https://purl.imsglobal.org/spec/lti-tool-configuration': {
      domain: new URL(tool.urls.launch).host,
      description: tool.description,
      target_link_uri: tool.urls.launch,
      claims: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
      messages: [
        { type: 'LtiResourceLinkRequest', target_link_uri: tool.urls.launch },
        { type: 'LtiDeepLinkingRequest', target_link_uri: tool.urls.launch, label: tool.name, ...deepLinkingPlacements },
      ],
      // Canvas sends names and e-mail addresses only to tools registered as public.
      'https://canvas.instructure.com/lti/privacy_level': 'public',
    },
  };
}

export async function registerDynamically(
  store: RegistrationStore,
  tool: ToolDescription,
  params: { openidConfiguration: string; registrationToken?: string },
): Promise<Registration> {
  const configuration = platformConfiguration.safeParse(
    await fetchJson(params.openidConfiguration, { method: 'GET', ...(params.registrationToken ? { token: params.registrationToken } : {}) }),
  );
  if (!configuration.success) {
    throw new RegistrationFailed(`The LMS's configuration is missing ${configuration.error.issues[0]!.path.join('.') || 'required fields'}.`);
  }
  const platform = configuration.data;
  // Dynamic Registration 3.5.1: the configuration URL must belong to the issuer it names.
  if (!params.openidConfiguration.startsWith(platform.issuer)) {
    throw new RegistrationFailed('The LMS configuration names an issuer that does not match its own address.');
  }
  const productFamily = platform['https://purl.imsglobal.org/spec/lti-platform-configuration']?.product_family_code;
  const answer = registrationResponse.safeParse(
    await fetchJson(platform.registration_endpoint, {
      method: 'POST',
      body: toolConfiguration(tool, productFamily),
      ...(params.registrationToken ? { token: params.registrationToken } : {}),
    }),
  );
  if (!answer.success) throw new RegistrationFailed('The LMS accepted the registration but did not say which client id it gave the tool.');
  const deploymentId = answer.data['https://purl.imsglobal.org/spec/lti-tool-configuration']?.deployment_id;
  if (!deploymentId) {
    throw new RegistrationFailed('The LMS did not say which deployment it created; register the tool by hand with its deployment id.');
  }
  const registration = await saveRegistration(
    store,
    {
      name: productFamily ? `${productFamily} at ${new URL(platform.issuer).host}` : new URL(platform.issuer).host,
      issuer: platform.issuer,
      clientId: answer.data.client_id,
      deploymentId,
      authUrl: platform.authorization_endpoint,
      tokenUrl: platform.token_endpoint,
      jwksUrl: platform.jwks_uri,
      ...(platform.authorization_server ? { authorizationServer: platform.authorization_server } : {}),
    },
    'dynamic-registration',
    { active: !tool.requireApproval },
  );
  return registration;
}
