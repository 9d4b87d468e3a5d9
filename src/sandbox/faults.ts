// The fault switches, applied before anything else is looked at, as a proxy or gateway in front of the real
// service would: slow answers, a total outage (503), a share of requests rate-limited (429 with Retry-After), and
// uploads refused with a message of the test's choosing (422).
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestHandler } from 'express';
import type { SandboxContext, SandboxFaults } from './context.js';
import { ApiError } from './errors.js';

export function faultSwitches(ctx: SandboxContext): RequestHandler {
  return async (req, _res, next) => {
    ctx.stats.requests += 1;
    const faults = ctx.faults.current;
    if (faults.slowMs && faults.slowMs > 0)
      await sleep(faults.slowMs, undefined, { signal: ctx.timers.signal }).catch(() => undefined);
    if (faults.uploadHoldMs && req.method === 'POST' && req.path.endsWith('/singleFile'))
      await sleep(faults.uploadHoldMs, undefined, { signal: ctx.timers.signal }).catch(() => undefined);
    if (faults.uploadRefusal !== undefined && req.method === 'POST' && req.path.endsWith('/singleFile'))
      throw new ApiError(422, faults.uploadRefusal);
    if (faults.outage) throw new ApiError(503, 'Service temporarily unavailable (maintenance).');
    if (faults.rateLimit && Math.random() < faults.rateLimit.ratio) {
      throw new ApiError(429, 'Too many requests: the API rate limit was exceeded.', {
        'Retry-After': String(faults.rateLimit.retryAfterSeconds ?? 1),
      });
    }
    next();
  };
}

/** Fault switches from outside (setFaults, the CLI) checked once, so a typo fails loudly rather than silently. */
export function checkFaults(faults: SandboxFaults): SandboxFaults {
  const ratio = faults.rateLimit?.ratio;
  if (ratio !== undefined && !(ratio >= 0 && ratio <= 1))
    throw new RangeError('faults.rateLimit.ratio must be from 0 to 1.');
  const retry = faults.rateLimit?.retryAfterSeconds;
  if (retry !== undefined && !(Number.isInteger(retry) && retry >= 0))
    throw new RangeError('faults.rateLimit.retryAfterSeconds must be a whole number of seconds, 0 or more.');
  for (const key of ['slowMs', 'callbackDelayMs', 'uploadAnswerDelayMs', 'uploadHoldMs'] as const) {
    const value = faults[key];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0))
      throw new RangeError(`faults.${key} must be 0 or more.`);
  }
  if (faults.uploadAnswerStatus !== undefined && ![500, 502, 503, 504].includes(faults.uploadAnswerStatus))
    throw new RangeError('faults.uploadAnswerStatus must be 500, 502, 503 or 504.');
  if (
    faults.uploadRefusal !== undefined &&
    !(
      typeof faults.uploadRefusal === 'string' &&
      faults.uploadRefusal.length > 0 &&
      faults.uploadRefusal.length <= 1000
    )
  )
    throw new RangeError('faults.uploadRefusal must be a message of 1 to 1000 characters.');
  if (faults.callbacks !== undefined && !['normal', 'duplicate', 'drop'].includes(faults.callbacks))
    throw new RangeError('faults.callbacks must be normal, duplicate or drop.');
  return { ...faults, ...(faults.rateLimit ? { rateLimit: { ...faults.rateLimit } } : {}) };
}
