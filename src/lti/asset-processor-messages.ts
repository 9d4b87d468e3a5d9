// The launches the tool verifies itself: the Asset Processor's report review, the processor's settings and the EULA,
// and submission review (submission-review.ts, https://www.imsglobal.org/spec/lti-sr/v1p0/). ltijs 5.9.9 refuses any
// message type but LtiResourceLinkRequest and LtiDeepLinkingRequest (dist/Utils/Auth.js, claimValidation), so the
// tool verifies these itself, with every check ltijs makes and none loosened, then records them exactly as ltijs
// records a launch, so that the ltik they end with is an ordinary page session (session.ts).
//
// Checks, after the guard in front of every launch (web/lti-guard.ts: the state the tool issued at login and still
// unused, issued for this issuer and not another browser's; the issuer, client and deployment registered and
// switched on; the platform's key for the token's kid, fetched under a deadline):
// - the signature with that key, RS256, iss, aud (azp when aud names several), exp and iat present, unexpired
//   (platform-token.ts; OpenID Connect Core 3.1.3.7), with no clock tolerance, as ltijs;
// - iat at most ltijs's tokenMaxAge (10 s) ago;
// - LTI Core 5.3 (https://www.imsglobal.org/spec/lti/v1p3/#required-message-claims): version 1.3.0, the message
//   type, deployment_id (registered for this platform, checked again here), sub, roles;
// - the nonce, required and accepted once (OpenID Connect Core 3.1.3.7 step 11): the launch's one write (launch.ts)
//   records it with the state used up, or writes nothing at all.
// Message types: https://standards.1edtech.org/lti/specifications/proposals/asset-processor ; Canvas:
// doc/api/document_processor.md
import { createHash } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import type { Kysely } from 'kysely';
import type { LaunchToken } from './platform.js';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { ASSET_PROCESSOR_MESSAGES, EULA_MESSAGE } from './asset-processor.js';
import { CLAIM, withStandardNames } from './claims.js';
import { readLaunch, recordLaunch, type Launch, type LaunchIdentity } from './launch.js';
import { SUBMISSION_REVIEW_MESSAGE } from './submission-review.js';
import { currentLaunch } from './launch-scope.js';
import { PlatformTokenInvalid, verifyPlatformToken } from './platform-token.js';
import { findDeployment } from './registrations.js';
import type { PostgresLtiStorage } from './storage.js';

/** The message types this file verifies; ltijs takes the others. */
export const OWN_MESSAGE_TYPES = [
  ASSET_PROCESSOR_MESSAGES.reportReview,
  ASSET_PROCESSOR_MESSAGES.settings,
  EULA_MESSAGE,
  SUBMISSION_REVIEW_MESSAGE,
] as const;
export type OwnMessageType = (typeof OWN_MESSAGE_TYPES)[number];

/** ltijs's default tokenMaxAge: an id_token issued longer ago than this is refused (dist/Provider/Provider.js). */
const TOKEN_MAX_AGE_SECONDS = 10;

/** A launch refused: a status, a sentence for the person, and a detail for the log. Nothing was written. */
export class MessageLaunchRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'MessageLaunchRefused';
  }
}

const NOT_VERIFIED =
  'The launch from your LMS could not be verified. Open it again from your course; if this keeps happening, tell your LMS administrator.';

/** The message type an id_token claims, read before anything is verified: only to decide who verifies it. */
export function claimedOwnMessageType(idToken: string): OwnMessageType | null {
  try {
    const type = decodeJwt(idToken)[CLAIM.messageType];
    return OWN_MESSAGE_TYPES.find((own) => own === type) ?? null;
  } catch {
    return null;
  }
}

const coreClaims = z.object({
  iss: z.string().min(1),
  sub: z.string().min(1).max(255), // LTI core 5.3.6
  nonce: z.string().min(1).max(1000),
  iat: z.number(),
  [CLAIM.version]: z.literal('1.3.0'),
  [CLAIM.messageType]: z.enum(OWN_MESSAGE_TYPES),
  [CLAIM.deploymentId]: z.string().min(1).max(255),
  [CLAIM.roles]: z.array(z.string()),
});

export interface VerifiedMessage {
  messageType: OwnMessageType;
  platformId: string;
  clientId: string;
  /** The whole verified payload, for the part that reads the message's own claims. */
  claims: Record<string, unknown>;
}

