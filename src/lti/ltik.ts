// The ltik: the key a page session rides on (carried in the URL or a header, never a cookie, so it works in an LMS
// iframe that blocks third-party cookies). It is a JWT (RFC 7519) signed with HMAC-SHA256 under the ENCRYPTION_KEY
// that names the session record and its platform (launch-session.ts issues it, session.ts reads it). Signed and
// checked with node:crypto's HMAC in one synchronous call: jose does HS256 through WebCrypto, a job handed to libuv's
// thread pool and awaited, about 0.1 ms of CPU where this takes about 0.01 (bench/session-token.ts); a launch signs
// one ltik and every page checks one. It lasts LTIK_LIFETIME_SECONDS from its issue (`iat` to `exp`): a key copied
// from a log or a screen stops opening anything within a working day, and the person who relaunches from the LMS
// gets a new one, its own even within the same second (`jti`, RFC 7519 4.1.7). Its signature has one spelling, the
// canonical base64url.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
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

/** How long an ltik opens pages: a working day in the LMS, after which the person opens the tool from it again. */
export const LTIK_LIFETIME_SECONDS = 8 * 60 * 60;
/** Seconds an ltik's iat may lie ahead of this clock (several web processes, a clock a little apart). */
const CLOCK_TOLERANCE_SECONDS = 60;

/** The JOSE header of every ltik (RFC 7515 4.1): HS256, which is the only algorithm an ltik is checked under. */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

const signature = (input: string, encryptionKey: string) => createHmac('sha256', encryptionKey).update(input).digest();

/** An ltik for `claims`, issued now: a key of its own (`jti`), whatever another launch of the same second got. */
export function signLtik(claims: LtikClaims, encryptionKey: string): string {
  const iat = Math.floor(Date.now() / 1000);
  const payload = Buffer.from(
    JSON.stringify({ ...claims, jti: randomUUID(), iat, exp: iat + LTIK_LIFETIME_SECONDS }),
  ).toString('base64url');
  const input = `${HEADER}.${payload}`;
  return `${input}.${signature(input, encryptionKey).toString('base64url')}`;
}

const header = z.object({ alg: z.literal('HS256') });
/** When an ltik was issued and until when it opens pages (RFC 7519 4.1.4, 4.1.6): every ltik says both. */
const lifetime = z.object({ iat: z.number().finite(), exp: z.number().finite() });

/** Whether an ltik issued at `iat` still opens pages now: until its `exp`, and never past LTIK_LIFETIME_SECONDS. */
function current(times: z.infer<typeof lifetime>, nowSeconds: number): boolean {
  const end = Math.min(times.exp, times.iat + LTIK_LIFETIME_SECONDS);
  return times.iat <= nowSeconds + CLOCK_TOLERANCE_SECONDS && nowSeconds < end;
}

/**
 * The claims of an ltik signed with this ENCRYPTION_KEY; 'invalid' when it is none: not three parts, a header that
 * does not say HS256 (an ltik with another algorithm, "none" among them, is refused as jose refused it), a signature
 * that is not the canonical base64url of the right one (compared in constant time: Buffer's base64url reading skips
 * characters it does not know and takes the other alphabet too, so it would open the page for several spellings of
 * one signature), or claims that are not an ltik's or do not say when it was issued and ends; 'expired' when it was issued
 * more than LTIK_LIFETIME_SECONDS ago, or its exp has passed.
 */
export function readLtik(ltik: string, encryptionKey: string, nowMs = Date.now()): LtikClaims | 'invalid' | 'expired' {
  const parts = ltik.split('.');
  if (parts.length !== 3) return 'invalid';
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  const given = Buffer.from(encodedSignature, 'utf8');
  const expected = Buffer.from(
    signature(`${encodedHeader}.${encodedPayload}`, encryptionKey).toString('base64url'),
    'utf8',
  );
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  try {
    if (!header.safeParse(JSON.parse(Buffer.from(encodedHeader, 'base64url').toString())).success) return 'invalid';
    const payload: unknown = JSON.parse(Buffer.from(encodedPayload, 'base64url').toString());
    const times = lifetime.safeParse(payload);
    const claims = ltikClaims.safeParse(payload);
    if (!times.success || !claims.success) return 'invalid';
    return current(times.data, nowMs / 1000) ? claims.data : 'expired';
  } catch {
    return 'invalid';
  }
}

/** The claims of an ltik that opens pages now, or null (readLtik says why not). */
export function verifyLtik(ltik: string, encryptionKey: string, nowMs = Date.now()): LtikClaims | null {
  const read = readLtik(ltik, encryptionKey, nowMs);
  return typeof read === 'string' ? null : read;
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
