// Failures of the checking service as values, in one shape from here upward: what happened (`kind`, with the HTTP
// status), what the caller does about it (`failure`), and a sentence for people (never a token or a password).

/**
 * What a failed request means for the caller: `refused` for good (the file is too large, of a type the service does
 * not take); `transient` (rate limit, outage: the service did not take the request, try again later); `lost` (the
 * request may or may not have been carried out: look before sending again); `missing` (the folder or paper is not
 * at the service); `fatal` (configuration: bad credentials, no permission, no account).
 */
export type FailureKind = 'refused' | 'transient' | 'lost' | 'missing' | 'fatal';

/** A failure as the domain reads it. */
export interface ServiceFailure {
  kind: FailureKind;
  /** A sentence for the student or instructor. */
  message: string;
}

/** An error that knows what it means for its caller. */
export abstract class ServiceError extends Error {
  abstract readonly failure: FailureKind;
}

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

/**
 * Only a 429 or a 503 says the service did not take the request; a 500 may come after it stored the paper, and a
 * gateway's 502 or 504 (or an error of our own after the answer) says nothing of what the service did: those are
 * `lost`, so the paper is looked for before it is sent again.
 */
const FAILURES: Record<CheckerErrorKind, FailureKind> = {
  'too-large': 'refused',
  unsupported: 'refused',
  'bad-request': 'refused',
  'rate-limited': 'transient',
  unavailable: 'transient', // 503; a gateway's 502 and 504 are `lost` (below)
  server: 'lost',
  timeout: 'lost',
  network: 'lost',
  'bad-response': 'lost',
  'not-found': 'missing',
  unauthorized: 'fatal',
  forbidden: 'fatal',
  conflict: 'fatal',
};

export class CheckerError extends ServiceError {
  readonly failure: FailureKind;

  constructor(
    readonly kind: CheckerErrorKind,
    readonly status: number | null,
    detail?: string,
    readonly retryAfterMs?: number,
  ) {
    super(detail ? `${SENTENCES[kind]} (${detail})` : SENTENCES[kind]);
    this.name = 'CheckerError';
    this.failure = kind === 'unavailable' && status !== 503 ? 'lost' : FAILURES[kind];
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

/** Any error as the domain reads it: one the service (or an account) explained, or else an unexpected one, `lost`. */
export function failureOf(error: unknown): ServiceFailure {
  if (error instanceof ServiceError) return { kind: error.failure, message: error.message };
  return { kind: 'lost', message: 'An unexpected error interrupted the request to the checking service.' };
}
