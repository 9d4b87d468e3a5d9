// The one verifier of every launch the tool takes: resource link, deep linking, submission review, and the Asset
// Processor's report review, settings and EULA. What is particular to a message type lives in its own file
// (messages/, one per type, named by the table in messages/index.ts); the checks every message shares are here,
// once, and none of them is loosened for any type. What comes out is the launch in its one shape (launch.ts).
// The notices of the Platform Notification Service are not launches (no browser, no state): notice.ts verifies them
// with the same signature check (platform-token.ts).
//
// Before this, the launch's admission (launch-flow.ts) has found, for the token as posted and not yet trusted:
// the state the tool issued at login, unused, for this issuer and not another browser's; the issuer, client and
// deployment registered and switched on; the platform's key for the token's kid, fetched under a deadline. Then:
// - the signature with that key, RS256, iss, aud (azp when aud names several), exp and iat present, unexpired,
//   with no clock tolerance (platform-token.ts; OpenID Connect Core 3.1.3.7, LTI Security Framework 5.1.3);
// - iat at most 10 s ago (the LMS's page posts a launch the moment it is signed);
// - LTI Core 5.3 (https://www.imsglobal.org/spec/lti/v1p3/#required-message-claims): version 1.3.0, a message type
//   the tool takes, deployment_id (the one the guard found registered), sub, roles;
// - the nonce present; it is accepted once by the launch's one write (launch.ts, OpenID Connect Core 3.1.3.7
//   step 11), which writes nothing at all for a nonce seen before;
// - the claims every message may carry, within the spec's limits (launch.ts), null read as absent (claims.ts);
// - the claims particular to the message type, read by its file through the table (messages/index.ts).
import { decodeProtectedHeader } from 'jose';
import { z } from 'zod';
import type { PlainKey } from '../i18n/index.js';
import { CLAIM, withStandardNames } from './claims.js';
import type { Jwk } from './jwk.js';
import { commonClaims, launchOf, type Launch } from './launch.js';
import { LAUNCH_MESSAGES, isLaunchMessageType, type LaunchMessage } from './messages/index.js';
import type { IssuedState } from './oidc-state.js';
import { PlatformTokenInvalid, verifyPlatformToken } from './platform-token.js';

/** An id_token issued longer ago than this is refused: the LMS posts a launch as soon as it signs it. */
const TOKEN_MAX_AGE_SECONDS = 10;

/** What the guard found for the launch before anything of its token was trusted. */
export interface LaunchPassage {
  issuer: string;
  clientId: string;
  deploymentId: string;
  /** The registered platform the issuer and client name, switched on. */
  platformId: string;
  /**
   * The deployment is the platform's first: it named none at registration (registrations.ts, findDeployment), and
   * the launch's write takes this one as its own once the launch is verified (launch.ts).
   */
  firstDeployment: boolean;
  /** The platform's key for the token's kid (platform-keys.ts). */
  key: Jwk;
  /** The state the launch came back with, as the login signed it (oidc-state.ts). */
  state: IssuedState;
  /**
   * The registrations' version the guard's reads were good for (registration-cache.ts): the launch's write takes
   * effect only while it is still the current one. Null: it moved while the guard read.
   */
  registrations: string | null;
}

/** A launch refused by its verification: a status, what the person reads, and a detail for the log. Nothing was written. */
export class LaunchNotVerified extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly sentence: PlainKey,
    readonly detail: string,
  ) {
    super(`Launch not verified: ${detail}`);
    this.name = 'LaunchNotVerified';
  }
}

const coreClaims = z.object({
  iss: z.string().min(1),
  sub: z.string().min(1).max(255), // LTI core 5.3.6
  nonce: z.string().min(1).max(1000),
  iat: z.number(),
  [CLAIM.version]: z.literal('1.3.0'),
  [CLAIM.messageType]: z.string().min(1).max(200),
  [CLAIM.deploymentId]: z.string().min(1).max(255),
  [CLAIM.roles]: z.array(z.string()),
});

export interface VerifiedLaunch {
  passage: LaunchPassage;
  /** The launch as the session keeps it and the routes get it. */
  launch: Launch;
  /** The nonce, which the launch's one write accepts once (launch.ts). */
  nonce: string;
}

/** The verified launch of a posted id_token; throws LaunchNotVerified. */
export async function verifyLaunch(idToken: string, passage: LaunchPassage): Promise<VerifiedLaunch> {
  let header;
  try {
    header = decodeProtectedHeader(idToken);
  } catch {
    throw new LaunchNotVerified(401, 'launch.notVerified', 'not a JWT');
  }
  if (header.alg !== 'RS256' || header.kid !== passage.key.kid)
    throw new LaunchNotVerified(
      401,
      'launch.notVerified',
      `header alg ${String(header.alg)} kid ${String(header.kid)}`,
    );
  let payload;
  try {
    payload = await verifyPlatformToken(idToken, passage.key, {
      issuer: passage.issuer,
      clientId: passage.clientId,
      clockToleranceSeconds: 0,
    });
  } catch (error) {
    if (!(error instanceof PlatformTokenInvalid)) throw error;
    throw new LaunchNotVerified(401, 'launch.notVerified', error.message);
  }
  // A token without the claims every LTI 1.3 message carries is not a launch the tool can verify;
  // one whose message type lacks what is particular to it is an incomplete launch, told to the LMS's administrator.
  const core = coreClaims.safeParse(payload);
  if (!core.success)
    throw new LaunchNotVerified(401, 'launch.notVerified', `claims: ${core.error.issues[0]!.path.join('.')}`);
  const claims = core.data;
  // The state the login issued names the issuer it was issued for.
  if (!passage.state.isFor(claims.iss))
    throw new LaunchNotVerified(401, 'launch.notVerified', 'issuer differs from the login');
  if (Date.now() / 1000 - claims.iat > TOKEN_MAX_AGE_SECONDS)
    throw new LaunchNotVerified(401, 'launch.notVerified', 'token too old');
  // The guard found this deployment registered and switched on, read from the same token before it was verified.
  if (claims[CLAIM.deploymentId] !== passage.deploymentId)
    throw new LaunchNotVerified(401, 'launch.notVerified', 'deployment differs from the one the guard found');
  const messageType = claims[CLAIM.messageType];
  if (!isLaunchMessageType(messageType))
    throw new LaunchNotVerified(401, 'launch.notOffered', `message type ${messageType}`);
  const standard = withStandardNames(payload as Record<string, unknown>);
  const common = commonClaims.safeParse(standard);
  if (!common.success)
    throw new LaunchNotVerified(400, 'launch.incomplete', `claims: ${common.error.issues[0]!.path.join('.')}`);
  const message = (LAUNCH_MESSAGES[messageType].claims as z.ZodType<LaunchMessage>).safeParse(standard);
  if (!message.success)
    throw new LaunchNotVerified(
      400,
      'launch.incomplete',
      `${messageType} claims: ${message.error.issues[0]!.path.join('.')}`,
    );
  const { issuer, clientId, deploymentId } = passage;
  return {
    passage,
    nonce: claims.nonce,
    launch: launchOf({ issuer, clientId, deploymentId }, claims.sub, claims[CLAIM.roles], common.data, message.data),
  };
}
