// Checks in front of ltijs. At login: remember the state ltijs issues. At launch: refuse, before ltijs stores
// anything, a launch whose state the tool did not issue (or already used), or whose issuer, client or
// deployment is not registered; then vouch for the state when the browser did not bring its cookie back.
import { createHmac } from 'node:crypto';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { claimedPlatformFrameOrigins } from '../lti/frame-origins.js';
import { consumeState, recordState } from '../lti/oidc-state.js';
import { LTI_ROUTES } from '../lti/provider.js';
import { findDeployment } from '../lti/registrations.js';
import type { Logger } from '../logger.js';
import { allowFramingBy } from './security-headers.js';
import { sendMessage } from './views.js';

/** An id_token is a few kilobytes; 64 KB leaves room for large custom claims and refuses the absurd. */
const MAX_LAUNCH_BODY = '64kb';

/**
 * ltijs (on express 4) never answers a request whose storage call fails inside its own error handling (the
 * database restarting, say); past this long the person gets a sentence instead of a page that loads forever.
 */
const LTIJS_ANSWER_DEADLINE_MS = 30_000;

const launchBody = z.object({
  id_token: z.string().min(1).max(60_000),
  state: z.string().min(1).max(200),
});

const idTokenClaims = z.object({
  iss: z.string().min(1),
  aud: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  azp: z.string().optional(),
  'https://purl.imsglobal.org/spec/lti/claim/deployment_id': z.string().min(1),
});

/** Reads a JWT's payload without verifying it: only to decide whether to refuse early, never to trust. */
function peekPayload(jwt: string): unknown {
  const part = jwt.split('.')[1];
  if (!part) return null;
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

/** cookie-parser's signed form ("s:" + value + "." + HMAC-SHA256), so ltijs reads it as its own cookie. */
function signedCookie(value: string, secret: string): string {
  const mac = createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, '');
  return `s:${value}.${mac}`;
}

function refuse(res: Response, status: number, message: string): void {
  sendMessage(res, status, 'Could not open the assignment', message);
}

export interface GuardOptions {
  db: Kysely<DatabaseSchema>;
  encryptionKey: string;
  logger: Logger;
}

export function ltiGuard(options: GuardOptions): Router {
  const { db, logger } = options;
  const router = Router();

  router.use((req, res, next) => {
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      logger.error({ path: req.path }, 'The LTI library did not answer in time');
      refuse(res, 503, 'The tool could not open the assignment just now. Please open it again from your course in a moment.');
    }, LTIJS_ANSWER_DEADLINE_MS);
    res.on('close', () => clearTimeout(timer));
    next();
  });

  router.all(LTI_ROUTES.login, (_req: Request, res: Response, next: NextFunction) => {
    // ltijs names its state cookie "state<state>" and redirects right after; hold the redirect until stored.
    let stored: Promise<void> = Promise.resolve();
    const setCookie = res.cookie.bind(res);
    res.cookie = ((name: string, value: unknown, cookieOptions?: express.CookieOptions) => {
      if (name.startsWith('state') && typeof value === 'string') {
        stored = recordState(db, name.slice('state'.length), value);
      }
      return cookieOptions ? setCookie(name, value, cookieOptions) : setCookie(name, value);
    }) as Response['cookie'];
    const redirect = res.redirect.bind(res) as (url: string) => void;
    res.redirect = ((url: string) => {
      // After the answer deadline the guard above has answered already: nothing more is sent.
      stored
        .then(
          () => {
            if (!res.headersSent) redirect(url);
          },
          (error: unknown) => {
            logger.error({ err: error }, 'Could not store the OIDC state');
            if (!res.headersSent) refuse(res, 503, 'The tool could not start the sign-in just now. Please try again in a moment.');
          },
        )
        .catch((error: unknown) => logger.error({ err: error }, 'Could not answer the sign-in'));
    }) as Response['redirect'];
    next();
  });

  router.post(LTI_ROUTES.launch, express.urlencoded({ extended: false, limit: MAX_LAUNCH_BODY }), async (req, res, next) => {
    // Requests that carry an ltik instead of an id_token are ltijs's to judge.
    if (req.body?.id_token === undefined) return next();
    const body = launchBody.safeParse(req.body);
    if (!body.success) {
      logger.warn({ reason: 'malformed launch body' }, 'LTI launch refused');
      return refuse(res, 400, 'The launch from your LMS was incomplete. Open the assignment again from your course.');
    }
    const claims = idTokenClaims.safeParse(peekPayload(body.data.id_token));
    if (!claims.success) {
      logger.warn({ reason: 'id_token unreadable or missing claims' }, 'LTI launch refused');
      return refuse(res, 401, 'The launch from your LMS could not be read. Open the assignment again from your course.');
    }
    const { iss, aud, azp } = claims.data;
    const clientId = Array.isArray(aud) ? (azp ?? aud[0]!) : aud;
    const deploymentId = claims.data['https://purl.imsglobal.org/spec/lti/claim/deployment_id'];
    // A refusal below is one sentence: the active platform the token names may frame it, so that its iframe shows
    // the sentence. Nothing on it acts for anyone, so an unverified claim widens nothing that matters.
    const refuseFramed = async (status: number, message: string) => {
      allowFramingBy(res, await claimedPlatformFrameOrigins(db, { issuer: iss, clientId }));
      refuse(res, status, message);
    };
    const issuer = await consumeState(db, body.data.state);
    if (issuer === null) {
      logger.warn({ reason: 'unknown, expired or reused state' }, 'LTI launch refused');
      return refuseFramed(401, 'This launch has expired or was already used. Open the assignment again from your course.');
    }
    if (issuer !== iss) {
      logger.warn({ reason: 'issuer differs from the login' }, 'LTI launch refused');
      return refuseFramed(401, 'The launch from your LMS could not be verified. Open the assignment again from your course.');
    }
    const deployment = await findDeployment(db, { issuer: iss, clientId, deploymentId });
    if (!deployment) {
      logger.warn({ issuer: iss, clientId, deploymentId, reason: 'unregistered issuer, client or deployment' }, 'LTI launch refused');
      return refuse(res, 403, 'This LMS (or this deployment of the tool in it) is not registered with the tool. Ask your LMS administrator to register it.');
    }
    if (!deployment.active) {
      return refuse(res, 403, 'The tool is switched off for this LMS. Ask your LMS administrator.');
    }
    const cookieName = `state${body.data.state}`;
    const cookieHeader = req.headers.cookie ?? '';
    if (!cookieHeader.split(/;\s*/).some((pair) => pair.startsWith(`${cookieName}=`))) {
      const cookie = `${cookieName}=${encodeURIComponent(signedCookie(iss, options.encryptionKey))}`;
      req.headers.cookie = cookieHeader ? `${cookieHeader}; ${cookie}` : cookie;
    }
    // Parsed already: tell ltijs's body-parser (express 4) not to read the consumed stream again.
    (req as Request & { _body?: boolean })._body = true;
    next();
  });

  return router;
}
