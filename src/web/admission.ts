// Admission: how much work one process takes on at once. Each route class has its own limit of requests in
// flight; one past it is answered at once with 503, Retry-After and a sentence in the format the client reads,
// instead of joining a queue whose wait would push every request's latency (and a launch past the 10 s its id_token
// is accepted for) past use. Health checks, static files, the JWKS and the dev platform are never limited.
// Within a class, one owner (a platform the launch or notice names, a platform's or a person's uploads) holds at most
// its share of the places, claimed by the route once it knows who asks (claimShare): a school whose LMS's keys host
// hangs, or whose traffic surges, leaves the other schools' places free.
import type { Request, RequestHandler, Response } from 'express';
import { NOTICE_HANDLER_PATH } from '../assetprocessor/attach.js';
import { LTI_MOUNT_PATH, LTI_ROUTES } from '../lti/provider.js';
import type { Logger } from '../observe/logger.js';
import { comparablePath } from './routing.js';
import { sendMessage, wantsJson, wordsOf } from './views.js';

export type RouteClass = 'launch' | 'upload' | 'callback' | 'pages' | 'notices';

export type AdmissionLimits = Record<RouteClass, number>;

/** Long enough for the requests in flight to finish, short enough that a person does not give up. */
export const RETRY_AFTER_SECONDS = 2;

const LAUNCH_PATHS = new Set([`${LTI_MOUNT_PATH}${LTI_ROUTES.login}`, `${LTI_MOUNT_PATH}${LTI_ROUTES.launch}`]);
const PAGE_ROOTS = [
  '/assignments',
  '/reports',
  '/admin',
  '/deep-linking',
  '/asset-processor/eula',
  '/asset-processor/attach',
];
const UPLOAD_PATH = /^\/assignments\/[^/]+\/submissions\/?$/;
/** The checking service's callback; the rest of its path is the secret (the request log redacts it). */
export const CALLBACK_PREFIX = '/checker/callback/';

/** The class a request counts against, or null for those never limited. Letter case does not change it (routing.ts). */
export function routeClassOf(req: Request): RouteClass | null {
  const path = comparablePath(req.path);
  if (LAUNCH_PATHS.has(path.replace(/\/$/, ''))) return 'launch';
  if (path.startsWith(CALLBACK_PREFIX)) return 'callback';
  // An LMS's notices have a class of their own: an LMS does not send a refused notice again (config.ts sizes it).
  if (req.method === 'POST' && path.replace(/\/$/, '') === NOTICE_HANDLER_PATH) return 'notices';
  if (req.method === 'POST' && UPLOAD_PATH.test(path)) return 'upload';
  if (PAGE_ROOTS.some((root) => path === root || path.startsWith(`${root}/`))) return 'pages';
  return null;
}

/** The checking service's callback and an LMS's notices are answered in English, a machine's; people's in their language. */
const MACHINE_BUSY = {
  callback: 'Busy: send the callback again later.',
  notices: 'Busy: send the notices again later.',
} as const;
const BUSY = { launch: 'busy.launch', upload: 'busy.upload', pages: 'busy.pages' } as const;

/** Of a class's places, the most one owner may hold: half, and at least two (a small installation's few places). */
export function shareOf(limit: number): number {
  return Math.max(2, Math.ceil(limit / 2));
}

/** Counts the request against `owner`'s share of its class; false: it was answered 503 (see claimShare). */
type ShareClaim = (owner: string, most?: number) => boolean;

const CLAIM_SHARE = Symbol('claimShare');

/**
 * Counts the request against `owner`'s share of the places of its class (at most `most`, else shareOf the class's
 * limit), until it is answered. False: the owner holds its share already, and the request was answered 503 as a
 * request past the class's limit is; the route stops there. A second claim for the same owner counts once; a request
 * of no limited class claims nothing.
 */
export function claimShare(res: Response, owner: string, most?: number): boolean {
  const claim = (res.locals as { [CLAIM_SHARE]?: ShareClaim })[CLAIM_SHARE];
  return claim ? claim(owner, most) : true;
}

export interface Admission {
  middleware: RequestHandler;
  /** Requests of each class being worked on now. */
  inFlight(): AdmissionLimits;
  /** Requests of each class answered 503 since start. */
  refused(): AdmissionLimits;
}

export function admission(limits: AdmissionLimits, logger: Logger): Admission {
  const inFlight: AdmissionLimits = { launch: 0, upload: 0, callback: 0, pages: 0, notices: 0 };
  const refused: AdmissionLimits = { launch: 0, upload: 0, callback: 0, pages: 0, notices: 0 };
  /** Each owner's requests in flight, per class; an owner with none is forgotten, so the maps stay small. */
  const held: Record<RouteClass, Map<string, number>> = {
    launch: new Map(),
    upload: new Map(),
    callback: new Map(),
    pages: new Map(),
    notices: new Map(),
  };
  // One warning per burst, not one per refused request: a burst is thousands of them.
  let lastWarning = 0;
  const busy = (req: Request, res: Response, routeClass: RouteClass, limit: number, owner?: string) => {
    refused[routeClass] += 1;
    if (Date.now() - lastWarning > 10_000) {
      lastWarning = Date.now();
      logger.warn(
        { routeClass, limit, refused: refused[routeClass], ...(owner ? { share: true } : {}) },
        owner
          ? "Busy: requests past one platform's or person's share of the places are answered 503"
          : 'Busy: requests past the concurrency limit are answered 503',
      );
    }
    // A refused upload's body is read and dropped, so that the client gets the answer rather than a reset.
    req.resume();
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    res.setHeader('Cache-Control', 'no-store');
    // The checking service is an API client whatever it sends in Accept.
    const { t } = wordsOf(res);
    const machine = routeClass === 'callback' || routeClass === 'notices';
    const sentence = machine ? MACHINE_BUSY[routeClass] : t(BUSY[routeClass]);
    if (machine || wantsJson(req)) {
      res.status(503).json({ error: sentence, retryAfterSeconds: RETRY_AFTER_SECONDS });
    } else {
      sendMessage(res, 503, t('busy.title'), sentence);
    }
  };
  const middleware: RequestHandler = (req, res, next) => {
    const routeClass = routeClassOf(req);
    if (routeClass === null) return next();
    if (inFlight[routeClass] >= limits[routeClass]) return busy(req, res, routeClass, limits[routeClass]);
    inFlight[routeClass] += 1;
    let released = false;
    const owned = new Set<string>();
    const owners = held[routeClass];
    const release = () => {
      if (released) return;
      released = true;
      inFlight[routeClass] -= 1;
      for (const owner of owned) {
        const left = (owners.get(owner) ?? 1) - 1;
        if (left > 0) owners.set(owner, left);
        else owners.delete(owner);
      }
    };
    // 'close' comes once the answer is sent or the client is gone, whichever is first.
    res.once('close', release);
    const claim: ShareClaim = (owner, most = shareOf(limits[routeClass])) => {
      if (owned.has(owner) || released) return true;
      const holding = owners.get(owner) ?? 0;
      if (holding >= most) {
        // Refused by its owner's share, it gives its place back at once: a flood of such refusals, each still being
        // answered, must not fill the places the others share.
        release();
        busy(req, res, routeClass, most, owner);
        return false;
      }
      owners.set(owner, holding + 1);
      owned.add(owner);
      return true;
    };
    (res.locals as { [CLAIM_SHARE]?: ShareClaim })[CLAIM_SHARE] = claim;
    next();
  };
  return { middleware, inFlight: () => ({ ...inFlight }), refused: () => ({ ...refused }) };
}
