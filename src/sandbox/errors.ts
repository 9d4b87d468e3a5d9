// Every refusal the sandbox gives, in the service's error body (spec section 7): status, description, timestamp,
// message, debugMessage, subErrors, path. Handlers throw ApiError; one handler at the end writes the body.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Clock } from './time.js';

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

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly subErrors: Array<{ field: string; message: string }> | null = null,
  ) {
    super(message);
  }
}

/** Express's own refusals (a JSON body that does not parse, a path that does not decode) carry a 4xx status. */
function fromExpress(error: unknown): ApiError | null {
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  if (type === 'entity.parse.failed') return new ApiError(400, 'Malformed JSON request body.');
  if (type === 'entity.too.large') return new ApiError(413, 'The request body is too large.');
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new ApiError(status === 413 ? 413 : 400, 'The request could not be read.');
  return null;
}

export function errorHandler(clock: Clock, log: (line: string) => void): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const known = error instanceof ApiError ? error : fromExpress(error);
    if (!known)
      log(`unexpected error on ${req.method} ${req.path}: ${error instanceof Error ? error.message : String(error)}`);
    const refusal = known ?? new ApiError(500, 'Unexpected error.');
    if (res.headersSent) return void res.destroy();
    res
      .status(refusal.status)
      .set(refusal.headers)
      .json({
        status: refusal.status,
        description: DESCRIPTIONS[refusal.status] ?? 'ERROR',
        timestamp: clock.envelope(),
        message: refusal.message,
        debugMessage: refusal.message,
        subErrors: refusal.subErrors,
        path: req.originalUrl.split('?')[0],
      });
  };
}

export const unknownRoute: RequestHandler = (req, _res, next) =>
  next(new ApiError(404, `No endpoint ${req.method} ${req.path}.`));
