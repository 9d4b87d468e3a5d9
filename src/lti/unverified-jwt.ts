// What a platform's JWT names before anything of it is verified: the issuer, client and deployment whose
// registration and key verify it, and the key id under the one algorithm the tool takes (RS256). Read here once, for
// launches (launch-admission.ts) and notices (notice.ts), to decide where to look and whether to refuse early;
// nothing read here is trusted.
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { z } from 'zod';
import { CLAIM, withoutNulls } from './claims.js';

/** The platform and deployment a token names. */
export interface TokenNames {
  issuer: string;
  clientId: string;
  deploymentId: string;
}

export interface UnverifiedToken {
  /** Null: the token lacks its issuer, audience or deployment. */
  names: TokenNames | null;
  /** The first claim the names lacked, for the log. */
  missing: string | null;
  /** The key id, under RS256 only: a key id beside another algorithm names no key the tool would use. */
  keyId: string | undefined;
  header: { alg?: unknown; kid?: unknown };
}

const namesClaims = z.object({
  iss: z.string().min(1).max(1000),
  aud: z.union([z.string().min(1).max(1000), z.array(z.string().min(1).max(1000)).min(1)]),
  azp: z.string().max(1000).optional(),
  [CLAIM.deploymentId]: z.string().min(1).max(255),
});

/** The token read without verifying it; null when it is not a JWT at all. */
export function readUnverified(jwt: string): UnverifiedToken | null {
  let header;
  let payload;
  try {
    header = decodeProtectedHeader(jwt);
    payload = decodeJwt(jwt);
  } catch {
    return null;
  }
  const keyId =
    header.alg === 'RS256' && typeof header.kid === 'string' && header.kid !== '' && header.kid.length <= 500
      ? header.kid
      : undefined;
  const parsed = namesClaims.safeParse(withoutNulls(payload));
  if (!parsed.success) return { names: null, missing: parsed.error.issues[0]!.path.join('.'), keyId, header };
  const { iss, aud, azp } = parsed.data;
  return {
    names: {
      issuer: iss,
      // The audience may list several clients; azp then names the one the token is for (OpenID Connect Core 2).
      clientId: Array.isArray(aud) ? (azp ?? aud[0]!) : aud,
      deploymentId: parsed.data[CLAIM.deploymentId],
    },
    missing: null,
    keyId,
    header,
  };
}
