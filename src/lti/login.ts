// The OIDC login the LMS starts before every launch (LTI Core 1.3, 4.1 "Third-party initiated login":
// https://www.imsglobal.org/spec/lti/v1p3/#third-party-initiated-login ; LTI Security Framework 5.1.1:
// https://www.imsglobal.org/spec/security/v1p0/#step-1-third-party-initiated-login): the tool answers with the
// authentication request, a redirect to the platform's authorization endpoint carrying a state the tool signs
// (oidc-state.ts) and a nonce from the system's random source.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import type { LaunchRefusal } from './launch-flow.js';
import { issueState, type StateStorage } from './oidc-state.js';
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
 * The registration a login names: by issuer and client id, or by issuer alone when that names exactly one (which of
 * two registrations a login without a client id meant cannot be known). Null: none.
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
 * posted back as a form, for the launch address the target link names (its query kept out: the launch address is
 * registered without one), with the hints the login brought.
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

/** `_parent` or a frame's name in the LMS's window. */
const STORAGE_TARGET = /^[A-Za-z0-9_.-]{1,100}$/;

/** The login answered: the browser goes on to the platform, with the state kept in the LMS's window first where offered. */
export interface LoginRedirect {
  outcome: 'redirect';
  url: string;
  /** The signed state, which the browser's cookie and, with storage, the LMS's window keep until the launch. */
  state: string;
  issuer: string;
  clientId: string;
  /** Where the LMS's platform storage keeps the state (LTI pm-s); null: it offered none. */
  storage: StateStorage | null;
}

/**
 * A login, from the fields the LMS sent (query and form together) to where the browser goes next: the registration it
 * names, registered and switched on, and the authentication request with a state the tool signs (oidc-state.ts). The
 * login writes nothing.
 */
export async function startLogin(
  deps: { db: Kysely<DatabaseSchema>; encryptionKey: string },
  fields: Record<string, unknown>,
): Promise<LaunchRefusal | LoginRedirect> {
  const named =
    typeof fields.iss === 'string' && typeof fields.client_id === 'string'
      ? { issuer: fields.iss, clientId: fields.client_id }
      : null;
  const refused = (
    status: number,
    key: 'launch.bodyIncomplete' | 'launch.unregistered' | 'launch.switchedOff',
    reason: string,
    log?: Record<string, unknown>,
  ): LaunchRefusal => ({
    outcome: 'refused',
    status,
    sentence: { key },
    reason,
    platform: named,
    ...(log ? { log } : {}),
  });
  const params = loginParams.safeParse(fields);
  if (!params.success) return refused(400, 'launch.bodyIncomplete', `login: ${params.error.issues[0]!.path.join('.')}`);
  const { iss, client_id: clientId } = params.data;
  const platform = await loginPlatform(deps.db, iss, clientId);
  if (!platform) return refused(400, 'launch.unregistered', 'unregistered platform', { issuer: iss, clientId });
  if (!platform.active) return refused(403, 'launch.switchedOff', 'switched off', { issuer: iss, clientId });
  // Platform storage: the LMS's frame answers from the origin of its authorization endpoint (LTI pm-s 3.1).
  const target = fields.lti_storage_target;
  const origin = new URL(platform.authUrl).origin;
  const storage =
    typeof target === 'string' && STORAGE_TARGET.test(target) && origin.length <= 300 ? { target, origin } : null;
  const state = issueState(deps.encryptionKey, iss, storage);
  return {
    outcome: 'redirect',
    url: authenticationRequest(platform, params.data, state),
    state,
    issuer: iss,
    clientId: platform.clientId,
    storage,
  };
}
