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
  'client_assertion',
  'encryptionKey',
  'authorization',
  'cookie',
  'set-cookie',
  'databaseUrl',
];

const redactPaths = REDACTED_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);

export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      redact: { paths: redactPaths, censor: '[redacted]' },
      base: { pid: process.pid },
      serializers: { err: pino.stdSerializers.err },
    },
    options.destination,
  );
}
