// The service's error body (spec section 7): status, description, timestamp, message, debugMessage, subErrors, path.
import type { Response } from 'express';

const DESCRIPTIONS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** `NN-NN-YYYY HH:mm:ss`, the service's envelope time shape. */
export function envelopeTime(date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(date.getDate())}-${p(date.getMonth() + 1)}-${date.getFullYear()} ${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

/** `YYYY-MM-DD HH:mm:ss`, the service's record time shape. */
export function recordTime(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function sendError(res: Response, status: number, message: string): void {
  if (res.headersSent) return;
  res.status(status).json({
    status,
    description: DESCRIPTIONS[status] ?? 'ERROR',
    timestamp: envelopeTime(),
    message,
    debugMessage: message,
    subErrors: null,
    path: res.req.originalUrl.split('?')[0],
  });
}
