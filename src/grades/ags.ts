// LTI Assignment and Grade Services 2.0 over HTTP (https://www.imsglobal.org/spec/lti-ags/v2p0): the services'
// addresses, scopes, access tokens and one request. ltijs's own submitScore overwrites the timestamp with the
// current time; the tool needs to choose it (score-clock.ts), so it posts scores itself, each call through the
// tool's one way to call an LMS service (lti/platform-service.ts: token, deadline, size limit, a new token once on 401).
import { accessTokenWithin } from '../lti/access-token.js';
import { SCOPE } from '../lti/claims.js';
import type { Platform, PlatformLookup } from '../lti/platform.js';
import { SERVICE_TIMEOUT_MS, ServiceCallFailed, serviceRequest, withServiceToken } from '../lti/platform-service.js';

/** https://www.imsglobal.org/spec/lti-ags/v2p0/#scopes */
export const AGS_SCOPES = { score: SCOPE.agsScore, lineItem: SCOPE.agsLineItem, result: SCOPE.agsResult } as const;

/** The tag of the tool's gradebook column (https://www.imsglobal.org/spec/lti-ags/v2p0/#tag), with resourceId = the assignment id. */
export const SIMILARITY_TAG = 'similarity';

const MAX_BODY = 512 * 1024;

export interface AgsAnswer {
  status: number;
  body: string;
}

export class AgsUnreachable extends Error {
  constructor(url: string, cause: unknown) {
    super(`The gradebook at ${new URL(url).host} did not answer: ${(cause as Error).message ?? String(cause)}`, {
      cause,
    });
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

async function platformOf(platforms: PlatformLookup, platform: PlatformRef): Promise<Platform> {
  const found = await platforms.getPlatform(platform.issuer, platform.clientId);
  if (!found) throw new Error(`The platform ${platform.issuer} is no longer registered.`);
  return found;
}

/** An access token for the scope, the one kept while it is valid or fresh from the platform's token endpoint. */
export async function accessToken(platforms: PlatformLookup, platform: PlatformRef, scope: string): Promise<string> {
  const registered = await platformOf(platforms, platform);
  try {
    return await accessTokenWithin(registered, scope, SERVICE_TIMEOUT_MS);
  } catch (error) {
    throw new AgsUnreachable(platform.issuer, error);
  }
}

/** A platform's answer as JSON, or null when it is not. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export interface AgsRequest {
  method: 'GET' | 'POST' | 'PUT';
  accept?: string;
  contentType?: string;
  body?: unknown;
}

/** One request with a token in hand. */
export async function agsRequest(url: string, init: AgsRequest & { token: string }): Promise<AgsAnswer> {
  try {
    const answer = await serviceRequest(url, init.token, {
      method: init.method,
      ...(init.accept ? { accept: init.accept } : {}),
      ...(init.contentType ? { contentType: init.contentType } : {}),
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      maxBytes: MAX_BODY,
    });
    return { status: answer.status, body: answer.body };
  } catch (error) {
    if (error instanceof ServiceCallFailed) throw new AgsUnreachable(url, error.cause);
    throw error;
  }
}

/** One request with a token of the scope, asked again once when the platform answers 401. */
export async function agsCall(
  platforms: PlatformLookup,
  platform: PlatformRef,
  scope: string,
  url: string,
  init: AgsRequest,
): Promise<AgsAnswer> {
  const registered = await platformOf(platforms, platform);
  try {
    return await withServiceToken(registered, scope, (token) => agsRequest(url, { ...init, token }));
  } catch (error) {
    if (error instanceof ServiceCallFailed) throw new AgsUnreachable(platform.issuer, error.cause);
    throw error;
  }
}
