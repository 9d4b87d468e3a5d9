// pino, with every field that could carry a secret redacted wherever it appears in a log object (down to three
// levels below the record's own fields). Its records are
// JSON lines for machines; in a terminal, terminalDestination prints the same records for a person to read.
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

const SECRET_FIELDS: ReadonlySet<string> = new Set(REDACTED_FIELDS);
const CENSOR = '[redacted]';
/** How deep a secret's field is looked for: the log object's own fields (0) and three levels below them. */
const DEEPEST = 3;

/**
 * `value` with every field named in REDACTED_FIELDS, down to DEEPEST, replaced by the censor. Only the objects on
 * the way to a secret are copied; a record that holds none (nearly every one) comes back as it was, and the
 * caller's objects are never changed. This does what pino's path redaction did with `field`, `*.field`, `*.*.field`
 * and `*.*.*.field` for each field, at a small part of its cost: the wildcards made pino redact every field of
 * every record through a compiled walk of all those paths.
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  // A byte array's fields are its bytes: nothing is named there.
  if (value === null || typeof value !== 'object' || depth > DEEPEST || ArrayBuffer.isView(value)) return value;
  let copy: Record<string, unknown> | null = null;
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    const safe = SECRET_FIELDS.has(key) && field !== undefined ? CENSOR : redactSecrets(field, depth + 1);
    if (safe === field) continue;
    copy ??= (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
    copy[key] = safe;
  }
  return (copy ?? value) as T;
}

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

/** The errors formatRecord already serialized and redacted, so that pino's serializer passes them on as they are. */
const finished = new WeakSet<object>();

/**
 * A record's fields as they are written: its error serialized (so that the fields an error carries are redacted
 * too), then every secret redacted.
 */
function formatRecord(record: Record<string, unknown>): Record<string, unknown> {
  const input = record.err === undefined ? record : { ...record, err: serializeError(record.err) };
  const safe = redactSecrets(input);
  if (safe.err !== null && typeof safe.err === 'object') finished.add(safe.err);
  return safe;
}

const errorOnce = (err: unknown) =>
  err !== null && typeof err === 'object' && finished.has(err) ? err : serializeError(err);

export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  const logger = pino(
    {
      level: options.level,
      base: { pid: process.pid },
      serializers: { err: errorOnce },
      formatters: { log: formatRecord, bindings: redactSecrets },
      hooks: {
        // The values a message interpolates (`%o`, `%j`), redacted as the record's own fields are.
        logMethod(args, method) {
          for (let i = 1; i < args.length; i += 1) args[i] = redactSecrets(args[i]);
          method.apply(this, args);
        },
      },
    },
    options.destination,
  );
  // A child's bindings are written once, when it is made, and pino's child does not take its parent's bindings
  // formatter. Set on the root, this is the `child` every child and grandchild calls (each inherits from its maker).
  const child = logger.child;
  logger.child = function redactedChild(this: Logger, bindings, childOptions) {
    return child.call(this, redactSecrets(bindings), childOptions);
  } as Logger['child'];
  return logger;
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** ANSI colours of the level names (with colours on): warnings yellow, errors red. */
const LEVEL_COLOURS: Record<number, string> = { 40: '33', 50: '31', 60: '31' };
/** Fields every record has, or that are shown apart (the message, the error). */
const SHOWN_APART = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err']);
const LONGEST_FIELD = 100;

/** A field's value in brief: a list of more than a few items, or an object too long for the line, by its size. */
function brief(value: unknown): string {
  if (Array.isArray(value)) {
    const plain = value.every((item) => item === null || typeof item !== 'object');
    return plain && value.length <= 3 ? value.join(',') : `[${value.length} items]`;
  }
  if (value !== null && typeof value === 'object') {
    const text = JSON.stringify(value);
    return text.length <= LONGEST_FIELD ? text : `{${Object.keys(value).length} fields}`;
  }
  const text = String(value);
  return typeof value === 'string' && (text === '' || /\s/.test(text)) ? JSON.stringify(text) : text;
}

/**
 * One of pino's JSON lines as a person reads it: the local time, the level, the message, the other fields in
 * brief (`key=value`; `npm start | cat` shows the records whole), then an error's stack, indented. A line that is
 * not a record is passed on as it is.
 */
export function readableLine(line: string, options: { colours?: boolean } = {}): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const paint = (code: string | undefined, text: string) =>
    options.colours && code ? `\x1b[${code}m${text}\x1b[0m` : text;
  const level = Number(record.level);
  const time = typeof record.time === 'number' ? new Date(record.time).toTimeString().slice(0, 8) : '';
  const fields = Object.entries(record)
    .filter(([key]) => !SHOWN_APART.has(key))
    .map(([key, value]) => `${key}=${brief(value)}`);
  const message = typeof record.msg === 'string' ? record.msg : '';
  let text = `${paint('2', time)} ${paint(LEVEL_COLOURS[level], (LEVEL_NAMES[level] ?? String(record.level)).padEnd(5))} ${message}${fields.length > 0 ? `  ${paint('2', fields.join(' '))}` : ''}`;
  const err = record.err as { message?: string; stack?: string } | undefined;
  if (err && typeof err === 'object')
    text += `\n${String(err.stack ?? err.message ?? JSON.stringify(err)).replace(/^/gm, '    ')}`;
  return `${text}\n`;
}

/** A destination for createLogger that prints each record readably on `out` (a terminal): the same logger, read by a person. */
export function terminalDestination(out: NodeJS.WriteStream): pino.DestinationStream {
  const colours = typeof out.hasColors === 'function' && out.hasColors() && !('NO_COLOR' in process.env);
  return { write: (line: string) => void out.write(readableLine(line, { colours })) };
}
