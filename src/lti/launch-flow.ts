// A launch, from the form the LMS posts to the launch address to a recorded session, in one chain that knows no web
// framework: it takes the posted request as plain values and returns an outcome, which the web part renders
// (web/launch-route.ts). In order:
// 1. admit: the body's shape; what the token names, read without trusting it (unverified-jwt.ts); the LMS's platform
//    storage asked back first where the login kept the state there; the state signed by this tool, unexpired and
//    for the issuer the token names; the login started in this browser (platform storage's own-page post, the state
//    cookies); the issuer, client and deployment registered and switched on; the platform's key for the token's key
//    id, under a deadline (token-key.ts). A refusal made on the registrations as this process kept them is checked
//    once more against them as they are now.
// 2. verify: the signature, the claims, the message type (verify-launch.ts).
// 3. check: what the caller refuses of the verified launch (a message type it does not take now).
// 4. record: the state used up, the nonce, the session, the person, the course and the membership, in one statement
//    (launch-session.ts, launch.ts); when the registrations changed while the chain ran, nothing is written and the
//    chain runs once more from 1.
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { PlainKey, Sentence } from '../i18n/index.js';
import type { Jwk } from './jwk.js';
import { LaunchRefused, type Launch } from './launch.js';
import { startLaunchSession, type StartedSession } from './launch-session.js';
import { readState, wasUsed, type StateStorage } from './oidc-state.js';
import { registrationCache } from './registration-cache.js';
import { tokenKey, type TokenKeyRefusal } from './token-key.js';
import { readUnverified, type TokenNames } from './unverified-jwt.js';
import { LaunchNotVerified, verifyLaunch, type LaunchPassage, type VerifiedLaunch } from './verify-launch.js';

/** The posted launch as the web part hands it over. */
export interface LaunchRequest {
  /** The posted form's fields. */
  body: unknown;
  /** The request's Cookie header. */
  cookies: string | undefined;
  /** Sec-Fetch-Site, where the browser sends it. */
  fetchSite: string | undefined;
  /** The Origin header. */
  origin: string | undefined;
  /** The path it was posted to: part of what names the session's record. */
  path: string;
}

export interface LaunchFlowDeps {
  db: Kysely<DatabaseSchema>;
  encryptionKey: string;
  /** The tool's own origin: the platform-storage page posts the launch on from it. */
  toolOrigin: string;
}

/** The platform a token names, as far as the chain read it: its refusal may be framed by that platform. */
export type NamedPlatform = Pick<TokenNames, 'issuer' | 'clientId'>;

/** A launch refused: its status, what the person reads, a reason (and what else to log), nothing written. */
export interface LaunchRefusal {
  outcome: 'refused';
  status: number;
  /** The page's heading; absent: "The tool could not open". */
  title?: PlainKey;
  sentence: Sentence;
  reason: string;
  log?: Record<string, unknown>;
  platform: NamedPlatform | null;
  /** The language of the verified launch, where it got so far. */
  locale?: string | null;
}

/** The login kept the state in the LMS's window: this browser's copy must be asked back before the launch goes on. */
export interface StorageCheck {
  outcome: 'check storage';
  platform: NamedPlatform;
  storage: StateStorage;
  /** The key the state is kept under in the LMS's storage, and the posted fields to post on once it answered. */
  key: string;
  idToken: string;
  state: string;
}

export interface OpenedLaunch {
  outcome: 'opened';
  started: StartedSession;
  /** The launch named the platform's first deployment, which it now is. */
  firstDeployment: boolean;
}

export type LaunchOutcome = LaunchRefusal | StorageCheck | OpenedLaunch;

const launchBody = z.object({
  id_token: z.string().min(1).max(60_000),
  // A signed state is about 100 characters, some 300 more with platform storage (oidc-state.ts).
  state: z.string().min(1).max(1000),
  /** Set by the tool's own page once the LMS's platform storage held this launch's state. */
  lti_storage_checked: z.literal('1').optional(),
});
type LaunchBody = z.infer<typeof launchBody>;

/** The key the state is kept under in the LMS's platform storage (the login puts it there, web/lti-guard.ts). */
export const storageKey = (state: string) => `lti_state_${state}`;

