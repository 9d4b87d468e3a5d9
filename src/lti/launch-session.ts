// A verified launch (verify-launch.ts) becomes a page session: its records and its ltik, in the shapes ltijs 5.9.9
// gave them (dist/Provider/Provider.js, the id_token branch of its launch handling), so that session.ts reads every
// session alike and ltijs signs a deep-linking answer from it (DeepLinking.js reads the id token and the context's
// deepLinkingSettings). The records go out in the launch's one statement with the person and the course (launch.ts).
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { Alongside } from './alongside.js';
import { assetProcessorContextOf } from './asset-processor-launch.js';
import { CLAIM } from './claims.js';
import { DEEP_LINKING_MESSAGE } from './deep-linking.js';
import { readLaunch, recordLaunch, type Launch, type RecordedIdentity } from './launch.js';
import type { LaunchToken } from './platform.js';
import { ltikKey } from './session.js';
import { launchRecord } from './storage.js';
import type { VerifiedLaunch } from './verify-launch.js';

export interface StartedSession extends RecordedIdentity {
  ltik: string;
  launch: Launch;
}

export interface SessionStart {
  db: Kysely<DatabaseSchema>;
  encryptionKey: string;
}

/** JSON drops what is undefined, as the stored records do. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Records a verified launch and issues its ltik: the id token per platform, deployment and user, the context token
 * per launch context and user, and an ltik naming them, signed with the tool's key. `own` is what the session keeps
 * of the message's own claims (report review, settings, EULA, submission review); it is part of the context's
 * identity, so that two launches of different messages never share a session record. `alongside` names what to read
 * in the same statement (launch.ts). Throws LaunchRefused when the state or nonce was used meanwhile, or the
 * registrations changed since the guard read them (nothing written then).
 */
export async function startLaunchSession(
  deps: SessionStart,
  verified: VerifiedLaunch,
  path: string,
  options: { own?: Record<string, unknown> | null; alongside?: (launch: Launch) => Alongside | null } = {},
): Promise<StartedSession> {
  const valid = verified.claims;
  const { issuer: iss, clientId, deploymentId } = verified.passage;
  const sub = String(valid.sub);
  const own = options.own ?? null;
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
  const idToken = plain({
    iss,
    user: sub,
    userInfo: { given_name: valid.given_name, family_name: valid.family_name, name: valid.name, email: valid.email },
    platformInfo: valid[CLAIM.toolPlatform],
    clientId,
    // ltijs added its own id of the registration here, which only its grade service read; the tool's does not.
    deploymentId,
  });
  const contextToken = plain({
    contextId,
    user: sub,
    context,
    resource,
    messageType: verified.messageType,
    version: valid[CLAIM.version],
    deepLinkingSettings: valid[CLAIM.deepLinkingSettings],
    lis: valid[CLAIM.lis],
    ...additional,
    // What ltijs would have dropped: an Asset Processor's deep linking (its LMS assignment and notification service),
    // and the tool's own messages' claims.
    ...(verified.messageType === DEEP_LINKING_MESSAGE ? { assetProcessor: assetProcessorContextOf(valid) } : {}),
    ...(own ? { assetProcessorMessage: own } : {}),
  });
  const launch = readLaunch({ ...idToken, platformContext: contextToken } as unknown as LaunchToken);
  const { state, registrations } = verified.passage;
  const identity = await recordLaunch(
    deps.db,
    launch,
    {
      state: { value: state.state, expiresAt: state.expiresAt },
      registrations,
      nonce: launchRecord('nonce', { nonce: String(valid.nonce) }),
      records: [
        launchRecord('idtoken', idToken),
        launchRecord('contexttoken', contextToken as Record<string, unknown>),
      ],
    },
    options.alongside?.(launch) ?? null,
  );
  const ltik = await new SignJWT({
    platformUrl: iss,
    clientId,
    deploymentId,
    platformCode,
    contextId,
    user: sub,
    // ltijs kept the state here; its signature part names it as well, at a fifth of its length.
    s: state.state.split('.')[1] ?? '',
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(ltikKey(deps.encryptionKey));
  return { ...identity, ltik, launch };
}

/** What a page session kept of its launch's own claims (startLaunchSession's `own`); null for other launches. */
export function ownClaimsOf(idToken: LaunchToken): Record<string, unknown> | null {
  const kept = (idToken as unknown as { platformContext?: { assetProcessorMessage?: unknown } }).platformContext
    ?.assetProcessorMessage;
  return kept && typeof kept === 'object' ? (kept as Record<string, unknown>) : null;
}
