// A JWT the platform signed with one of its launch keys (a launch's id_token, a notice), verified with the key its
// `kid` names: RS256 only, the issuer the registration holds, the tool's client id as audience (and as `azp` when
// the audience names several parties, OpenID Connect Core 3.1.3.7 steps 3 to 5), and `exp` and `iat` present with
// the token unexpired (step 9). Finding the registration and the key is the caller's (it knows what to answer when
// either is missing); this is the one place the signature and those claims are checked.
import { importJWK, jwtVerify, type JWTPayload } from 'jose';
import type { KeyObject } from 'node:crypto';
import type { Jwk } from './jwk.js';

export class PlatformTokenInvalid extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'PlatformTokenInvalid';
  }
}

export interface ExpectedSigner {
  issuer: string;
  clientId: string;
  /** Seconds the clocks of the LMS and the tool may differ: launches take none, notices a little. */
  clockToleranceSeconds: number;
}

/**
 * The key objects made of the platforms' JWKs, kept as long as the key set that holds the JWK (platform-keys.ts
 * hands out the same object while it keeps the set): making one costs more CPU than the verification itself
 * (bench/ltijs-parts.ts).
 */
const imported = new WeakMap<Jwk, KeyObject | Uint8Array>();

async function keyOf(jwk: Jwk): Promise<KeyObject | Uint8Array> {
  let key = imported.get(jwk);
  if (!key) {
    key = (await importJWK(jwk as Parameters<typeof importJWK>[0], 'RS256')) as KeyObject | Uint8Array;
    imported.set(jwk, key);
  }
  return key;
}

/** The verified payload; throws PlatformTokenInvalid with a detail for the log. */
export async function verifyPlatformToken(jwt: string, jwk: Jwk, expected: ExpectedSigner): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(jwt, await keyOf(jwk), {
      issuer: expected.issuer,
      audience: expected.clientId,
      algorithms: ['RS256'],
      requiredClaims: ['exp', 'iat'],
      clockTolerance: expected.clockToleranceSeconds,
    }));
  } catch (error) {
    throw new PlatformTokenInvalid((error as Error).message);
  }
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expected.clientId)
    throw new PlatformTokenInvalid('azp does not name the client');
  return payload;
}