const refused = (
  status: number,
  sentence: Sentence | PlainKey,
  reason: string,
  platform: NamedPlatform | null,
  log?: Record<string, unknown>,
): LaunchRefusal => ({
  outcome: 'refused',
  status,
  sentence: typeof sentence === 'string' ? { key: sentence } : sentence,
  reason,
  platform,
  ...(log ? { log } : {}),
});

/** What the person reads when the key lookup (token-key.ts) refuses a launch, and the reason logged. */
const KEY_REFUSALS: Record<
  Exclude<TokenKeyRefusal['kind'], 'keys unavailable'>,
  { status: number; sentence: PlainKey; reason: string }
> = {
  unregistered: {
    status: 403,
    sentence: 'launch.deploymentUnregistered',
    reason: 'unregistered issuer, client or deployment',
  },
  'switched off': { status: 403, sentence: 'launch.switchedOff', reason: 'switched off' },
  'no key id': { status: 401, sentence: 'launch.notVerified', reason: 'id_token names no key id' },
  'unknown key': {
    status: 401,
    sentence: 'launch.notVerified',
    reason: "the platform has no key with the token's key id",
  },
};

/** What the person reads of a launch its recording refused (launch.ts), and its status. */
const RECORD_REFUSALS: Record<LaunchRefused['reason'], { status: number; sentence: PlainKey }> = {
  'state used': { status: 401, sentence: 'launch.stateUsed' },
  'nonce used': { status: 401, sentence: 'launch.notVerified' },
  'unstorable claims': { status: 401, sentence: 'launch.unstorable' },
  'registrations changed': { status: 503, sentence: 'launch.notNow' },
};

type KeyFound = { platformId: string; firstDeployment: boolean; key: Jwk };

/** The deployment a launch names, registered and switched on, and its platform's key for the token's key id. */
async function keyFor(
  db: Kysely<DatabaseSchema>,
  names: TokenNames,
  keyId: string | undefined,
): Promise<KeyFound | { refusal: LaunchRefusal; keysUnreachable: boolean }> {
  const found = await tokenKey(db, names, keyId, { firstDeployment: 'take' });
  const platform = { issuer: names.issuer, clientId: names.clientId };
  const log = { issuer: names.issuer, clientId: names.clientId, deploymentId: names.deploymentId };
  if (!('refused' in found))
    return { platformId: found.platformId, firstDeployment: found.firstDeployment, key: found.key };
  const { refused: refusal } = found;
  if (refusal.kind !== 'keys unavailable') {
    const { status, sentence, reason } = KEY_REFUSALS[refusal.kind];
    return { refusal: refused(status, sentence, reason, platform, log), keysUnreachable: false };
  }
  // The LMS's keys host did not answer in time: asking again would spend a second deadline of the id_token's short
  // life (10 s) on the same host, so the refusal stands even when the registrations moved meanwhile.
  return {
    refusal: refused(
      503,
      { key: 'launch.keysUnreachable', params: { host: refusal.host } },
      refusal.detail,
      platform,
      log,
    ),
    keysUnreachable: true,
  };
}

/** Whether this browser started the launch's login, by the state cookies it keeps (login CSRF). */
function stateCookieOf(cookies: string | undefined, state: string): 'this' | 'another' | 'none' {
  const names = (cookies ?? '')
    .split(/;\s*/)
    .filter((pair) => pair.startsWith('state'))
    .map((pair) => pair.split('=')[0]);
  if (names.length === 0) return 'none';
  return names.includes(`state${state}`) ? 'this' : 'another';
}

