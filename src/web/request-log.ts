// The request log: one line per request (method, path as logs may show it, status, time), at debug level.
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../observe/logger.js';
import { CALLBACK_PREFIX } from './admission.js';
import { comparablePath } from './routing.js';

/** A request's path as logs may show it: without its query (an ltik rides there) or the callback's secret. */
export function loggablePath(req: Request): string {
  const path = req.originalUrl.split('?')[0]!;
  const secretAt = comparablePath(path).startsWith(CALLBACK_PREFIX) ? CALLBACK_PREFIX.length : -1;
  return secretAt < 0 ? path : `${path.slice(0, secretAt)}[redacted]`;
}

/** One line per request: method, path (as logs may show it), status, time. */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.debug(
        { method: req.method, path: loggablePath(req), status: res.statusCode, ms: Math.round(ms) },
        'request',
      );
    });
    next();
  };
}
