// What the emulator's concerns share: who the platform is (issuer, client and deployment ids), its course, the
// tool's addresses as the platform registered them, its keys and its memory. Each concern mounts its routes with it.
import type { Router } from 'express';
import type { JWK, JWTVerifyGetKey } from 'jose';
import type { Course, PlatformMemory } from './state.js';

export interface ToolAddresses {
  loginUrl: string;
  launchUrl: string;
  jwksUrl: string;
  /** The tool's LTI Dynamic Registration address, which the page at /register-tool opens in its panel. */
  registerUrl?: string;
  /**
   * Whether the tool offers itself as an Asset Processor; false: the page offers none of the LMS's own assignments,
   * where one is attached (the tool would refuse it). Not said: offered, as a test's tool does.
   */
  assetProcessor?: boolean;
}

/** The platform's signing key and the tool's key set (keys.ts makes them). */
export interface PlatformKeys {
  publicJwk: JWK;
  /** The tool's published keys, fetched from its JWKS address and cached for a minute. */
  toolKeys: JWTVerifyGetKey;
  /** Signs any payload with the platform's key (tests forge launches with it or with another key). */
  sign(payload: Record<string, unknown>, options?: { expiresInSeconds?: number }): Promise<string>;
}

/**
 * Hosted Canvas's SSO host (sso.ts): where its keys, its OIDC authorization endpoint and its token endpoint are, apart
 * from each school's own host, which has the pages and the services.
 */
export interface SsoHost {
  /** Its published origin, as the platform names it (https://sso.canvaslms.com). */
  origin: string;
  /** Where its router answers (a server of the tests on loopback, which the tool is told to reach it at). */
  servedAt: string;
}

/** Canvas's paths on its SSO host (config/routes.rb: lti_authorize_redirect_url, lti_jwks_url, oauth2_token_url). */
export const SSO_PATHS = {
  authorize: '/api/lti/authorize_redirect',
  jwks: '/api/lti/security/jwks',
  token: '/login/oauth2/token',
} as const;

export interface PlatformContext {
  /** The `iss` of everything it signs: its own address, or the issuer it plays (hosted Canvas's shared one). */
  issuer: string;
  /** Where the router is reachable, without a trailing slash: the LMS's own host, its pages and services. */
  baseUrl: string;
  /** The SSO host it plays beside its own (hosted Canvas); null: keys, login and tokens are on baseUrl too. */
  sso: SsoHost | null;
  clientId: string;
  deploymentId: string;
  course: Course;
  tool: ToolAddresses;
  keys: PlatformKeys;
  memory: PlatformMemory;
}

/** A concern's routes: each file that answers HTTP exports one. */
export type MountConcern = (router: Router, platform: PlatformContext) => void;

/**
 * The product family the platform says it is, in the launch's tool_platform claim
 * (https://www.imsglobal.org/spec/lti/v1p3/#platform-instance-claim) and in its registration configuration
 * (https://www.imsglobal.org/spec/lti-dr/v1p0#platform-configuration): tools change behaviour on it, as ours does.
 */
export function productFamilyCode(platform: PlatformContext): string {
  return FAMILY_CODES[platform.memory.rules];
}

/** Each LMS's product family code as it sends it (src/lti/registrations.ts names them). */
const FAMILY_CODES: Record<PlatformContext['memory']['rules'], string> = {
  moodle: 'moodle',
  canvas: 'canvas',
  brightspace: 'desire2learn',
  blackboard: 'BlackboardLearn',
  spec: 'dev',
};

/** The prefix of LTI Core's claims (https://www.imsglobal.org/spec/lti/v1p3/#required-message-claims). */
export const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
