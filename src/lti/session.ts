// A page request's session: the ltik issued at launch (ltik.ts, launch-session.ts), and the launch it stands for,
// read back as it was kept (launch.ts's one shape).
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { Launch, LaunchIdentity } from './launch.js';
import { readLtik } from './ltik.js';
import { sessionRecordKey } from './storage.js';

export interface Session extends LaunchIdentity {
  ltik: string;
  launch: Launch;
}

export type SessionProblem = 'invalid' | 'expired';

interface SessionRow {
  /** The launch as launch-session.ts kept it (launch.ts's Launch), read back as it was written. */
  doc: { launch?: Launch };
  platform_id: string | null;
  user_id: string | null;
  course_id: string | null;
}

/** The session an ltik stands for, in one round trip. */
export async function resolveSession(
  deps: { db: Kysely<DatabaseSchema>; encryptionKey: string },
  ltik: string,
): Promise<Session | SessionProblem> {
  const claims = readLtik(ltik, deps.encryptionKey);
  if (typeof claims === 'string') return claims;
  // One round trip: the record the ltik stands for and the platform, user and course it names.
  const { rows } = await sql<SessionRow>`
    SELECT session.doc, platform.id AS platform_id, lti_user.id AS user_id, course.id AS course_id
      FROM lti_record AS session
      LEFT JOIN platform ON platform.issuer = ${claims.platformUrl} AND platform.client_id = ${claims.clientId} AND platform.active
      LEFT JOIN lti_user ON lti_user.platform_id = platform.id AND lti_user.subject = ${claims.user}
      -- The launch's course is its context in its deployment (launch.ts keys courses so).
      LEFT JOIN course ON course.platform_id = platform.id AND course.deployment_id = ${claims.deploymentId}
       AND course.context_id = session.doc -> 'launch' -> 'context' ->> 'id'
     WHERE session.collection = 'session' AND session.record_key = ${sessionRecordKey(claims)}
       AND (session.expires_at IS NULL OR session.expires_at > now())`.execute(deps.db);
  const row = rows[0];
  if (!row?.doc.launch) return 'expired';
  if (!row.platform_id || !row.user_id) return 'expired';
  return {
    ltik,
    launch: row.doc.launch,
    platformId: row.platform_id,
    userId: row.user_id,
    courseId: row.course_id,
  };
}
