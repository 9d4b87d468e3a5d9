// Checks in front of the LTI routes. At login: issue the signed state (lti/login.ts, oidc-state.ts), and keep it in the
// LMS's window too where the LMS offers platform storage. At launch (admitLaunch, which the launch route calls):
// refuse, before anything is verified or stored, a launch whose state the tool did not sign or that expired, that
// another browser started (platform storage, state cookies), whose issuer, client or deployment is not registered or
// is switched off, or whose platform's key cannot be had under a deadline; then hand the launch route
// (launch-route.ts) what was found, for the one verifier (lti/verify-launch.ts). A state used already is refused by
// the launch's write, which uses it up (lti/launch.ts).
import express, { type Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { claimedPlatformFrameOrigins } from '../lti/frame-origins.js';
import { authenticationRequest, loginParams, loginPlatform } from '../lti/login.js';
import { issueState, readState, wasUsed } from '../lti/oidc-state.js';
import { LTI_MOUNT_PATH, LTI_ROUTES } from '../lti/provider.js';
import type { LaunchPassage } from '../lti/verify-launch.js';
import type { Jwk } from '../lti/jwk.js';
import { registrationCache } from '../lti/registration-cache.js';
import { tokenKey, type TokenKeyRefusal } from '../lti/token-key.js';
import { claimShare } from './admission.js';
import { allowFramingBy, namePlatform, refusedLaunch } from './framing.js';
import type { PlainKey, Words } from '../messages/index.js';
import { render, sendMessage, wordsOf } from './views.js';
import { CLAIM, withoutNulls } from '../lti/claims.js';
import { comparablePath, toolRouter } from './routing.js';
import type { Tool } from './tool-context.js';

/** An id_token is a few kilobytes; 64 KB leaves room for large custom claims and refuses the absurd. */
const MAX_LAUNCH_BODY = '64kb';

/**
 * A request under /lti not answered by then (ltijs, on express 4, never answers one whose storage call fails inside
 * its own error handling; a database that hangs holds the login and the launch) gets a sentence instead of a page
 * that loads forever.
 */
const LTI_ANSWER_DEADLINE_MS = 30_000;

const launchBody = z.object({
  id_token: z.string().min(1).max(60_000),
  // A signed state is about 100 characters, some 300 more with platform storage (oidc-state.ts).
  state: z.string().min(1).max(1000),
  /** Set by the tool's own page once the LMS's platform storage held this launch's state. */
  lti_storage_checked: z.literal('1').optional(),
});

/** A login initiation is a handful of short parameters. */
const MAX_LOGIN_BODY = '16kb';

/** `_parent` or a frame's name in the LMS's window. */
const STORAGE_TARGET = /^[A-Za-z0-9_.-]{1,100}$/;

/** The key the state is kept under in the LMS's platform storage. */
const storageKey = (state: string) => `lti_state_${state}`;

const idTokenClaims = z.object({
  iss: z.string().min(1),
  aud: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  azp: z.string().optional(),
  [CLAIM.deploymentId]: z.string().min(1),
});

const keyId = z.object({ kid: z.string().min(1).max(500) });

/** Reads a JWT's header or payload without verifying it: only to decide whether to refuse early, never to trust. */
function peekPart(jwt: string, index: 0 | 1): unknown {
  const part = jwt.split('.')[index];
  if (!part) return null;
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

/** The platform and deployment an id_token names, read without verifying it; null when it names none. */
export function launchClaims(idToken: string): { issuer: string; clientId: string; deploymentId: string } | null {
  const claims = idTokenClaims.safeParse(withoutNulls(peekPart(idToken, 1)));
  if (!claims.success) return null;
  const { iss, aud, azp } = claims.data;
  return {
    issuer: iss,
    clientId: Array.isArray(aud) ? (azp ?? aud[0]!) : aud,
    deploymentId: claims.data[CLAIM.deploymentId],
  };
}

/**
 * A refused launch's page, in the language of the browser (nothing of the launch is trusted yet), which any LMS's
 * frame may show (framing.ts); null, as nothing passed.
 */
function refuse(res: Response, status: number, message: PlainKey | ((words: Words) => string)): null {
  const words = wordsOf(res);
  refusedLaunch(res);
  sendMessage(
    res,
    status,
    words.t('launch.couldNotOpen'),
    typeof message === 'function' ? message(words) : words.t(message),
  );
  return null;
}

export function ltiGuard(tool: Tool): Router {
  const { db, logger } = tool;
  // The platform posts the launch cross-site into an iframe: only SameSite=None; Secure cookies arrive there.
  const stateCookie: express.CookieOptions =
    new URL(tool.settings.publicUrl).protocol === 'https:'
      ? { httpOnly: true, secure: true, sameSite: 'none' }
      : { httpOnly: true };
  const router = toolRouter();

  // ltijs's app matches its routes in any letter case, the checks below only the exact path: a path in other
  // letters is none of the tool's, rather than a way past them (routing.ts).
  router.use((req, res, next) => {
    if (req.path === comparablePath(req.path)) return next();
    const { t } = wordsOf(res);
    sendMessage(res, 404, t('refused.notFound'), t('refused.noPage'));
  });

  router.use((req, res, next) => {
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      logger.error({ path: req.path }, 'An LTI request was not answered in time');
      refuse(res, 503, 'launch.notNow');
    }, LTI_ANSWER_DEADLINE_MS);
    res.on('close', () => clearTimeout(timer));
    next();
  });

  // The login (lti/login.ts): the browser is sent to the platform with a state the tool signs (oidc-state.ts), kept
  // in a cookie and, where the LMS offers platform storage, in the LMS's window by a page of the tool's.
  router.all(LTI_ROUTES.login, express.urlencoded({ extended: false, limit: MAX_LOGIN_BODY }), async (req, res) => {
    const fields = {
      ...(req.query as Record<string, unknown>),
      ...((req.body as Record<string, unknown> | undefined) ?? {}),
    };
    // A refusal of the sign-in is one sentence that the platform it names may frame (framing.ts).
    if (typeof fields.iss === 'string' && typeof fields.client_id === 'string')
      namePlatform(res, { issuer: fields.iss, clientId: fields.client_id });
    const params = loginParams.safeParse(fields);
    if (!params.success) {
      logger.warn({ reason: `login: ${params.error.issues[0]!.path.join('.')}` }, 'LTI launch refused');
      return refuse(res, 400, 'launch.bodyIncomplete');
    }
    const { iss, client_id: clientId } = params.data;
    // The login counts against the share of the launch places of the platform it names, as its launch does.
    if (!claimShare(res, `${iss} ${clientId}`)) return;
    const platform = await loginPlatform(db, iss, clientId);
    if (!platform) {
      logger.warn({ issuer: iss, clientId, reason: 'unregistered platform' }, 'LTI launch refused');
      return refuse(res, 400, 'launch.unregistered');
    }
    if (!platform.active) return refuse(res, 403, 'launch.switchedOff');
    // Platform storage: the LMS's frame answers from the origin of its authorization endpoint (LTI pm-s 3.1).
    const storageTarget = fields.lti_storage_target;
    const storageOrigin = new URL(platform.authUrl).origin;
    const storage =
      typeof storageTarget === 'string' && STORAGE_TARGET.test(storageTarget) && storageOrigin.length <= 300
        ? { target: storageTarget, origin: storageOrigin }
        : null;
    // The state is signed, not stored (oidc-state.ts): the login writes nothing.
    const state = issueState(tool.encryptionKey, iss, storage);
    const url = authenticationRequest(platform, params.data, state);
    // Past the answer deadline above, the person was told already: nothing more is sent.
    if (res.headersSent) return;
    // The state cookie ties the launch to this browser where the browser keeps it (the login CSRF check of
    // admitLaunch, below); it lasts a minute, as ltijs's did.
    res.cookie(`state${state}`, iss, { ...stateCookie, maxAge: 60_000 });
    if (!storage) return res.redirect(url);
    // This page runs in the LMS's iframe: the platform the login names may frame it.
    const framers = await claimedPlatformFrameOrigins(db, { issuer: iss, clientId: platform.clientId });
    if (res.headersSent) return;
    allowFramingBy(res, framers);
    res.send(
      render(
        'platform-storage',
        {
          mode: 'put',
          target: storage.target,
          origin: storage.origin,
          key: storageKey(state),
          value: state,
          next: url,
        },
        wordsOf(res),
      ),
    );
  });

  // ltijs would take an id_token posted to any of its paths, as a form or as JSON, and validate it there past these
  // checks. Launches come as a form post (OIDC form_post response mode) to
  // the launch address (the redirect URI registered with the LMS), and nowhere else.
  const parsers = {
    form: express.urlencoded({ extended: false, limit: MAX_LAUNCH_BODY }),
    json: express.json({ limit: MAX_LAUNCH_BODY }),
  };
  router.post(/.*/, (req, res, next) => {
    if (req.path === LTI_ROUTES.login) return next();
    const kind = req.is('application/x-www-form-urlencoded') ? 'form' : req.is('application/json') ? 'json' : null;
    if (!kind) return next();
    parsers[kind](req, res, (error?: unknown) => {
      if (error) return next(error);
      // Parsed already: tell ltijs's body-parser (express 4) not to read the consumed stream again.
      (req as Request & { _body?: boolean })._body = true;
      const carriesToken = typeof req.body === 'object' && req.body !== null && 'id_token' in req.body;
      if (carriesToken && (req.path !== LTI_ROUTES.launch || kind !== 'form')) {
        logger.warn({ path: req.path, reason: 'id_token posted outside the launch form' }, 'LTI launch refused');
        return refuse(res, 400, 'launch.notFromForm');
      }
      next();
    });
  });

  return router;
}

