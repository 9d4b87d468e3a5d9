// Headers on every answer. Pages load scripts and styles from /static only (no inline script), never send the
// ltik onward in a Referer, and are framed only by LMS platforms.
import type { RequestHandler } from 'express';

export function securityHeaders(): RequestHandler {
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ');
  return (_req, res, next) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
}