/** Verifies a posted id_token of one of the own message types, inside the guard's launch scope; throws MessageLaunchRefused. */
export async function verifyMessageLaunch(db: Kysely<DatabaseSchema>, idToken: string): Promise<VerifiedMessage> {
  const passage = currentLaunch();
  if (!passage)
    throw new Error(
      "A launch of the tool's own message types is verified behind the launch guard, which found its state and key.",
    );
  let header;
  try {
    header = decodeProtectedHeader(idToken);
  } catch {
    throw new MessageLaunchRefused(401, NOT_VERIFIED, 'not a JWT');
  }
  if (header.alg !== 'RS256' || header.kid !== passage.key.kid)
    throw new MessageLaunchRefused(401, NOT_VERIFIED, `header alg ${String(header.alg)} kid ${String(header.kid)}`);
  let payload;
  try {
    payload = await verifyPlatformToken(idToken, passage.key, {
      issuer: passage.issuer,
      clientId: passage.clientId,
      clockToleranceSeconds: 0,
    });
  } catch (error) {
    if (!(error instanceof PlatformTokenInvalid)) throw error;
    throw new MessageLaunchRefused(401, NOT_VERIFIED, error.message);
  }
  const parsed = coreClaims.safeParse(payload);
  if (!parsed.success)
    throw new MessageLaunchRefused(
      400,
      'Your LMS sent a launch without information the tool needs. Tell your LMS administrator.',
      `claims: ${parsed.error.issues[0]!.path.join('.')}`,
    );
  const claims = parsed.data;
  // The state the login issued names the issuer it was issued for (ltijs: the state cookie's value).
  if (passage.state.issuer !== claims.iss)
    throw new MessageLaunchRefused(401, NOT_VERIFIED, 'issuer differs from the login');
  if (Date.now() / 1000 - claims.iat > TOKEN_MAX_AGE_SECONDS)
    throw new MessageLaunchRefused(401, NOT_VERIFIED, 'token too old');
  const deployment = await findDeployment(db, {
    issuer: claims.iss,
    clientId: passage.clientId,
    deploymentId: claims[CLAIM.deploymentId],
  });
  if (!deployment?.active)
    throw new MessageLaunchRefused(
      403,
      'This LMS (or this deployment of the tool in it) is not registered with the tool, or is switched off. Ask your LMS administrator.',
      'deployment not registered or off',
    );
  // Each LMS's names read as the standard ones (claims.ts), now that the payload is verified.
  return {
    messageType: claims[CLAIM.messageType],
    platformId: deployment.platformId,
    clientId: passage.clientId,
    claims: withStandardNames(payload as Record<string, unknown>),
  };
}

export interface RecordedMessageLaunch extends LaunchIdentity {
  ltik: string;
  launch: Launch;
}

export interface MessageSessionDeps {
  db: Kysely<DatabaseSchema>;
  /** ltijs's storage plugin: inside the launch scope it defers the nonce and session records to the launch's one write. */
  storage: Pick<PostgresLtiStorage, 'Insert' | 'Replace'>;
  encryptionKey: string;
}

/**
 * Records a verified launch as ltijs records one (dist/Provider/Provider.js, the id_token branch of its launch
 * handling): the id token per platform, deployment and user, the context token per launch context and user, and an
 * ltik naming them, signed with the tool's key. `own` is what the page session keeps of the message's own claims
 * (ltijs would drop them); it is part of the context's identity, so that two launches of different messages never
 * share a session record. Throws LaunchRefused when the state or nonce was used meanwhile (nothing written then).
 */
export async function recordMessageLaunch(
  deps: MessageSessionDeps,
  verified: VerifiedMessage,
  path: string,
  own: Record<string, unknown>,
): Promise<RecordedMessageLaunch> {
  const valid = verified.claims;
  const { clientId } = verified;
  const state = currentLaunch()!.state.state;
  const iss = String(valid.iss);
  const sub = String(valid.sub);
  const deploymentId = String(valid[CLAIM.deploymentId]);
  const context = valid[CLAIM.context] as { id?: string } | undefined;
  const resource = valid[CLAIM.resourceLink] as { id?: string } | undefined;
  const additional = {
    path,
    roles: valid[CLAIM.roles],
    targetLinkUri: valid[CLAIM.targetLinkUri],
    custom: valid[CLAIM.custom],
    launchPresentation: valid[CLAIM.launchPresentation],
    endpoint: valid[CLAIM.agsEndpoint],
    namesRoles: valid[CLAIM.namesRoleService],
  };
  const hash = createHash('sha256')
    .update(JSON.stringify({ ...additional, messageType: verified.messageType, own }))
    .digest('hex');
  const contextId = encodeURIComponent(
    `${iss}${clientId}${deploymentId}${context?.id ?? 'NF'}_${resource?.id ?? 'NF'}_${hash}`,
  );
  const platformCode = encodeURIComponent(`lti${Buffer.from(iss + clientId + deploymentId).toString('base64')}`);
  const platformToken = {
    iss,
    user: sub,
    userInfo: { given_name: valid.given_name, family_name: valid.family_name, name: valid.name, email: valid.email },
    platformInfo: valid[CLAIM.toolPlatform],
    clientId,
    // ltijs adds its own id of the registration here, which only its grade and deep-linking services read; these
    // launches use neither.
    deploymentId,
  };
  const contextToken = {
    contextId,
    user: sub,
    context,
    resource,
    messageType: verified.messageType,
    version: valid[CLAIM.version],
    lis: valid[CLAIM.lis],
    ...additional,
    assetProcessorMessage: own,
  };
  // JSON drops what is undefined, as ltijs's stored records do.
  const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  await deps.storage.Insert(false, 'nonce', { nonce: String(valid.nonce) });
  await deps.storage.Replace(false, 'idtoken', { iss, clientId, deploymentId, user: sub }, plain(platformToken));
  await deps.storage.Replace(false, 'contexttoken', { contextId, user: sub }, plain(contextToken));
  const launch = readLaunch({
    ...plain(platformToken),
    platformContext: plain(contextToken),
  } as unknown as LaunchToken);
  const identity = await recordLaunch(deps.db, launch);
  const ltik = await new SignJWT({
    platformUrl: iss,
    clientId,
    deploymentId,
    platformCode,
    contextId,
    user: sub,
    s: state,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(new TextEncoder().encode(deps.encryptionKey));
  return { ...identity, ltik, launch };
}

/** What a page session kept of its launch's own claims (recordMessageLaunch's `own`); null for other launches. */
export function ownClaimsOf(idToken: LaunchToken): Record<string, unknown> | null {
  const kept = (idToken as unknown as { platformContext?: { assetProcessorMessage?: unknown } }).platformContext
    ?.assetProcessorMessage;
  return kept && typeof kept === 'object' ? (kept as Record<string, unknown>) : null;
}
