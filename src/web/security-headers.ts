// Headers on every answer. Pages load scripts and styles from /static only (no inline script), never send the
// ltik onward in a Referer, and start framed only by the tool itself: framing.ts widens frame-ancestors for the
// answers an LMS may show (a session's pages to its own platform, one-sentence pages to registered platforms).
import type { RequestHandler } from 'express';

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
