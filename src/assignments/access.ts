// Which assignment a request may touch: only one of the asker's own platform and course. An id from elsewhere
// (another course, another platform, or no assignment at all) opens nothing.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { getAssignment, type Assignment } from './store.js';

const assignmentId = z.string().uuid();

/** The assignment, if the asker's platform and course are its own; 404 when there is none, 403 when it is another course's. */
export async function assignmentFor(
  db: Kysely<DatabaseSchema>,
  asker: { platformId: string; courseId: string | null },
  id: unknown,
): Promise<Assignment | 403 | 404> {
  const parsed = assignmentId.safeParse(id);
  if (!parsed.success) return 404;
  const assignment = await getAssignment(db, parsed.data);
  if (!assignment) return 404;
  if (assignment.platformId !== asker.platformId || assignment.courseId !== asker.courseId) return 403;
  return assignment;
}
