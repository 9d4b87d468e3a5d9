// Headers on every answer. Pages load scripts and styles from /static only (no inline script), never send the
// ltik onward in a Referer, and by default are framed only by the tool itself. An answer given in a session widens
// frame-ancestors to that session's own platform (`allowFramingBy`); nothing else does, so registering a platform
// never lets it frame the admin pages or another platform's sessions.
import type { RequestHandler, Response } from 'express';

function policy(frameAncestors: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

export function securityHeaders(): RequestHandler {
  const header = policy("'self'");
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', header);
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
}

/** Lets this answer be framed by `origins` too: the platform of the session (or the LMS registering) it answers. */
export function allowFramingBy(res: Response, origins: readonly string[]): void {
  const current = res.getHeader('Content-Security-Policy');
  if (typeof current !== 'string') return;
  res.setHeader(
    'Content-Security-Policy',
    current.replace(/frame-ancestors ([^;]*)/, (_directive, sources: string) => {
      // Compared as whole sources: http://host:3791 is not already allowed because http://host:37913 is.
      const listed = sources.split(' ').filter(Boolean);
      return `frame-ancestors ${[...new Set([...listed, ...origins])].join(' ')}`;
    }),
  );
}

/**
 * Lets anyone frame this answer. Only for a page that shows one sentence and holds nothing to click on behalf of
 * anyone (a registration that failed before the LMS could be told apart from any other site).
 */
export function allowFramingByAnyone(res: Response): void {
  const current = res.getHeader('Content-Security-Policy');
  if (typeof current !== 'string') return;
  res.setHeader('Content-Security-Policy', current.replace(/frame-ancestors ([^;]*)/, 'frame-ancestors *'));
}
