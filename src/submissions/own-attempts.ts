// A student's own attempts at an assignment, newest first, as their page and its status poll show them.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { attemptsOf, type Submission } from './store.js';

/** The session's own attempts at the assignment. */
export async function ownAttempts(
  db: Kysely<DatabaseSchema>,
  session: { userId: string },
  assignment: string,
): Promise<Submission[]> {
  return attemptsOf(db, assignment, session.userId);
}
