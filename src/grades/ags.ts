// LTI Assignment and Grade Services 2.0 over HTTP (https://www.imsglobal.org/spec/lti-ags/v2p0): the services'
// addresses, scopes, access tokens and one request. ltijs's own submitScore overwrites the timestamp with the
// current time; the tool needs to choose it (score-clock.ts), so it posts scores itself with an access token ltijs
// obtains and caches.
import type { Provider } from 'ltijs';
import { accessTokenWithin, forgetAccessToken } from '../lti/access-token.js';
import { SCOPE } from '../lti/claims.js';
import { PlatformRequestError, platformRequest } from '../lti/platform-http.js';

/** https://www.imsglobal.org/spec/lti-ags/v2p0/#scopes */
export const AGS_SCOPES = { score: SCOPE.agsScore, lineItem: SCOPE.agsLineItem, result: SCOPE.agsResult } as const;

/** The tag of the tool's gradebook column (https://www.imsglobal.org/spec/lti-ags/v2p0/#tag), with resourceId = the assignment id. */
export const SIMILARITY_TAG = 'similarity';

const TIMEOUT_MS = 15_000;
const MAX_BODY = 512 * 1024;

export interface AgsAnswer {
  status: number;
  body: string;
}

export class AgsUnreachable extends Error {
  constructor(url: string, cause: unknown) {
    super(`The gradebook at ${new URL(url).host} did not answer: ${(cause as Error).message ?? String(cause)}`, { cause });
    this.name = 'AgsUnreachable';
  }
}

/**
 * A service below a line item: the line item's path plus /scores or /results, keeping its query string, which
 * some platforms' line item URLs carry (https://www.imsglobal.org/spec/lti-ags/v2p0/#score-publish-service).
 */
function belowLineItem(lineItemUrl: string, service: 'scores' | 'results'): URL {
  const url = new URL(lineItemUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${service}`;
  return url;
}

export function scoresUrl(lineItemUrl: string): string {
  return belowLineItem(lineItemUrl, 'scores').toString();
}

/** The user's results in a line item (https://www.imsglobal.org/spec/lti-ags/v2p0/#result-service). */
export function resultsUrl(lineItemUrl: string, userId: string): string {
  const url = belowLineItem(lineItemUrl, 'results');
  url.searchParams.set('user_id', userId);
  return url.toString();
}

export interface PlatformRef {
  issuer: string;
  clientId: string;
}

/** An access token for the scope, from ltijs's cache or fresh from the platform's token endpoint. */
export async function accessToken(provider: Provider, platform: PlatformRef, scope: string): Promise<string> {
  const ltiPlatform = await provider.getPlatform(platform.issuer, platform.clientId);
  if (!ltiPlatform) throw new Error(`The platform ${platform.issuer} is no longer registered.`);
  try {
    return await accessTokenWithin(ltiPlatform, scope, TIMEOUT_MS);
  } catch (error) {
    throw new AgsUnreachable(platform.issuer, error);
  }
}

/** Forgets a cached token the platform no longer accepts. */
export async function dropAccessToken(storage: { Delete(collection: string, query: Record<string, unknown>): Promise<unknown> }, platform: PlatformRef, scope: string): Promise<void> {
  forgetAccessToken(platform.issuer, platform.clientId, scope);
  // Tokens ltijs itself obtained and stored before (the tool asks its own since) are not used again either.
  await storage.Delete('accesstoken', { platformUrl: platform.issuer, clientId: platform.clientId, scopes: scope });
}

/** A platform's answer as JSON, or null when it is not. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function agsRequest(
  url: string,
  init: { method: 'GET' | 'POST' | 'PUT'; token: string; accept?: string; contentType?: string; body?: unknown },
): Promise<AgsAnswer> {
  try {
    const answer = await platformRequest(url, {
      method: init.method,
      headers: {
        authorization: `Bearer ${init.token}`,
        ...(init.accept ? { accept: init.accept } : {}),
        ...(init.contentType ? { 'content-type': init.contentType } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BODY,
    });
    return { status: answer.status, body: answer.body };
  } catch (error) {
    if (error instanceof PlatformRequestError) throw new AgsUnreachable(url, error);
    throw error;
  }
}
