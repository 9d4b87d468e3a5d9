// One call to an LMS service of LTI Advantage beyond AGS and NRPS (the notification service, the EULA service, the
// asset report service): a token of the service's scope (access-token.ts, LTI Security Framework 4.1), then one JSON
// request through platform-http (deadline, size limit, address rules). A failure says which step failed, for the
// caller's sentence. A 401 means the platform no longer takes the token kept for the scope: it is forgotten, and the
// next call asks for a new one.
import { accessTokenWithin, forgetAccessToken } from './access-token.js';
import { PlatformRequestError, platformRequest, type PlatformAnswer } from './platform-http.js';

const TIMEOUT_MS = 15_000;
const MAX_ANSWER_BYTES = 64 * 1024;

export type TokenPlatform = Parameters<typeof accessTokenWithin>[0];

/** The call did not succeed: no token, the service not reached (`own`: the tool's sentence for why), or a non-2xx answer. */
export class ServiceCallFailed extends Error {
  constructor(
    readonly step: 'token' | 'unreachable' | 'refused',
    detail: string,
    readonly own: string = '',
  ) {
    super(detail);
    this.name = 'ServiceCallFailed';
  }
}

/**
 * Sends `body` as JSON to the service at `url` with a token of `scope` and returns its answer, whatever the status
 * (a caller that tells statuses apart reads it); throws ServiceCallFailed when there is no token or no answer.
 */
export async function askPlatformService(platform: TokenPlatform, scope: string, url: string, request: { method: 'POST' | 'PUT'; body: unknown }): Promise<PlatformAnswer> {
  let token: string;
  try {
    token = await accessTokenWithin(platform, scope, TIMEOUT_MS);
  } catch (error) {
    throw new ServiceCallFailed('token', `no token for ${scope}: ${(error as Error).message}`);
  }
  let answer;
  try {
    answer = await platformRequest(url, {
      method: request.method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request.body),
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (error) {
    throw new ServiceCallFailed('unreachable', (error as Error).message, error instanceof PlatformRequestError ? ` ${error.message}` : '');
  }
  if (answer.status === 401) forgetAccessToken(await platform.platformUrl(), await platform.platformClientId(), scope);
  return answer;
}

/** Sends `body` as JSON to the service at `url` with a token of `scope`; throws ServiceCallFailed unless it answers 2xx. */
export async function callPlatformService(platform: TokenPlatform, scope: string, url: string, request: { method: 'POST' | 'PUT'; body: unknown }): Promise<void> {
  const answer = await askPlatformService(platform, scope, url, request);
  if (answer.status < 200 || answer.status >= 300) throw new ServiceCallFailed('refused', `HTTP ${answer.status} from ${new URL(url).host}`);
}
