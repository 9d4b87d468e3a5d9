// A page request's session: the ltik issued at launch (launch-session.ts; a JWT signed with the tool's key, as ltijs
// made them, carried in the URL or a header, never a cookie, so it works in an LMS iframe that blocks third-party
// cookies), and the launch it stands for, read back as it was kept (launch.ts's one shape).
import { decodeJwt, jwtVerify } from 'jose';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import type { Alongside, ReadAlongside } from './alongside.js';
import type { Launch, LaunchIdentity } from './launch.js';
import { sessionRecordKey } from './storage.js';

/**
 * The shape of the launch a session record keeps (launch.ts's Launch). The tool wrote every such record, so it is read
 * back as it was written; a record of another shape (from a release that kept launches otherwise) is a session that
 * ended, and its person opens the tool again from the LMS.
 */
export const LAUNCH_SHAPE = 1;

const ltikPayload = z.object({
  platformUrl: z.string(),
  clientId: z.string(),
  deploymentId: z.string(),
  contextId: z.string(),
  user: z.string(),
});

export interface Session extends LaunchIdentity {
  ltik: string;
  launch: Launch;
  /** What the page asked to read in the session's round trip (alongside.ts); absent when it asked nothing. */
  alongside?: readonly ReadAlongside[];
}

export type SessionProblem = 'invalid' | 'expired';

/**
 * The platform an ltik says it was issued for, read without verifying it: only to let that platform's frame show
 * the one sentence that answers a session that ended or a key that is no key, never to trust anything.
 */
export function ltikPlatform(ltik: string): { issuer: string; clientId: string } | null {
  try {
    const claims = ltikPayload.safeParse(decodeJwt(ltik));
    return claims.success ? { issuer: claims.data.platformUrl, clientId: claims.data.clientId } : null;
  } catch {
    return null;
  }
}

interface SessionRow {
  doc: { shape?: unknown; launch?: Launch };
  alongside: unknown;
  platform_id: string | null;
  user_id: string | null;
  course_id: string | null;
}

/**
 * The ltik's key as jose takes it, made once per encryption key: jose keeps the key object it makes for one array,
 * and a new array per page costs it a new key object (bench/ltijs-parts.ts).
 */
const ltikKeys = new Map<string, Uint8Array>();
export function ltikKey(encryptionKey: string): Uint8Array {
  let key = ltikKeys.get(encryptionKey);
  if (!key) {
    key = new TextEncoder().encode(encryptionKey);
    ltikKeys.set(encryptionKey, key);
  }
  return key;
}

/**
 * The session an ltik stands for, in one round trip. `alongside` is read in the same statement: each query may name
 * `platform(id)`, `lti_user(id)` and `course(id)`, the session's platform, person and course (alongside.ts).
 */
export async function resolveSession(
  deps: { db: Kysely<DatabaseSchema>; encryptionKey: string },
  ltik: string,
  alongside: readonly Alongside[] = [],
): Promise<Session | SessionProblem> {
  let claims: z.infer<typeof ltikPayload>;
  try {
    const { payload } = await jwtVerify(ltik, ltikKey(deps.encryptionKey), { algorithms: ['HS256'] });
    claims = ltikPayload.parse(payload);
  } catch {
    return 'invalid';
  }
  // One round trip: the record the ltik stands for and the platform, user and course it names (and what the page
  // asked to read alongside).
  const { rows } = await sql<SessionRow>`
    SELECT session.doc, platform.id AS platform_id, lti_user.id AS user_id, course.id AS course_id,
           ${alongside.length > 0 ? sql`json_build_array(${sql.join(alongside.map((entry) => sql`(${entry.query})`))})` : sql`NULL`} AS alongside
      FROM lti_record AS session
      LEFT JOIN platform ON platform.issuer = ${claims.platformUrl} AND platform.client_id = ${claims.clientId} AND platform.active
      LEFT JOIN lti_user ON lti_user.platform_id = platform.id AND lti_user.subject = ${claims.user}
      -- The launch's course is its context in its deployment (launch.ts keys courses so).
      LEFT JOIN course ON course.platform_id = platform.id AND course.deployment_id = ${claims.deploymentId}
       AND course.context_id = session.doc -> 'launch' -> 'context' ->> 'id'
     WHERE session.collection = 'session' AND session.record_key = ${sessionRecordKey(claims)}
       AND (session.expires_at IS NULL OR session.expires_at > now())`.execute(deps.db);
  const row = rows[0];
  if (!row || row.doc.shape !== LAUNCH_SHAPE || !row.doc.launch) return 'expired';
  if (!row.platform_id || !row.user_id) return 'expired';
  return {
    ltik,
    launch: row.doc.launch,
    platformId: row.platform_id,
    userId: row.user_id,
    courseId: row.course_id,
    ...(alongside.length > 0
      ? { alongside: alongside.map((entry, i) => ({ key: entry.key, row: (row.alongside as unknown[])[i] ?? null })) }
      : {}),
  };
}
