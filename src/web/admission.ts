// Admission: how much work one process takes on at once. Each route class has its own limit of requests in
// flight; one past it is answered at once with 503, Retry-After and a sentence in the format the client reads,
// instead of joining a queue whose wait would push every request's latency (and a launch past the 10 s its id_token
// is accepted for) past use. Health checks, static files, the JWKS and the dev platform are never limited.
import type { Request, RequestHandler } from 'express';
import { NOTICE_HANDLER_PATH } from '../assetprocessor/attach.js';
import { LTI_MOUNT_PATH, LTI_ROUTES } from '../lti/provider.js';
import type { Logger } from '../logger.js';
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
  // One warning per burst, not one per refused request: a burst is thousands of them.
  let lastWarning = 0;
  const middleware: RequestHandler = (req, res, next) => {
    const routeClass = routeClassOf(req);
    if (routeClass === null) return next();
    if (inFlight[routeClass] >= limits[routeClass]) {
      refused[routeClass] += 1;
      if (Date.now() - lastWarning > 10_000) {
        lastWarning = Date.now();
        logger.warn(
          { routeClass, limit: limits[routeClass], refused: refused[routeClass] },
          'Busy: requests past the concurrency limit are answered 503',
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
      return;
    }
    inFlight[routeClass] += 1;
    let released = false;
    // 'close' comes once the answer is sent or the client is gone, whichever is first.
    res.once('close', () => {
      if (released) return;
      released = true;
      inFlight[routeClass] -= 1;
    });
    next();
  };
  return { middleware, inFlight: () => ({ ...inFlight }), refused: () => ({ ...refused }) };
}
