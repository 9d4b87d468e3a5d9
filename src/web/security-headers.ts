// Headers on every answer. Pages load scripts and styles from /static only (no inline script), never send the
// ltik onward in a Referer, and are framed only by the tool itself and the LMS platforms registered with it.
import type { RequestHandler, Response } from 'express';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { webOrigin } from '../lti/launch.js';

/** How long the list of platform origins is reused before it is read again (a new registration waits this long). */
const ORIGINS_TTL_MS = 5_000;

/** Multi-tenant LMS clouds: the issuer is the vendor's, the pages are on each school's host under its domain. */
const CLOUD_HOSTS: Record<string, string> = {
  'https://canvas.instructure.com': 'https://*.instructure.com',
  'https://canvas.beta.instructure.com': 'https://*.instructure.com',
  'https://canvas.test.instructure.com': 'https://*.instructure.com',
};

/**
 * The origins that may frame the tool: those of the active registrations' issuer, login and token addresses, the
 * hosts their launches came back to (launch_presentation.return_url, learnt at launch), and for Canvas Cloud its
 * schools' hosts.
 */
export async function platformOrigins(db: Kysely<DatabaseSchema>): Promise<string[]> {
  const [rows, learnt] = await Promise.all([
    db.selectFrom('platform').select(['issuer', 'auth_url', 'token_url']).where('active', '=', true).execute(),
    db.selectFrom('platform_frame_origin').innerJoin('platform', 'platform.id', 'platform_frame_origin.platform_id').select('origin').where('platform.active', '=', true).execute(),
  ]);
  const origins = new Set<string>(learnt.map((row) => row.origin));
  for (const row of rows) {
    const cloud = CLOUD_HOSTS[row.issuer.replace(/\/+$/, '')];
    if (cloud) origins.add(cloud);
    for (const value of [row.issuer, row.auth_url, row.token_url]) {
      const origin = webOrigin(value);
      if (origin) origins.add(origin);
    }
  }
  return [...origins].sort();
}

function policy(frameAncestors: string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    `frame-ancestors ${["'self'", ...frameAncestors].join(' ')}`,
  ].join('; ');
}

/** Bumped when a launch shows a new host in this process: the next answer waits for the list to be read again. */
let originsGeneration = 0;
export function frameOriginsChanged(): void {
  originsGeneration += 1;
}

/**
 * `frameAncestors` lists the origins allowed to frame the pages. It is asked again every few seconds in the
 * background (answers wait for it only at first and after `frameOriginsChanged`); when it fails, the last list stays, or at
 * first the tool alone may frame its pages.
 */
export function securityHeaders(frameAncestors: () => Promise<string[]> = async () => []): RequestHandler {
  let header: string | null = null;
  let readAt = 0;
  let seenGeneration = -1;
  let reading: Promise<void> | null = null;
  const read = (): Promise<void> =>
    (reading ??= frameAncestors()
      .then((origins) => void (header = policy(origins)), () => void (header ??= policy([])))
      .finally(() => {
        readAt = Date.now();
        reading = null;
      }));
  return (_req, res, next) => {
    const mustWait = seenGeneration !== originsGeneration;
    const pending = mustWait || Date.now() - readAt > ORIGINS_TTL_MS ? read() : null;
    const send = () => {
      res.setHeader('Content-Security-Policy', header ?? policy([]));
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      next();
    };
    if (pending && mustWait) {
      seenGeneration = originsGeneration;
      void pending.then(send);
    } else send();
  };
}

/** Lets this answer be framed by `origin` too (the launch that just showed it), whatever the cached list says. */
export function allowFramingBy(res: Response, origin: string): void {
  const current = res.getHeader('Content-Security-Policy');
  if (typeof current !== 'string' || current.includes(` ${origin}`)) return;
  res.setHeader('Content-Security-Policy', current.replace(/frame-ancestors ([^;]*)/, (directive) => `${directive} ${origin}`));
}
