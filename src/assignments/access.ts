// Which assignment a request may touch: only one of the asker's own platform and course. An id from elsewhere
// (another course, another platform, or no assignment at all) opens nothing.
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { alongsideRow, type Alongside, type ReadAlongside } from '../lti/alongside.js';
import { assignmentFromJson, getAssignment, type Assignment } from './store.js';

const assignmentId = z.string().uuid();
const keyOf = (id: string) => `assignment ${id.toLowerCase()}`;

/**
 * The assignment a page's path names, to be read in its session's round trip (lti/session.ts); null when the
 * path names none. assignmentFor then takes it from the session instead of reading it again.
 */
export function assignmentAlongside(id: unknown): Alongside | null {
  const parsed = assignmentId.safeParse(id);
  if (!parsed.success) return null;
  return {
    key: keyOf(parsed.data),
    query: sql`SELECT to_jsonb(a) FROM assignment AS a WHERE a.id = ${parsed.data}::uuid`,
  };
}

/** The assignment, if the asker's platform and course are its own; 404 when there is none, 403 when it is another course's. */
export async function assignmentFor(
  db: Kysely<DatabaseSchema>,
  asker: { platformId: string; courseId: string | null; alongside?: readonly ReadAlongside[] },
  id: unknown,
): Promise<Assignment | 403 | 404> {
  const parsed = assignmentId.safeParse(id);
  if (!parsed.success) return 404;
  const read = alongsideRow(asker.alongside, keyOf(parsed.data));
  const assignment = read
    ? read.row === null
      ? null
      : assignmentFromJson(read.row)
    : await getAssignment(db, parsed.data);
  if (!assignment) return 404;
  if (assignment.platformId !== asker.platformId || assignment.courseId !== asker.courseId) return 403;
  return assignment;
}
