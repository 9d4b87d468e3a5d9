// An access token for the LMS's services (AGS, NRPS): OAuth 2 client credentials with a JWT assertion signed by the
// tool's key for that platform (LTI Security Framework 4.1, https://www.imsglobal.org/spec/security/v1p0/#using-json-web-tokens-with-oauth-2-0-client-credentials-grant).
// ltijs has this flow too, but it asks the token endpoint through got with no deadline and no address rules; here
// the request goes through platform-http (deadline, size limit, no private addresses), and the token is kept in
// this process until shortly before it expires.
import { createPrivateKey, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Platform } from './platform.js';
import { z } from 'zod';
import { PlatformRequestError, platformRequest } from './platform-http.js';

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive().optional() });

/** A token is not used in its last minute: a request that starts with it should still find it valid. */
const EXPIRY_MARGIN_MS = 60_000;
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

const cache = new Map<string, { token: string; expiresAt: number }>();
const asking = new Map<string, Promise<string>>();

const keyOf = (issuer: string, clientId: string, scope: string) => `${issuer}\n${clientId}\n${scope}`;

/** Forgets a token the platform no longer accepts, so the next call asks for a new one. */
export function forgetAccessToken(issuer: string, clientId: string, scope: string): void {
  cache.delete(keyOf(issuer, clientId, scope));
}

async function askToken(
  platform: Platform,
  scope: string,
  timeoutMs: number,
): Promise<{ token: string; expiresAt: number }> {
  const clientId = await platform.platformClientId();
  const tokenUrl = await platform.platformAccessTokenEndpoint();
  const assertion = await new SignJWT({ jti: randomUUID() })
    .setProtectedHeader({ alg: 'RS256', kid: await platform.platformKid(), typ: 'JWT' })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(await platform.platformAuthorizationServer())
    .setIssuedAt()
    .setExpirationTime('60s')
    .sign(createPrivateKey(await platform.platformPrivateKey()));
  const asked = Date.now();
  let answer;
  try {
    answer = await platformRequest(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
        scope,
      }).toString(),
      timeoutMs,
      maxBytes: MAX_TOKEN_ANSWER_BYTES,
    });
  } catch (error) {
    if (error instanceof PlatformRequestError && error.kind === 'timeout') {
      throw new Error(`the LMS's token endpoint did not answer within ${timeoutMs / 1000} s`, { cause: error });
    }
    throw new Error(`the LMS's token endpoint could not be asked: ${(error as Error).message}`, { cause: error });
  }
  if (answer.status !== 200) throw new Error(`the LMS's token endpoint refused the tool (HTTP ${answer.status})`);
  let parsed;
  try {
    parsed = tokenAnswer.parse(JSON.parse(answer.body));
  } catch {
    throw new Error("the LMS's token endpoint answered without an access token");
  }
  // OAuth 2 (RFC 6749 5.1): expires_in is recommended, not required; an hour is the common lifetime.
  return { token: parsed.access_token, expiresAt: asked + (parsed.expires_in ?? 3600) * 1000 - EXPIRY_MARGIN_MS };
}

/** A token for the scope: the one kept here while it is valid, else a new one, asked once however many wait. */
export async function accessTokenWithin(platform: Platform, scope: string, timeoutMs: number): Promise<string> {
  const key = keyOf(await platform.platformUrl(), await platform.platformClientId(), scope);
  const kept = cache.get(key);
  if (kept && kept.expiresAt > Date.now()) return kept.token;
  let pending = asking.get(key);
  if (!pending) {
    pending = askToken(platform, scope, timeoutMs)
      .then((fresh) => {
        cache.set(key, fresh);
        return fresh.token;
      })
      .finally(() => asking.delete(key));
    asking.set(key, pending);
  }
  return pending;
}
