// The platform's signing key, published as its JWKS (LTI Security Framework 6.3, Key Set URL:
// https://www.imsglobal.org/spec/security/v1p0/#h_key-set-url), and the tool's key set, which the platform verifies
// the tool's client assertions and deep-linking responses with.
import { randomBytes } from 'node:crypto';
import { SignJWT, createRemoteJWKSet, exportJWK, generateKeyPair } from 'jose';
import type { MountConcern, PlatformContext, PlatformKeys } from './context.js';

export async function createKeys(toolJwksUrl: string): Promise<PlatformKeys> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `dev-${randomBytes(6).toString('hex')}`;
  return {
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
    toolKeys: createRemoteJWKSet(new URL(toolJwksUrl), { cacheMaxAge: 60_000, cooldownDuration: 0 }),
    sign: (payload, options = {}) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .setIssuedAt()
        .setExpirationTime(`${options.expiresInSeconds ?? 300}s`)
        .sign(privateKey),
  };
}

const JWKS_PATH = '/jwks';
export const jwksUrl = (platform: PlatformContext) => `${platform.issuer}${JWKS_PATH}`;

export const mountJwks: MountConcern = (router, platform) => {
  router.get(JWKS_PATH, (_req, res) => {
    res.json({ keys: [platform.keys.publicJwk] });
  });
};