/** Step 1: the launch's checks before anything of its token is trusted. */
export async function admitLaunch(
  deps: LaunchFlowDeps,
  request: LaunchRequest,
): Promise<LaunchRefusal | StorageCheck | { outcome: 'admitted'; passage: LaunchPassage; body: LaunchBody }> {
  const { db } = deps;
  const parsed = launchBody.safeParse(request.body);
  if (!parsed.success) return refused(400, 'launch.bodyIncomplete', 'malformed launch body', null);
  const body = parsed.data;
  const token = readUnverified(body.id_token);
  if (!token?.names) return refused(401, 'launch.unreadable', 'id_token unreadable or missing claims', null);
  const names = token.names;
  // A refusal from here on may be framed by the platform the token names, so that its iframe shows the sentence.
  // Nothing on it acts for anyone, so an unverified claim widens nothing that matters.
  const platform = { issuer: names.issuer, clientId: names.clientId };
  // Platform storage (login CSRF, LTI pm-s): a state kept in the LMS's window is asked back by the tool's own page
  // in this browser before the launch goes on; only that page's same-origin post carries the launch further.
  const issued = readState(deps.encryptionKey, body.state);
  const storage = issued?.storage;
  if (storage && !body.lti_storage_checked)
    return {
      outcome: 'check storage',
      platform,
      storage,
      key: storageKey(body.state),
      idToken: body.id_token,
      state: body.state,
    };
  // The tool's pages send no Referer, so browsers send `Origin: null` on their posts; Sec-Fetch-Site says
  // same-origin all the same. Without it (older browsers), the Origin must be the tool's own.
  const fromToolPage =
    request.fetchSite !== undefined ? request.fetchSite === 'same-origin' : request.origin === deps.toolOrigin;
  if (storage && !fromToolPage)
    return refused(403, 'launch.otherBrowser', 'platform-storage launch posted from another site', platform);
  if (!issued) return refused(401, 'launch.stateUsed', 'unknown, expired or reused state', platform);
  if (!issued.isFor(names.issuer))
    return refused(401, 'launch.issuerDiffers', 'issuer differs from the login', platform);
  // What is read of the registrations is good for the version held; the launch's write holds to it (launch.ts), so
  // a launch let in on what was kept is checked against a change all the same. A refusal made on what was kept is
  // checked once against the registrations as they are now: a platform switched on a moment ago launches at once.
  const cache = registrationCache(db);
  let registrations = await cache.current();
  let found = await keyFor(db, names, token.keyId);
  if ('refusal' in found && !found.keysUnreachable && (await cache.moved())) {
    registrations = await cache.current();
    found = await keyFor(db, names, token.keyId);
  }
  if ('refusal' in found) return found.refusal;
  // Login CSRF: a browser that keeps the tool's state cookies but not this state's did not start this launch
  // (someone else's login, posted here). A browser with none gets the signed state's word (iframes drop them).
  if (stateCookieOf(request.cookies, body.state) === 'another') {
    // A state that carried a launch already is told as such, whichever browser brings it back.
    if (await wasUsed(db, body.state)) return refused(401, 'launch.stateUsed', 'reused state', platform);
    return refused(401, 'launch.otherBrowser', 'state cookie of another login', platform);
  }
  return {
    outcome: 'admitted',
    body,
    passage: {
      ...names,
      platformId: found.platformId,
      firstDeployment: found.firstDeployment,
      key: found.key,
      state: issued,
      // Null when the registrations moved while the checks read them: the launch's write then refuses, and the
      // checks run again.
      registrations: cache.version === registrations ? registrations : null,
    },
  };
}

/**
 * The whole chain (this file's head). `check`: what the caller refuses of a verified launch before anything is
 * written (null: it takes it).
 */
export async function runLaunch(
  deps: LaunchFlowDeps,
  request: LaunchRequest,
  check: (launch: Launch) => Omit<LaunchRefusal, 'outcome' | 'platform'> | null,
): Promise<LaunchOutcome> {
  for (let round = 1; ; round += 1) {
    const admitted = await admitLaunch(deps, request);
    if (admitted.outcome !== 'admitted') return admitted;
    const { passage, body } = admitted;
    const platform = { issuer: passage.issuer, clientId: passage.clientId };
    let verified: VerifiedLaunch;
    try {
      verified = await verifyLaunch(body.id_token, passage);
    } catch (error) {
      if (!(error instanceof LaunchNotVerified)) throw error;
      return refused(error.status, error.sentence, error.detail, platform);
    }
    const refusal = check(verified.launch);
    if (refusal) return { ...refusal, outcome: 'refused', platform };
    try {
      const started = await startLaunchSession(deps, verified, request.path);
      return { outcome: 'opened', started, firstDeployment: passage.firstDeployment };
    } catch (error) {
      if (!(error instanceof LaunchRefused)) throw error;
      // An administrator changed a registration while the checks ran (in any process): nothing was written, and the
      // chain runs again against the registrations as they are now. A second change meanwhile is refused.
      if (error.reason === 'registrations changed' && round === 1) continue;
      const { status, sentence } = RECORD_REFUSALS[error.reason];
      return refused(status, sentence, error.reason, platform);
    }
  }
}
