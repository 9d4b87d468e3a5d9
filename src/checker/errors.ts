// Failures of the checking service as values: a kind the caller can act on, whether a retry may help, and a
// sentence for people (never a token or a password).

export type CheckerErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'unsupported'
  | 'rate-limited'
  | 'unavailable'
  | 'server'
  | 'timeout'
  | 'network'
  | 'bad-response'
  | 'bad-request';

const SENTENCES: Record<CheckerErrorKind, string> = {
  unauthorized: 'The checking service did not accept the account credentials.',
  forbidden: 'The checking service refused access: the folder or paper belongs to another account.',
  'not-found': 'The checking service does not have that folder, paper or report.',
  conflict: 'The checking service already has a folder or paper of that name.',
  'too-large': 'The file is larger than the checking service accepts.',
  unsupported: 'The checking service does not accept this type of file.',
  'rate-limited': 'The checking service is limiting requests; the tool will try again shortly.',
  unavailable: 'The checking service is unavailable for the moment; the tool will try again.',
  server: 'The checking service had an internal error; the tool will try again.',
  timeout: 'The checking service did not answer in time.',
  network: 'The checking service could not be reached.',
  'bad-response': 'The checking service sent an answer the tool could not read.',
  'bad-request': 'The checking service refused the request as malformed.',
};

const RETRYABLE = new Set<CheckerErrorKind>(['rate-limited', 'unavailable', 'server', 'timeout', 'network']);

export class CheckerError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly kind: CheckerErrorKind,
    readonly status: number | null,
    detail?: string,
    readonly retryAfterMs?: number,
  ) {
    super(detail ? `${SENTENCES[kind]} (${detail})` : SENTENCES[kind]);
    this.name = 'CheckerError';
    this.retryable = RETRYABLE.has(kind);
  }
}

export function kindOfStatus(status: number): CheckerErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'too-large';
  if (status === 415 || status === 422) return 'unsupported';
  if (status === 429) return 'rate-limited';
  if (status === 503 || status === 502 || status === 504) return 'unavailable';
  if (status >= 500) return 'server';
  return 'bad-request';
}
