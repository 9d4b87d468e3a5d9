// A request's body the body parser could not take (express.json, express.urlencoded, on every route): a Content-
// Encoding or character set it does not read, a compressed body that does not decompress (whatever the decoder's
// error code), a body that is not JSON or is too large, or one the client cut off. Each is the client's fault, never the tool's: the app's one error handler
// (app.ts) answers it with its own 4xx and a sentence in the format the client reads, and logs a warning without a
// stack, so that nobody can raise the tool's 5xx rate or fill its error log by sending such bodies.
import type { Words } from '../i18n/index.js';

export type BodyFault =
  | { aborted: true }
  | {
      aborted: false;
      status: number;
      /** For the log: body-parser's type, or zlib's code. */ reason: string;
      say(words: Words): string;
    };

interface ParserError {
  status?: unknown;
  expose?: unknown;
  type?: unknown;
  code?: unknown;
  errno?: unknown;
  encoding?: unknown;
  charset?: unknown;
  limit?: unknown;
}

/** What the body parser's error says of the body, or null when the error is not one of its client faults. */
export function bodyFault(error: unknown): BodyFault | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, expose, type, code, errno, encoding, charset, limit } = error as ParserError;
  // body-parser's errors (http-errors) carry a 4xx status and `expose`; a zlib error it passes on carries zlib's code.
  if (typeof status !== 'number' || status < 400 || status > 499 || expose !== true) return null;
  if (type === 'request.aborted') return { aborted: true };
  const fault = (reason: string, say: (words: Words) => string): BodyFault => ({ aborted: false, status, reason, say });
  switch (type) {
    case 'encoding.unsupported':
      return fault(type, (words) => words.t('error.bodyEncoding', { encoding: String(encoding).slice(0, 40) }));
    case 'charset.unsupported':
      return fault(type, (words) => words.t('error.bodyCharset', { charset: String(charset).slice(0, 40) }));
    case 'entity.parse.failed':
      return fault(type, (words) => words.t('error.bodyNotJson'));
    case 'entity.too.large':
      return fault(type, (words) =>
        words.t('error.bodyTooLarge', { size: typeof limit === 'number' ? words.fileSize(limit) : '?' }),
      );
    case 'request.size.invalid':
    case 'entity.verify.failed':
    case 'parameters.too.many':
    case 'stream.encoding.set':
      return fault(type, (words) => words.t('error.unreadable'));
  }
  // A decoder's own error, passed on by body-parser as the client's (400): zlib's for gzip and deflate (Z_DATA_ERROR,
  // Z_BUF_ERROR), brotli's for br (ERR__ERROR_FORMAT_PADDING_1 and dozens more, each a name of the brotli library's).
  // Whatever the code, a body that does not decode is the client's.
  if (typeof code === 'string' && typeof errno === 'number')
    return fault(code.slice(0, 60), (words) => words.t('error.bodyUndecodable'));
  // Any other fault body-parser names (its errors carry a type) is the client's too, in general words.
  if (typeof type === 'string') return fault(type.slice(0, 60), (words) => words.t('error.unreadable'));
  return null;
}
