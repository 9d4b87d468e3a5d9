// Issuers that many schools share: every Instructure-hosted Canvas signs its launches as one issuer per environment,
// "regardless of the specific account domain(s) that the tool was launched from" (canvas-lms
// doc/api/lti_launch_overview.md, "Step 1: Login Initiation"), and publishes one key set, one OIDC authorization
// endpoint and one token endpoint per environment on its SSO host:
// - lti_launch_overview.md, "Step 2: Authentication Request": "For cloud-hosted Canvas, regardless of the domain used
//   by the client, the endpoint is always: https://sso.canvaslms.com/api/lti/authorize_redirect (if launched from a
//   production environment)", sso.beta.canvaslms.com and sso.test.canvaslms.com for beta and test;
// - lti_dev_key_config.md, "Configuring Canvas in the Tool": "Canvas' public keys are environment-specific, but not
//   domain-specific (the same key set can be used across all client accounts): Production:
//   https://sso.canvaslms.com/api/lti/security/jwks", and the beta and test ones;
// - the token endpoint is named by Canvas's own configuration, app/controllers/security_controller.rb
//   SecurityController#openid_configuration: `token_endpoint: oauth2_token_url(host:
//   Lti::Oidc.auth_domain(account_domain))`, beside `jwks_uri: lti_jwks_url(host: Lti::Oidc.auth_domain(...))`;
//   lib/lti/oidc.rb Lti::Oidc.auth_domain says of hosted Canvas: "Instructure-hosted Canvas overrides this method in
//   MRA, since it uses (for example): `canvas.instructure.com` for the iss, and `sso.canvaslms.com` for the OIDC Auth
//   endpoint". The override itself is not public; the token path is the route oauth2_token_url, /login/oauth2/token.
// Sources and the copies read: test/fixtures/lms/canvas/hosted-registration.json. Which of these addresses a
// registration naming such an issuer must hold is dynamic-registration.ts's rule; who may frame the tool for it,
// frame-origins.ts's. The one home of the addresses is here.

export interface SharedIssuer {
  /** The `iss` every school of this environment signs with. */
  issuer: string;
  /** The environment's own published addresses: what launches under the issuer may be verified with and go through. */
  jwksUrl: string;
  authUrl: string;
  tokenUrl: string;
  /** The schools' own hosts, where their pages show the tool (frame-ancestors). */
  schoolHosts: string;
}

function canvasCloud(issuer: string, sso: string): SharedIssuer {
  return {
    issuer,
    jwksUrl: `${sso}/api/lti/security/jwks`,
    authUrl: `${sso}/api/lti/authorize_redirect`,
    tokenUrl: `${sso}/login/oauth2/token`,
    schoolHosts: 'https://*.instructure.com',
  };
}

export const SHARED_ISSUERS: readonly SharedIssuer[] = [
  canvasCloud('https://canvas.instructure.com', 'https://sso.canvaslms.com'),
  canvasCloud('https://canvas.beta.instructure.com', 'https://sso.beta.canvaslms.com'),
  canvasCloud('https://canvas.test.instructure.com', 'https://sso.test.canvaslms.com'),
];

/** The shared issuer an issuer is (compared as a parsed URL, a trailing slash aside); null for any other. */
export function sharedIssuer(issuer: string): SharedIssuer | null {
  if (!URL.canParse(issuer)) return null;
  const url = new URL(issuer);
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return null;
  return SHARED_ISSUERS.find((shared) => shared.issuer === url.origin) ?? null;
}

/** Which of a registration's addresses are not the shared issuer's own (each compared as a parsed URL). */
export function foreignAddresses(
  shared: SharedIssuer,
  addresses: { jwksUrl: string; authUrl: string; tokenUrl: string },
): Array<'keys' | 'login' | 'token'> {
  const same = (given: string, own: string) => URL.canParse(given) && new URL(given).href === own;
  return [
    ...(same(addresses.jwksUrl, shared.jwksUrl) ? [] : (['keys'] as const)),
    ...(same(addresses.authUrl, shared.authUrl) ? [] : (['login'] as const)),
    ...(same(addresses.tokenUrl, shared.tokenUrl) ? [] : (['token'] as const)),
  ];
}
