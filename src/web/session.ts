// Express middleware that turns the ltik of a page request into res.locals.session, or answers 401.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { resolveSession, type Session } from '../lti/session.js';
import type { PostgresLtiStorage } from '../lti/storage.js';
import { allowFramingBy } from './security-headers.js';
import { sendMessage } from './views.js';

/** Where ltijs accepts an ltik too: the query, a form field, `Authorization: Bearer`, or its LTIK-AUTH-V1 scheme. */
export function ltikOf(req: Request): string | null {
  const fromQuery = typeof req.query.ltik === 'string' ? req.query.ltik : null;
  const fromBody = typeof (req.body as { ltik?: unknown } | undefined)?.ltik === 'string' ? (req.body as { ltik: string }).ltik : null;
  const header = req.headers.authorization ?? '';
  const fromHeader = header.startsWith('Bearer ') ? header.slice(7) : (header.match(/LTIK-AUTH-V1 Token=([^,\s]+)/)?.[1] ?? null);
  const ltik = fromHeader ?? fromBody ?? fromQuery;
  return ltik && ltik.length <= 4096 ? ltik : null;
}

export function sessionOf(res: Response): Session {
  const session = (res.locals as { session?: Session }).session;
  if (!session) throw new Error('requireSession must run before this handler');
  return session;
}

/** What every page route needs to know who is asking. */
export interface SessionDeps {
  db: Kysely<DatabaseSchema>;
  storage: PostgresLtiStorage;
  encryptionKey: string;
}

export function requireSession(deps: SessionDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const ltik = ltikOf(req);
    const result = ltik ? await resolveSession(deps, ltik) : 'invalid';
    if (result === 'invalid' || result === 'expired') {
      const message =
        result === 'expired'
          ? 'Your session with the tool has ended. Open the assignment again from your course.'
          : 'Open this page from the assignment in your course: it cannot be opened on its own.';
      sendMessage(res, 401, 'Please open the assignment from your course', message);
      return;
    }
    (res.locals as { session?: Session }).session = result;
    // The LMS host this session was launched from may frame the page, whatever this process's cached list of
    // hosts says yet (the first launch from a new host may have been served by another web process).
    if (result.launch.frameOrigin) allowFramingBy(res, result.launch.frameOrigin);
    next();
  };
}
