// The one way the tool calls an LMS service of LTI Advantage (AGS, NRPS, the notification service, the Asset and
// Asset Report services, the EULA service): a token of the service's scope (access-token.ts, LTI Security
// Framework 4.1), then the request through platform-http (deadline, size limit, address rules). A 401 means the
// platform no longer takes the token kept for the scope: it is forgotten, a new one is asked for and the request
// is sent once more. A failure says which step failed, for the caller's sentence. Each specification's client
// (grades/ags.ts, roster.ts, notice-service.ts, eula-service.ts, asset-report-service.ts,
// assetprocessor/download.ts) says what its answers mean.
import { accessTokenWithin, forgetAccessToken } from './access-token.js';
import type { Platform } from './platform.js';
import { PlatformRequestError, platformRequest, type PlatformAnswer, type PlatformRequest } from './platform-http.js';

export const SERVICE_TIMEOUT_MS = 15_000;
const MAX_ANSWER_BYTES = 64 * 1024;

/** The call did not succeed: no token, the service not reached (`own`: the tool's sentence for why), or a non-2xx answer. */
export class ServiceCallFailed extends Error {
  constructor(
    readonly step: 'token' | 'unreachable' | 'refused',
    detail: string,
    readonly own: string = '',
    options?: ErrorOptions,
  ) {
    super(detail, options);
    this.name = 'ServiceCallFailed';
  }
}

/** A request to a service, its bearer token added by the call. */
export interface ServiceRequest extends Omit<PlatformRequest, 'headers'> {
  accept?: string;
  contentType?: string;
}

/** The request's headers with the token. */
export function bearer(token: string, request: ServiceRequest): PlatformRequest {
  const { accept, contentType, ...rest } = request;
  return {
    ...rest,
    headers: {
      authorization: `Bearer ${token}`,
      ...(accept ? { accept } : {}),
      ...(contentType ? { 'content-type': contentType } : {}),
    },
  };
}

/** One request with a token in hand; throws ServiceCallFailed ('unreachable') when no answer could be had. */
export async function serviceRequest(url: string, token: string, request: ServiceRequest): Promise<PlatformAnswer> {
  try {
    return await platformRequest(
      url,
      bearer(token, { timeoutMs: SERVICE_TIMEOUT_MS, maxBytes: MAX_ANSWER_BYTES, ...request }),
    );
  } catch (error) {
    throw new ServiceCallFailed(
      'unreachable',
      (error as Error).message,
      error instanceof PlatformRequestError ? ` ${error.message}` : '',
      { cause: error },
    );
  }
}

async function tokenFor(platform: Platform, scope: string, timeoutMs: number): Promise<string> {
  try {
    return await accessTokenWithin(platform, scope, timeoutMs);
  } catch (error) {
    throw new ServiceCallFailed('token', `no token for ${scope}: ${(error as Error).message}`, '', { cause: error });
  }
}

/**
 * `send` with a token of `scope`; when it answers 401, the token is forgotten and `send` runs once more with a new
 * one. Returns the last answer, whatever its status; throws ServiceCallFailed ('token') when no token can be had.
 */
export async function withServiceToken<A extends { status: number }>(
  platform: Platform,
  scope: string,
  send: (token: string) => Promise<A>,
  tokenTimeoutMs = SERVICE_TIMEOUT_MS,
): Promise<A> {
  const forget = async () => forgetAccessToken(await platform.platformUrl(), await platform.platformClientId(), scope);
  const first = await send(await tokenFor(platform, scope, tokenTimeoutMs));
  if (first.status !== 401) return first;
  await forget();
  const again = await send(await tokenFor(platform, scope, tokenTimeoutMs));
  if (again.status === 401) await forget();
  return again;
}

/**
 * A request to the service at `url` with a token of `scope`; its answer whatever the status (a caller that tells
 * statuses apart reads it); throws ServiceCallFailed when there is no token or no answer.
 */
export function callService(
  platform: Platform,
  scope: string,
  url: string,
  request: ServiceRequest,
): Promise<PlatformAnswer> {
  return withServiceToken(platform, scope, (token) => serviceRequest(url, token, request));
}

/** Sends `body` as JSON to the service at `url` with a token of `scope`; throws ServiceCallFailed unless it answers 2xx. */
export async function sendToService(
  platform: Platform,
  scope: string,
  url: string,
  request: { method: 'POST' | 'PUT'; body: unknown },
): Promise<PlatformAnswer> {
  const answer = await callService(platform, scope, url, {
    method: request.method,
    contentType: 'application/json',
    accept: 'application/json',
    body: JSON.stringify(request.body),
  });
  if (answer.status < 200 || answer.status >= 300)
    throw new ServiceCallFailed('refused', `HTTP ${answer.status} from ${new URL(url).host}`);
  return answer;
}

/**
 * An LMS service did not do what a person asked the tool to tell it (a subscription, an acceptance): `message` is a
 * sentence for them, `detail` for the log.
 */
export class ServiceRefused extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'ServiceRefused';
  }
}

/** What a person reads when a service fails them: its name, what did not happen, and the sentence when it said no. */
export interface RefusalWords {
  service: string;
  outcome: string;
  notTaken: string;
}

/**
 * sendToService for a person who waits on it: throws ServiceRefused when the service was not reached ("try again in
 * a moment", with the tool's sentence for why) or did not take the request (`notTaken`).
 */
export async function sendForPerson(
  platform: Platform,
  scope: string,
  url: string,
  request: { method: 'POST' | 'PUT'; body: unknown },
  words: RefusalWords,
): Promise<void> {
  try {
    await sendToService(platform, scope, url, request);
  } catch (error) {
    if (!(error instanceof ServiceCallFailed)) throw error;
    throw new ServiceRefused(
      error.step === 'unreachable'
        ? `Your LMS's ${words.service} could not be reached, so ${words.outcome}.${error.own} Try again in a moment.`
        : words.notTaken,
      error.message,
    );
  }
}
