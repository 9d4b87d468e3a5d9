// pino, with every field that could carry a secret redacted wherever it appears in a log object.
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

export const REDACTED_FIELDS = [
  'password',
  'token',
  'ltik',
  'accessToken',
  'access_token',
  'id_token',
  'idToken',
  'client_assertion',
  'clientAssertion',
  'secret',
  'callbackSecret',
  'adminToken',
  'metricsToken',
  'encryptionKey',
  'authorization',
  'Authorization',
  'cookie',
  'set-cookie',
  'databaseUrl',
];

const redactPaths = REDACTED_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.*.*.${field}`]);

/**
 * Fields by which an HTTP client's error carries the exchange it failed in (got's `options`, `request` and
 * `response` in ltijs; an undici or axios error's `headers`, `config` or `body`): the request's Authorization
 * header, a form with a client assertion, a token in a response body. The log keeps the error's message, code,
 * status and stack, and none of those.
 */
const EXCHANGE_FIELDS = ['options', 'request', 'response', 'headers', 'config', 'body', 'requestBody', 'responseBody'];

function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  const strip = (value: unknown, depth: number): void => {
    if (!value || typeof value !== 'object' || depth > 3) return;
    for (const field of EXCHANGE_FIELDS) delete (value as Record<string, unknown>)[field];
    strip((value as { cause?: unknown }).cause, depth + 1);
  };
  strip(serialized, 0);
  return serialized;
}

export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      redact: { paths: redactPaths, censor: '[redacted]' },
      base: { pid: process.pid },
      serializers: { err: serializeError },
    },
    options.destination,
  );
}
