// A verified launch (verify-launch.ts) becomes a page session: the launch in its one shape (launch.ts), kept as one
// record with the launch's one statement (recordLaunch), and its ltik, a JWT signed with the tool's key that names
// the record (session.ts reads it back) and its platform, which the one sentence that answers a session that ended
// is framed by (framing.ts).
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { recordLaunch, type Launch, type RecordedIdentity } from './launch.js';
import { signLtik } from './ltik.js';
import { launchRecord, sessionRecordKey } from './storage.js';
import type { VerifiedLaunch } from './verify-launch.js';

export interface StartedSession<L extends Launch = Launch> extends RecordedIdentity {
  ltik: string;
  launch: L;
}

export interface SessionStart {
  db: Kysely<DatabaseSchema>;
  encryptionKey: string;
}

/**
 * Records a verified launch and issues its ltik. The record is keyed by the launch's context, resource link and what
 * it says (a hash of the launch as kept and the path it came to), and its user: the same launch again takes the same
 * record, two launches that differ never share one. Throws LaunchRefused when the state or nonce was used meanwhile, or the registrations changed since
 * the guard read them (nothing written then).
 */
export async function startLaunchSession(
  deps: SessionStart,
  verified: VerifiedLaunch,
  path: string,
): Promise<StartedSession> {
  const { launch } = verified;
  const { issuer, clientId, deploymentId } = launch;
  const hash = createHash('sha256').update(JSON.stringify({ path, launch })).digest('hex');
  const contextId = encodeURIComponent(
    `${issuer}${clientId}${deploymentId}${launch.context?.id ?? 'NF'}_${launch.resourceLink?.id ?? 'NF'}_${hash}`,
  );
  const { state, registrations, firstDeployment } = verified.passage;
  const identity = await recordLaunch(deps.db, launch, {
    state: { value: state.state, expiresAt: state.expiresAt },
    registrations,
    firstDeployment,
    nonce: launchRecord('nonce', { nonce: verified.nonce }),
    records: [launchRecord('session', { launch }, sessionRecordKey({ contextId, user: launch.subject }))],
  });
  const ltik = signLtik(
    {
      platformUrl: issuer,
      clientId,
      deploymentId,
      contextId,
      user: launch.subject,
    },
    deps.encryptionKey,
  );
  return { ...identity, ltik, launch };
}
