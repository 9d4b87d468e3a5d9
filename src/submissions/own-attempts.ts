// A student's own attempts at an assignment, newest first, as their page and its status poll show them: read in the
// session's round trip when the page asked for them there (lti/alongside.ts, web/require-session.ts), else alone.
import { sql, type Kysely, type Selectable } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema, SubmissionTable } from '../db/index.js';
import { alongsideRow, type Alongside, type ReadAlongside } from '../lti/alongside.js';
import { attemptsOf, toSubmission, type Submission } from './store.js';

const assignmentId = z.string().uuid();
const keyOf = (id: string) => `own attempts at ${id.toLowerCase()}`;

/**
 * The asker's attempts at the assignment a page's path names, to be read with the session (lti/session.ts), whose
 * person the query names as `lti_user`; null when the path names no assignment.
 */
export function ownAttemptsAlongside(id: unknown): Alongside | null {
  const parsed = assignmentId.safeParse(id);
  if (!parsed.success) return null;
  return {
    key: keyOf(parsed.data),
    query: sql`SELECT coalesce(jsonb_agg(to_jsonb(s) ORDER BY s.attempt DESC), '[]'::jsonb)
                 FROM submission AS s WHERE s.assignment_id = ${parsed.data}::uuid AND s.user_id = lti_user.id`,
  };
}

/** A submission row read as JSON (`to_jsonb`): its times come as text, its numbers as numbers. */
function submissionFromJson(row: unknown): Submission {
  const json = row as Omit<Selectable<SubmissionTable>, 'submitted_at' | 'scored_at' | 'replaced_at'> & {
    submitted_at: string;
    scored_at: string | null;
    replaced_at: string | null;
  };
  return toSubmission({
    ...json,
    submitted_at: new Date(json.submitted_at),
    scored_at: json.scored_at === null ? null : new Date(json.scored_at),
    replaced_at: json.replaced_at === null ? null : new Date(json.replaced_at),
  } as Selectable<SubmissionTable>);
}

/** The session's own attempts at the assignment: from the session's round trip when read there, else read now. */
export async function ownAttempts(
  db: Kysely<DatabaseSchema>,
  session: { userId: string; alongside?: readonly ReadAlongside[] },
  assignment: string,
): Promise<Submission[]> {
  const read = alongsideRow(session.alongside, keyOf(assignment));
  if (read && Array.isArray(read.row)) return read.row.map(submissionFromJson);
  return attemptsOf(db, assignment, session.userId);
}
