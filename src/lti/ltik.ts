// The ltik: the key a page session rides on (carried in the URL or a header, never a cookie, so it works in an LMS
// iframe that blocks third-party cookies). It is a JWT (RFC 7519) signed with HMAC-SHA256 under the ENCRYPTION_KEY,
// with the fields ltijs gave it, so an ltik issued by an earlier release still reads. Signed and checked with
// node:crypto's HMAC in one synchronous call: jose does HS256 through WebCrypto, a job handed to libuv's thread pool
// and awaited, about 0.1 ms of CPU where this takes about 0.01 (bench/session-token.ts); a launch signs one ltik and
// every page checks one.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** What an ltik names: the platform, deployment and user, and the session record's context (launch-session.ts). */
export const ltikClaims = z.object({
  platformUrl: z.string(),
  clientId: z.string(),
  deploymentId: z.string(),
  contextId: z.string(),
  user: z.string(),
});
export type LtikClaims = z.infer<typeof ltikClaims>;

/** The JOSE header of every ltik (RFC 7515 4.1): HS256, which is the only algorithm an ltik is checked under. */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

const signature = (input: string, encryptionKey: string) => createHmac('sha256', encryptionKey).update(input).digest();

/** An ltik for `claims` (and what else the session adds), issued now. */
export function signLtik(claims: LtikClaims & Record<string, unknown>, encryptionKey: string): string {
  const payload = Buffer.from(JSON.stringify({ ...claims, iat: Math.floor(Date.now() / 1000) })).toString('base64url');
  const input = `${HEADER}.${payload}`;
  return `${input}.${signature(input, encryptionKey).toString('base64url')}`;
}

const header = z.object({ alg: z.literal('HS256') });

/**
 * The claims of an ltik signed with this ENCRYPTION_KEY, or null: not three parts, a header that does not say HS256
 * (an ltik with another algorithm, "none" among them, is refused as jose refused it), a signature that does not
 * match (compared in constant time), or claims that are not an ltik's.
 */
export function verifyLtik(ltik: string, encryptionKey: string): LtikClaims | null {
  const parts = ltik.split('.');
  if (parts.length !== 3) return null;
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  const given = Buffer.from(encodedSignature, 'base64url');
  const expected = signature(`${encodedHeader}.${encodedPayload}`, encryptionKey);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    if (!header.safeParse(JSON.parse(Buffer.from(encodedHeader, 'base64url').toString())).success) return null;
    const claims = ltikClaims.safeParse(JSON.parse(Buffer.from(encodedPayload, 'base64url').toString()));
    return claims.success ? claims.data : null;
  } catch {
    return null;
  }
}

/**
 * The platform an ltik says it was issued for, read without checking it: only to let that platform's frame show
 * the one sentence that answers a session that ended or a key that is no key, never to trust anything.
 */
export function ltikPlatform(ltik: string): { issuer: string; clientId: string } | null {
  try {
    const claims = ltikClaims.safeParse(JSON.parse(Buffer.from(ltik.split('.')[1] ?? '', 'base64url').toString()));
    return claims.success ? { issuer: claims.data.platformUrl, clientId: claims.data.clientId } : null;
  } catch {
    return null;
  }
}