/** Why the registrations refuse a launch: its status, what the person reads, and a reason for the log. */
interface RegistrationRefusal {
  status: number;
  sentence: PlainKey | ((words: Words) => string);
  reason: string;
  /**
   * The LMS's keys host did not answer in time: asking again would spend a second deadline of the id_token's short
   * life (10 s) on the same host, so the refusal stands even when the registrations moved meanwhile.
   */
  keysUnreachable?: true;
}

/** What the person reads when the key lookup (lti/token-key.ts) refuses a launch. */
const KEY_REFUSALS: Record<Exclude<TokenKeyRefusal['kind'], 'keys unavailable'>, RegistrationRefusal> = {
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

/**
 * The deployment a launch names, registered and switched on, and its platform's key for the token's key id (the one
 * key lookup, lti/token-key.ts), for the one verifier; or why there is none.
 */
async function platformFor(
  db: Tool['db'],
  names: { issuer: string; clientId: string; deploymentId: string },
  idToken: string,
): Promise<{ deployment: { platformId: string; first: boolean }; key: Jwk } | { refusal: RegistrationRefusal }> {
  const kid = keyId.safeParse(peekPart(idToken, 0));
  const found = await tokenKey(db, names, kid.success ? kid.data.kid : undefined, { firstDeployment: 'take' });
  if (!('refused' in found))
    return { deployment: { platformId: found.platformId, first: found.firstDeployment }, key: found.key };
  const { refused } = found;
  if (refused.kind !== 'keys unavailable') return { refusal: KEY_REFUSALS[refused.kind] };
  const { host } = refused;
  return {
    refusal: {
      status: 503,
      sentence: ({ t }) => t('launch.keysUnreachable', { host }),
      reason: refused.detail,
      keysUnreachable: true,
    },
  };
}

/** A launch the guard's checks let through: what they found, for the one verifier, and the token itself. */
export interface AdmittedLaunch {
  passage: LaunchPassage;
  idToken: string;
}

/**
 * The launch's checks before anything of its token is trusted (this file's head says which), made by the launch
 * route (launch-route.ts), again when the registrations changed while it ran. Null: the launch was refused, or the
 * platform-storage page was sent first; either way it is answered.
 */
export async function admitLaunch(tool: Tool, req: Request, res: Response): Promise<AdmittedLaunch | null> {
  const { db, logger } = tool;
  // The tool's own address: the platform-storage page posts the launch on from this origin.
  const toolOrigin = new URL(tool.settings.publicUrl).origin;
  const body = launchBody.safeParse(req.body);
  if (!body.success) {
    logger.warn({ reason: 'malformed launch body' }, 'LTI launch refused');
    return refuse(res, 400, 'launch.bodyIncomplete');
  }
  const claims = launchClaims(body.data.id_token);
  if (!claims) {
    logger.warn({ reason: 'id_token unreadable or missing claims' }, 'LTI launch refused');
    return refuse(res, 401, 'launch.unreadable');
  }
  const { issuer: iss, clientId, deploymentId } = claims;
  // A refusal from here on is one sentence that the platform the token names may frame (framing.ts), so that its
  // iframe shows the sentence. Nothing on it acts for anyone, so an unverified claim widens nothing that matters.
  namePlatform(res, { issuer: iss, clientId });
  // The launch counts against the share of the launch places of the platform it names (admission.ts): one whose keys
  // host hangs, or a flood of tokens naming it, leaves the other schools' launches their places.
  if (!claimShare(res, `${iss} ${clientId}`)) return null;
  const framers = () => claimedPlatformFrameOrigins(db, { issuer: iss, clientId });
  // Platform storage (login CSRF, LTI pm-s): a state kept in the LMS's window is asked back by the tool's own page
  // in this browser before the launch goes on; only that page's same-origin post carries the launch further.
  const issued = readState(tool.encryptionKey, body.data.state);
  const storage = issued?.storage;
  if (storage && !body.data.lti_storage_checked) {
    // This page runs in the LMS's iframe, before anything is verified: the platform the token names may frame it.
    allowFramingBy(res, await framers());
    res.send(
      render(
        'platform-storage',
        {
          mode: 'get',
          target: storage.target,
          origin: storage.origin,
          key: storageKey(body.data.state),
          value: body.data.state,
          launch: {
            action: `${LTI_MOUNT_PATH}${LTI_ROUTES.launch}`,
            idToken: body.data.id_token,
            state: body.data.state,
          },
        },
        wordsOf(res),
      ),
    );
    return null;
  }
  // The tool's pages send no Referer, so browsers send `Origin: null` on their posts; Sec-Fetch-Site says
  // same-origin all the same. Without it (older browsers), the Origin must be the tool's own.
  const fetchSite = req.headers['sec-fetch-site'];
  const fromToolPage = fetchSite !== undefined ? fetchSite === 'same-origin' : req.headers.origin === toolOrigin;
  if (storage && !fromToolPage) {
    logger.warn({ reason: 'platform-storage launch posted from another site' }, 'LTI launch refused');
    return refuse(res, 403, 'launch.otherBrowser');
  }
  if (!issued) {
    logger.warn({ reason: 'unknown, expired or reused state' }, 'LTI launch refused');
    return refuse(res, 401, 'launch.stateUsed');
  }
  if (!issued.isFor(iss)) {
    logger.warn({ reason: 'issuer differs from the login' }, 'LTI launch refused');
    return refuse(res, 401, 'launch.issuerDiffers');
  }
  // What is read of the registrations is good for the version held; the launch's write holds to it (lti/launch.ts),
  // so a launch let in on what was kept is checked against a change all the same. A refusal made on what was kept is
  // checked once against the registrations as they are now: a platform switched on a moment ago launches at once.
  const cache = registrationCache(db);
  let registrations = await cache.current();
  let found = await platformFor(db, { issuer: iss, clientId, deploymentId }, body.data.id_token);
  if ('refusal' in found && !found.refusal.keysUnreachable && (await cache.moved())) {
    registrations = await cache.current();
    found = await platformFor(db, { issuer: iss, clientId, deploymentId }, body.data.id_token);
  }
  if ('refusal' in found) {
    logger.warn({ issuer: iss, clientId, deploymentId, reason: found.refusal.reason }, 'LTI launch refused');
    return refuse(res, found.refusal.status, found.refusal.sentence);
  }
  const { deployment, key } = found;
  const cookieName = `state${body.data.state}`;
  const cookieHeader = req.headers.cookie ?? '';
  const stateCookies = cookieHeader
    .split(/;\s*/)
    .filter((pair) => pair.startsWith('state'))
    .map((pair) => pair.split('=')[0]);
  // Login CSRF: a browser that keeps the tool's state cookies but not this state's did not start this launch
  // (someone else's login, posted here). A browser with none gets the signed state's word (iframes drop them).
  if (stateCookies.length > 0 && !stateCookies.includes(cookieName)) {
    // A state that carried a launch already is told as such, whichever browser brings it back.
    if (await wasUsed(db, body.data.state)) {
      logger.warn({ reason: 'reused state' }, 'LTI launch refused');
      return refuse(res, 401, 'launch.stateUsed');
    }
    logger.warn({ reason: 'state cookie of another login' }, 'LTI launch refused');
    return refuse(res, 401, 'launch.otherBrowser');
  }
  return {
    idToken: body.data.id_token,
    passage: {
      issuer: iss,
      clientId,
      deploymentId,
      platformId: deployment.platformId,
      firstDeployment: deployment.first,
      key,
      state: issued,
      // Null when the registrations moved while the checks read them: the launch's write then refuses, and the
      // checks run again.
      registrations: cache.version === registrations ? registrations : null,
    },
  };
}
