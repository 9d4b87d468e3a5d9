// The gradebook cell rule, in one place: a student's cell for an assignment belongs to their latest attempt that
// was not rejected. A rejected file never reached the checking service (wrong type, refused for good), so it was
// never really submitted and has nothing to show; every other attempt, checked or not, counts. Grade posts, the
// work sweep, the dashboard and deletion all ask this file.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { NOT_COUNTED } from './state.js';
import { attemptsOf, type Submission } from './store.js';

/**
 * SQL condition, true when the `submission` row named `alias` owns its student's cell: no later attempt of the
 * same student in the same assignment counts.
 */
export function ownsCell(alias: string): RawBuilder<boolean> {
  const row = sql.table(alias);
  return sql<boolean>`NOT EXISTS (SELECT 1 FROM submission later WHERE later.assignment_id = ${row}.assignment_id AND later.user_id = ${row}.user_id AND later.attempt > ${row}.attempt AND later.state <> ${NOT_COUNTED})`;
}

/** The attempt that owns the student's cell (their newest that counts), or null when none counts. */
export async function cellOwner(
  db: Kysely<DatabaseSchema>,
  assignmentId: string,
  userId: string,
): Promise<Submission | null> {
  return (await attemptsOf(db, assignmentId, userId, 'counted'))[0] ?? null;
}

/**
 * Whether the owner shows a score or a pending state in the cell. An owner that could not be checked (`failed`)
 * has nothing to show, so the cell is emptied under it, as when no attempt counts.
 */
export function cellShows(owner: Submission | null): owner is Submission {
  return owner !== null && owner.state !== 'failed';
}
