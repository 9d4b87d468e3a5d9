// Which assignment a page request may touch: only one of the session's own platform and course.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { getAssignment, type Assignment } from '../assignments/store.js';
import type { DatabaseSchema } from '../db/index.js';
import type { Session } from '../lti/session.js';

const assignmentId = z.string().uuid();

/** The assignment, if the session's platform and course are its own. */
export async function assignmentFor(db: Kysely<DatabaseSchema>, session: Session, id: unknown): Promise<Assignment | 403 | 404> {
  const parsed = assignmentId.safeParse(id);
  if (!parsed.success) return 404;
  const assignment = await getAssignment(db, parsed.data);
  if (!assignment) return 404;
  if (assignment.platformId !== session.platformId || assignment.courseId !== session.courseId) return 403;
  return assignment;
}

