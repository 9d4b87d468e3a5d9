// Checks in front of the LTI routes: a path in other letters is none of the tool's, a request not answered in time
// gets a sentence, an id_token is taken only as the launch form's; and the login (lti/login.ts startLogin), whose
// signed state the browser keeps in a cookie and, where the LMS offers platform storage, in the LMS's window. The
// launch itself is lti/launch-flow.ts's, rendered by launch-route.ts. Every refusal here is one sentence, in the
// language of the browser (nothing of the launch is trusted yet), which the platform it names may frame.
import express, { type Router, type Request, type Response } from 'express';
import { claimedPlatformFrameOrigins } from '../lti/frame-origins.js';
import type { LaunchRefusal } from '../lti/launch-flow.js';
import { startLogin } from '../lti/login.js';
import { storageKey } from '../lti/launch-flow.js';
import { LTI_ROUTES } from '../lti/provider.js';
import { claimShare } from './admission.js';
import { allowFramingBy, namePlatform, refusedLaunch } from './framing.js';
import type { Logger } from '../observe/logger.js';
import { render, sendMessage, wordsOf } from './views.js';
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

/** A login initiation is a handful of short parameters. */
const MAX_LOGIN_BODY = '16kb';

/**
 * A refused login or launch, logged with its reason and answered with its sentence, in the language of the verified
 * launch where it got so far, else the browser's; the platform it names may frame the page (framing.ts).
 */
export function sendRefusal(logger: Logger, res: Response, refusal: LaunchRefusal): void {
  logger.warn({ ...refusal.log, reason: refusal.reason }, 'LTI launch refused');
  if (refusal.platform) namePlatform(res, refusal.platform);
  refusedLaunch(res);
  const words = wordsOf(res, refusal.locale ?? undefined);
  sendMessage(res, refusal.status, words.t(refusal.title ?? 'launch.couldNotOpen'), words.say(refusal.sentence));
}

/** A refusal the guard makes itself, before any launch is read. */
const guardRefusal = (status: number, key: 'launch.notNow' | 'launch.notFromForm', reason: string): LaunchRefusal => ({
  outcome: 'refused',
  status,
  sentence: { key },
  reason,
  platform: null,
});

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
      sendRefusal(logger, res, guardRefusal(503, 'launch.notNow', 'not answered in time'));
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
    // The login counts against the share of the launch places of the platform it names, as its launch does.
    if (typeof fields.iss === 'string' && !claimShare(res, `${fields.iss} ${String(fields.client_id)}`)) return;
    const login = await startLogin(tool, fields);
    if (login.outcome === 'refused') return sendRefusal(logger, res, login);
    // Past the answer deadline above, the person was told already: nothing more is sent.
    if (res.headersSent) return;
    // The state cookie ties the launch to this browser where the browser keeps it (the login CSRF check of the
    // launch, lti/launch-flow.ts); it lasts a minute.
    res.cookie(`state${login.state}`, login.issuer, { ...stateCookie, maxAge: 60_000 });
    if (!login.storage) return res.redirect(login.url);
    // This page runs in the LMS's iframe: the platform the login names may frame it.
    const framers = await claimedPlatformFrameOrigins(db, { issuer: login.issuer, clientId: login.clientId });
    if (res.headersSent) return;
    allowFramingBy(res, framers);
    res.send(
      render(
        'platform-storage',
        {
          mode: 'put',
          target: login.storage.target,
          origin: login.storage.origin,
          key: storageKey(login.state),
          value: login.state,
          next: login.url,
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
        return sendRefusal(
          logger,
          res,
          guardRefusal(400, 'launch.notFromForm', 'id_token posted outside the launch form'),
        );
      }
      next();
    });
  });

  return router;
}
