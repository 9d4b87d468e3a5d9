// What arrived since an instructor's last visit: each instructor's visits to an assignment's dashboard, one per launch's
// session (sorting and filtering within it are the same visit), so that the dashboard can mark the results that
// arrived since the visit before this one.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';

/**
 * Records that the instructor opened the dashboard in this session and returns when their visit before it began
 * (null: this is their first). One statement: a new session moves the visit on, the same session keeps it.
 */
export async function dashboardVisit(
  db: Kysely<DatabaseSchema>,
  visit: { assignmentId: string; userId: string; ltik: string },
): Promise<Date | null> {
  const session = createHash('sha256').update(visit.ltik).digest('base64url');
  const { rows } = await sql<{ previous_seen_at: Date | null }>`
    INSERT INTO instructor_visit AS v (assignment_id, user_id, session_hash, seen_at, previous_seen_at)
    VALUES (${visit.assignmentId}::uuid, ${visit.userId}::uuid, ${session}, now(), NULL)
    ON CONFLICT (assignment_id, user_id) DO UPDATE
       SET session_hash = excluded.session_hash, seen_at = now(), previous_seen_at = v.seen_at
     WHERE v.session_hash <> excluded.session_hash
    RETURNING previous_seen_at`.execute(db);
  if (rows[0]) return rows[0].previous_seen_at;
  // The same session as before: its visit stands.
  const row = await db
    .selectFrom('instructor_visit')
    .select('previous_seen_at')
    .where('assignment_id', '=', visit.assignmentId)
    .where('user_id', '=', visit.userId)
    .executeTakeFirst();
  return row?.previous_seen_at ?? null;
}
