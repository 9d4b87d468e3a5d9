// The platform's signing key, published as its JWKS (LTI Security Framework 6.3, Key Set URL:
// https://www.imsglobal.org/spec/security/v1p0/#h_key-set-url), and the tool's key set, which the platform verifies
// the tool's client assertions and deep-linking responses with.
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { SignJWT, createRemoteJWKSet, exportJWK, generateKeyPair } from 'jose';
import { SSO_PATHS, type MountConcern, type PlatformContext, type PlatformKeys } from './context.js';

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
/** Where the platform publishes its keys: its own host, or hosted Canvas's SSO host (sso.ts). */
export const jwksUrl = (platform: PlatformContext) =>
  platform.sso ? `${platform.sso.origin}${SSO_PATHS.jwks}` : `${platform.baseUrl}${JWKS_PATH}`;

export const jwksHandler = (platform: PlatformContext) => (_req: Request, res: Response) => {
  res.json({ keys: [platform.keys.publicJwk] });
};

/** On the platform's own host, unless it plays an SSO host that has them instead. */
export const mountJwks: MountConcern = (router, platform) => {
  if (!platform.sso) router.get(JWKS_PATH, jwksHandler(platform));
};
