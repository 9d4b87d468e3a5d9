// LTI Assignment and Grade Services 2.0 over HTTP (https://www.imsglobal.org/spec/lti-ags/v2p0): line items and
// scores. ltijs's own submitScore overwrites the timestamp with the current time; the tool needs to choose it
// (strictly increasing, a second apart), so it posts scores itself with an access token ltijs obtains and caches.
import type { Provider } from 'ltijs';
import { z } from 'zod';
import { accessTokenWithin, forgetAccessToken } from '../lti/access-token.js';
import { PlatformRequestError, platformRequest } from '../lti/platform-http.js';

export const AGS_SCOPES = {
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  result: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
} as const;

/** The tag of the tool's gradebook column (AGS 3.2.9), with resourceId = the assignment id. */
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

/** The scores endpoint of a line item: its path plus /scores, keeping the query string (AGS 3.4; Moodle's URLs carry ?type_id=). */
export function scoresUrl(lineItemUrl: string): string {
  const url = new URL(lineItemUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
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

function parseJson(text: string): unknown {
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

const lineItem = z.object({ id: z.string().url(), label: z.string().optional(), resourceId: z.string().optional(), tag: z.string().optional() });

export interface LineItemSpec {
  label: string;
  scoreMaximum: number;
  resourceId: string;
  tag: string;
  resourceLinkId?: string;
}

/**
 * The line item with this resourceId and tag in the container, created when there is none. Looking it up first
 * keeps a course copy or a second process from creating a duplicate column (AGS 3.2). `other` is a column of the
 * same assignment that is never the answer: a deep-linked assignment's own column carries the same tag and
 * resourceId as the similarity's column of its own, and the two must stay two.
 */
export async function findOrCreateLineItem(lineItemsUrl: string, token: string, spec: LineItemSpec, other: string | null = null): Promise<string> {
  const query = new URL(lineItemsUrl);
  query.searchParams.set('resource_id', spec.resourceId);
  query.searchParams.set('tag', spec.tag);
  const found = await agsRequest(query.toString(), { method: 'GET', token, accept: 'application/vnd.ims.lis.v2.lineitemcontainer+json' });
  if (found.status === 200) {
    const items = z.array(lineItem).safeParse(parseJson(found.body));
    const match = items.success ? items.data.find((item) => item.resourceId === spec.resourceId && item.tag === spec.tag && item.id !== other) : undefined;
    if (match) return match.id;
  }
  const created = await agsRequest(lineItemsUrl, {
    method: 'POST',
    token,
    accept: 'application/vnd.ims.lis.v2.lineitem+json',
    contentType: 'application/vnd.ims.lis.v2.lineitem+json',
    body: spec,
  });
  if (created.status !== 200 && created.status !== 201) {
    throw new Error(`The gradebook refused to create the similarity column (HTTP ${created.status}).`);
  }
  const parsed = lineItem.safeParse(parseJson(created.body));
  if (!parsed.success) throw new Error('The gradebook created the column but did not say its address.');
  return parsed.data.id;
}

/** The results endpoint of a line item (AGS 3.3), keeping the query string as scoresUrl does. */
export function resultsUrl(lineItemUrl: string, userId: string): string {
  const url = new URL(lineItemUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/results`;
  url.searchParams.set('user_id', userId);
  return url.toString();
}

const resultContainer = z.array(z.object({ userId: z.string(), resultScore: z.number().optional().nullable(), resultMaximum: z.number().optional().nullable() }).passthrough());

/**
 * The user's result in the line item, out of 100, as the platform holds it; null when it cannot say (no result,
 * the result scope not granted, an answer that does not parse): then nothing is known, and the caller sends.
 */
export async function currentResult(lineItemUrl: string, token: string, userId: string): Promise<number | null> {
  const answer = await agsRequest(resultsUrl(lineItemUrl, userId), { method: 'GET', token, accept: 'application/vnd.ims.lis.v2.resultcontainer+json' });
  if (answer.status !== 200) return null;
  const results = resultContainer.safeParse(parseJson(answer.body));
  const mine = results.success ? results.data.find((result) => result.userId === userId) : undefined;
  if (typeof mine?.resultScore !== 'number') return null;
  const maximum = typeof mine.resultMaximum === 'number' && mine.resultMaximum > 0 ? mine.resultMaximum : 100;
  return (mine.resultScore / maximum) * 100;
}
