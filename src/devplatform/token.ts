// The platform's OAuth 2 authorization server for its services: the token endpoint, where a tool trades a JWT it
// signed for an access token (client_credentials with a client assertion, LTI Security Framework 4.1:
// https://www.imsglobal.org/spec/security/v1p0/#using-json-web-tokens-with-oauth-2-0-client-credentials-grant),
// and the check every AGS and NRPS call passes (a live token with one of the endpoint's scopes).
import { randomBytes } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { jwtVerify } from 'jose';
import { SSO_PATHS, type MountConcern, type PlatformContext } from './context.js';

/** The service scopes the platform grants: AGS 2.0's four, NRPS 2.0's one, and the Asset Processor's three and its EULA's two. */
export const SCOPES = {
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  lineItemRead: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  result: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  nrps: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
  noticeHandlers: 'https://purl.imsglobal.org/spec/lti/scope/noticehandlers',
  asset: 'https://purl.imsglobal.org/spec/lti/scope/asset.readonly',
  report: 'https://purl.imsglobal.org/spec/lti/scope/report',
  eulaUser: 'https://purl.imsglobal.org/spec/lti/scope/eula/user',
  eulaDeployment: 'https://purl.imsglobal.org/spec/lti/scope/eula/deployment',
  /** Blackboard's names of the Asset and Asset Report scopes (dialect.ts): granted to a tool that asks for them. */
  assetBlackboard: 'https://purl.imsglobal.org/spec/lti-ap/scope/asset.readonly',
  reportBlackboard: 'https://purl.imsglobal.org/spec/lti-ap/scope/report',
};

const TOKEN_PATH = '/token';
/**
 * Also the audience the tool's client assertion must name: on hosted Canvas's SSO host, the token address there
 * (lib/canvas/oauth/client_credentials_provider.rb: `@expected_aud = ...oauth2_token_url(host:, protocol:)`, the host
 * the request came to).
 */
export const tokenUrl = (platform: PlatformContext) =>
  platform.sso ? `${platform.sso.origin}${SSO_PATHS.token}` : `${platform.baseUrl}${TOKEN_PATH}`;

const ACCESS_TOKEN_SECONDS = 3600;

/** On the platform's own host, unless it plays an SSO host that has it instead (sso.ts). */
export const mountTokenEndpoint: MountConcern = (router, platform) => {
  if (!platform.sso) router.post(TOKEN_PATH, ...tokenHandlers(platform));
};

/** The token endpoint's body parser and answer. */
export function tokenHandlers(platform: PlatformContext) {
  const { memory } = platform;
  return [
    express.urlencoded({ extended: false, limit: '256kb' }),
    async (req: Request, res: Response) => {
      if (memory.faults.tokenDelayMs) await new Promise((resolve) => setTimeout(resolve, memory.faults.tokenDelayMs));
      const body = req.body as Record<string, string | undefined>;
      if (
        body.grant_type !== 'client_credentials' ||
        body.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' ||
        !body.client_assertion
      ) {
        return void res.status(400).json({ error: 'invalid_request' });
      }
      try {
        const { payload } = await jwtVerify(body.client_assertion, platform.keys.toolKeys, {
          issuer: platform.clientId,
          subject: platform.clientId,
          audience: tokenUrl(platform),
        });
        if (!payload.jti) throw new Error('jti missing');
      } catch {
        memory.tokenExchanges.push({ clientAssertion: body.client_assertion, accessToken: null, scopes: [] });
        return void res.status(401).json({ error: 'invalid_client' });
      }
      const requested = String(body.scope ?? '')
        .split(' ')
        .filter(Boolean);
      const granted = requested.filter((scope) => Object.values(SCOPES).includes(scope));
      if (granted.length === 0) return void res.status(400).json({ error: 'invalid_scope' });
      const token = randomBytes(24).toString('base64url');
      memory.accessTokens.set(token, { token, scopes: granted, expiresAt: Date.now() + ACCESS_TOKEN_SECONDS * 1000 });
      memory.tokenExchanges.push({ clientAssertion: body.client_assertion, accessToken: token, scopes: granted });
      res.json({
        access_token: token,
        token_type: 'Bearer',
        expires_in: ACCESS_TOKEN_SECONDS,
        scope: granted.join(' '),
      });
    },
  ] as const;
}

/**
 * Express middleware for a service endpoint: a live bearer token with one of the scopes (Security Framework 4.1),
 * else 401 (no token, or not one this platform issued and still live) or 403 (not granted that scope).
 */
export function requireGrant(platform: PlatformContext, ...scopes: string[]) {
  return (req: Request, res: Response, next: () => void) => {
    const header = req.headers.authorization ?? '';
    const token = platform.memory.accessTokens.get(header.startsWith('Bearer ') ? header.slice(7) : '');
    if (!token || token.expiresAt < Date.now()) return void res.status(401).json({ error: 'invalid or expired token' });
    if (!scopes.some((scope) => token.scopes.includes(scope)))
      return void res.status(403).json({ error: 'scope not granted' });
    next();
  };
}

/** `requireGrant` for the AGS and NRPS endpoints, after the faults the tests switch on (a held answer, an error status). */
export function requireScope(platform: PlatformContext, ...scopes: string[]) {
  const { memory } = platform;
  const grant = requireGrant(platform, ...scopes);
  return async (req: Request, res: Response, next: () => void) => {
    if (memory.faults.agsDelayMs) {
      memory.heldRequests += 1;
      await new Promise((resolve) => setTimeout(resolve, memory.faults.agsDelayMs)).finally(
        () => (memory.heldRequests -= 1),
      );
    }
    if (memory.faults.agsStatus)
      return void res.status(memory.faults.agsStatus).json({ error: 'switched on by the test' });
    grant(req, res, next);
  };
}
