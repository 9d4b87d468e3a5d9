// Express middleware that turns the ltik of a page request into res.locals.session, or answers 401.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ltikPlatform } from '../lti/ltik.js';
import { resolveSession, type Session } from '../lti/session.js';
import { frameForSession, namePlatform } from './framing.js';
import { sendMessage, wordsOf } from './views.js';

/** Where ltijs accepts an ltik too: the query, a form field, `Authorization: Bearer`, or its LTIK-AUTH-V1 scheme. */
export function ltikOf(req: Request): string | null {
  const fromQuery = typeof req.query.ltik === 'string' ? req.query.ltik : null;
  const fromBody =
    typeof (req.body as { ltik?: unknown } | undefined)?.ltik === 'string' ? (req.body as { ltik: string }).ltik : null;
  const header = req.headers.authorization ?? '';
  const fromHeader = header.startsWith('Bearer ')
    ? header.slice(7)
    : (header.match(/LTIK-AUTH-V1 Token=([^,\s]+)/)?.[1] ?? null);
  const ltik = fromHeader ?? fromBody ?? fromQuery;
  return ltik && ltik.length <= 4096 ? ltik : null;
}

export function sessionOf(res: Response): Session {
  const session = (res.locals as { session?: Session }).session;
  if (!session) throw new Error('requireSession must run before this handler');
  return session;
}

/** What every page route needs to know who is asking: what resolving a session takes. */
export type SessionDeps = Parameters<typeof resolveSession>[0];

export function requireSession(deps: SessionDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const ltik = ltikOf(req);
    const result = ltik ? await resolveSession(deps, ltik) : 'invalid';
    if (result === 'invalid' || result === 'expired') {
      // The sentence shows in the frame of the LMS the key names (framing.ts).
      if (ltik) namePlatform(res, ltikPlatform(ltik));
      const { t } = wordsOf(res);
      sendMessage(
        res,
        401,
        t('session.openFromCourse'),
        t(result === 'expired' ? 'session.ended' : 'session.notOnItsOwn'),
      );
      return;
    }
    (res.locals as { session?: Session }).session = result;
    // The session's own platform may frame the page, with the host its launch came from (read from the launch
    // itself, so the first launch from a new host works whichever web process took it); no other platform may.
    await frameForSession(deps, res, result);
    next();
  };
}
