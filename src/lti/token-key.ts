// The one key lookup for what a platform signs (a launch's id_token, a notice of the Platform Notification Service):
// the issuer, client and deployment the token names must be registered (registrations.ts) and switched on, and the
// platform's key set (platform-keys.ts: deadline, size limit, cache) must hold a key for the token's key id. The
// caller then checks the signature with that key (platform-token.ts), and says a refusal in its own words: a launch
// to a person (launch-flow.ts), a notice to the LMS (notice.ts).
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { Jwk } from './jwk.js';
import { PlatformKeysUnavailable, keysUrlOf, platformKey } from './platform-keys.js';
import { findDeployment } from './registrations.js';

/** Why a token's key cannot be had. */
export type TokenKeyRefusal =
  | { kind: 'unregistered' }
  | { kind: 'switched off' }
  | { kind: 'no key id' }
  | { kind: 'unknown key' }
  | { kind: 'keys unavailable'; host: string; detail: string };

/**
 * The registered platform the token names and its key for `kid`; or why there is none. A deployment the platform has
 * not named yet counts only for a launch, as its first (`firstDeployment`: registrations.ts, findDeployment); a notice
 * names a known deployment or none.
 */
export async function tokenKey(
  db: Kysely<DatabaseSchema>,
  names: { issuer: string; clientId: string; deploymentId: string },
  kid: string | undefined,
  options: { firstDeployment: 'take' | 'refuse' },
): Promise<{ platformId: string; key: Jwk; firstDeployment: boolean } | { refused: TokenKeyRefusal }> {
  const deployment = await findDeployment(db, names);
  if (!deployment || (!deployment.known && options.firstDeployment === 'refuse'))
    return { refused: { kind: 'unregistered' } };
  if (!deployment.active) return { refused: { kind: 'switched off' } };
  const jwksUrl = await keysUrlOf(db, deployment.platformId);
  if (!kid || !jwksUrl) return { refused: { kind: 'no key id' } };
  try {
    const key = await platformKey(jwksUrl, kid);
    return key
      ? { platformId: deployment.platformId, key, firstDeployment: !deployment.known }
      : { refused: { kind: 'unknown key' } };
  } catch (error) {
    if (!(error instanceof PlatformKeysUnavailable)) throw error;
    return { refused: { kind: 'keys unavailable', host: error.host, detail: error.message } };
  }
}
