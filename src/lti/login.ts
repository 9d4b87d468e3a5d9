// The OIDC login the LMS starts before every launch (LTI Core 1.3, 4.1 "Third-party initiated login":
// https://www.imsglobal.org/spec/lti/v1p3/#third-party-initiated-login ; LTI Security Framework 5.1.1:
// https://www.imsglobal.org/spec/security/v1p0/#step-1-third-party-initiated-login): the tool answers with the
// authentication request, a redirect to the platform's authorization endpoint carrying a state the tool signs
// (oidc-state.ts) and a nonce. ltijs 5.9.9 did this until the tool took every launch (its Provider.js login route and
// Utils/Request.js); the request is the same, with the nonce from the system's random source instead of Math.random.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { registrationCache } from './registration-cache.js';

/** What the LMS sends to start a launch, as a query or a form (4.1.1 to 4.1.5; lti_storage_target: LTI pm-s 3.1). */
export const loginParams = z.object({
  iss: z.string().min(1).max(1000),
  login_hint: z.string().min(1).max(4096),
  target_link_uri: z.string().min(1).max(4096),
  // Optional in the specification; every LMS the tool knows sends it.
  client_id: z.string().min(1).max(255).optional(),
  lti_message_hint: z.string().max(4096).optional(),
  lti_deployment_id: z.string().max(255).optional(),
});
export type LoginParams = z.infer<typeof loginParams>;

export interface LoginPlatform {
  issuer: string;
  clientId: string;
  authUrl: string;
  active: boolean;
}

/**
 * The registration a login names: by issuer and client id, or by issuer alone when that names exactly one (ltijs took
 * the first of several; which of two registrations a login without a client id meant cannot be known). Null: none.
 * Only an active one is kept in memory (registration-cache.ts): a refusal is read fresh, so a platform switched on a
 * moment ago signs in at once. One switched off a moment ago may still sign in; its launch is refused (the launch's
 * write holds to the registrations' version, launch.ts), and the login trusts nothing.
 */
export async function loginPlatform(
  db: Kysely<DatabaseSchema>,
  issuer: string,
  clientId: string | undefined,
): Promise<LoginPlatform | null> {
  const key = `login:${JSON.stringify([issuer, clientId ?? null])}`;
  return registrationCache(db).get(
    key,
    async () => {
      let query = db
        .selectFrom('platform')
        .select(['issuer', 'client_id', 'auth_url', 'active'])
        .where('issuer', '=', issuer)
        .limit(2);
      if (clientId !== undefined) query = query.where('client_id', '=', clientId);
      const rows = await query.execute();
      const row = rows.length === 1 ? rows[0]! : null;
      return row ? { issuer: row.issuer, clientId: row.client_id, authUrl: row.auth_url, active: row.active } : null;
    },
    (found) => found?.active === true,
  );
}

/** Moodle's OIDC authorization endpoint (mod_lti's, launching its own activities only), and the plagiarism plugin's. */
const MOODLE_AUTH_PATH = '/mod/lti/auth.php';
const MOODLE_REPORT_REVIEW_AUTH_PATH = '/plagiarism/olti/auth.php';
const moodleReportReviewHint = z.object({ olti: z.enum(['reportreview', 'settings']) });

/**
 * Where the authentication request goes: the platform's authorization endpoint, except for Moodle's report review.
 * Moodle's mod/lti/auth.php answers only launches of mod_lti's activities and its content-item selection, so the
 * plagiarism plugin of this repository (moodle/plagiarism_olti) answers its "View report" launch
 * (LtiReportReviewRequest), and a settings launch from the assignment's form (LtiAssetProcessorSettingsRequest), at
 * plagiarism/olti/auth.php beside it, and says so in the login's message hint ({"launchid": …, "olti":
 * "reportreview"} or "settings"). Only the path changes, and only for a platform registered with Moodle's
 * endpoint: the host is the registered one, and the id_token is verified with the platform's keys as any launch.
 */
export function authorizationEndpoint(authUrl: string, messageHint: string | undefined): URL {
  const url = new URL(authUrl);
  if (messageHint === undefined || !url.pathname.endsWith(MOODLE_AUTH_PATH)) return url;
  let hint: unknown;
  try {
    hint = JSON.parse(messageHint);
  } catch {
    return url;
  }
  if (moodleReportReviewHint.safeParse(hint).success)
    url.pathname = `${url.pathname.slice(0, -MOODLE_AUTH_PATH.length)}${MOODLE_REPORT_REVIEW_AUTH_PATH}`;
  return url;
}

/**
 * The authentication request (Security Framework 5.1.1.2, OpenID Connect Core 3.1.2.1): an implicit-flow id_token,
 * posted back as a form, for the launch address the target link names (its query kept out, as ltijs did: the launch
 * address is registered without one), with the hints the login brought.
 */
export function authenticationRequest(platform: LoginPlatform, params: LoginParams, state: string): string {
  const url = authorizationEndpoint(platform.authUrl, params.lti_message_hint);
  const query: Record<string, string> = {
    response_type: 'id_token',
    response_mode: 'form_post',
    id_token_signed_response_alg: 'RS256',
    scope: 'openid',
    client_id: params.client_id ?? platform.clientId,
    redirect_uri: params.target_link_uri.split('?')[0]!,
    login_hint: params.login_hint,
    nonce: randomBytes(16).toString('base64url'),
    prompt: 'none',
    state,
    ...(params.lti_message_hint !== undefined ? { lti_message_hint: params.lti_message_hint } : {}),
    ...(params.lti_deployment_id !== undefined ? { lti_deployment_id: params.lti_deployment_id } : {}),
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}
