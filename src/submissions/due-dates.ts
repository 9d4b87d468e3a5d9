// "Late" is the state of a paper against the due date in force now, not the one in force when it arrived: the
// student's own due date where the LMS stated one in their launch (an extension), else the assignment's. Whenever
// either moves (the settings page, a launch carrying another date), the papers it covers are judged again here, so
// that every page and the CSV, which read the submission's `late`, say the same.
import { sql, type Kysely } from 'kysely';
import type { AssignmentSettings } from '../assignments/settings.js';
import type { DatabaseSchema } from '../db/index.js';

type Db = Kysely<DatabaseSchema>;

/** The student's own due date for the assignment, where the LMS stated one; null: the assignment's applies. */
export async function studentDueDate(db: Db, assignmentId: string, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('student_due_date')
    .select('due_at')
    .where('assignment_id', '=', assignmentId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? row.due_at.toISOString() : null;
}

/** The due date that holds for a student: their own, else the assignment's (null: none). */
export const dueDateFor = (settings: Pick<AssignmentSettings, 'dueAt'>, own: string | null): string | null =>
  own ?? settings.dueAt;

/**
 * Judges the assignment's papers (or one student's) again against the due date that holds for each: the student's
 * own where there is one, else the assignment's as its settings now say; no due date, never late. Returns how many
 * papers changed. Only the tool's own assignments: the LMS keeps the deadline of its own (the Asset Processor's).
 */
export async function judgeLateness(db: Db, assignmentId: string, userId?: string): Promise<number> {
  const result = await sql`
    UPDATE submission AS s
       SET late = judged.late
      FROM (
        SELECT s2.id,
               coalesce(s2.submitted_at > coalesce(d.due_at, (a.settings->>'dueAt')::timestamptz), false) AS late
          FROM submission AS s2
          JOIN assignment AS a ON a.id = s2.assignment_id AND a.kind = 'gradebook'
          LEFT JOIN student_due_date AS d ON d.assignment_id = s2.assignment_id AND d.user_id = s2.user_id
         WHERE s2.assignment_id = ${assignmentId}::uuid
           ${userId === undefined ? sql`` : sql`AND s2.user_id = ${userId}::uuid`}
      ) AS judged
     WHERE s.id = judged.id AND s.late IS DISTINCT FROM judged.late`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * What a launch said of the due dates (lti/due-date.ts), kept where it belongs and the papers it covers judged again.
 * An instructor's launch moves the assignment's date when the LMS says everyone has one and the same date (Canvas's
 * instructor value of a single date is the latest of all, so it is not taken alone where dates differ); it never
 * clears a date set on the settings page. A student's launch states their own date: kept where it differs from the
 * assignment's, forgotten where it is the same or they have none (the assignment's then holds for them, and follows
 * it when it moves).
 */
export async function followStatedDueDate(
  db: Db,
  stated: {
    assignmentId: string;
    userId: string;
    audience: 'learner' | 'instructor';
    dueAt: string | 'none' | undefined;
    forEveryone: string | 'none' | 'several' | undefined;
  },
): Promise<'moved' | 'unchanged'> {
  const { assignmentId, userId } = stated;
  if (stated.audience === 'instructor') {
    // Where the LMS does not say whether dates differ, its one date for the instructor is the assignment's.
    const dueAt = stated.forEveryone === undefined ? stated.dueAt : stated.forEveryone;
    if (dueAt === undefined || dueAt === 'none' || dueAt === 'several') return 'unchanged';
    const moved = await sql`
      UPDATE assignment SET settings = jsonb_set(settings, '{dueAt}', to_jsonb(${dueAt}::text)), updated_at = now()
       WHERE id = ${assignmentId}::uuid
         AND (settings->>'dueAt' IS NULL OR (settings->>'dueAt')::timestamptz <> ${dueAt}::timestamptz)`.execute(db);
    if (Number(moved.numAffectedRows ?? 0) === 0) return 'unchanged';
    await judgeLateness(db, assignmentId);
    return 'moved';
  }
  const { dueAt } = stated;
  if (dueAt === undefined) return 'unchanged';
  const own = dueAt === 'none' ? null : new Date(dueAt);
  const { rows } = await sql<{ changed: boolean }>`
    WITH assignment_date AS (
      SELECT (settings->>'dueAt')::timestamptz AS due_at FROM assignment WHERE id = ${assignmentId}::uuid
    ), forgotten AS (
      DELETE FROM student_due_date
       WHERE assignment_id = ${assignmentId}::uuid AND user_id = ${userId}::uuid
         AND (${own}::timestamptz IS NULL OR ${own}::timestamptz IS NOT DISTINCT FROM (SELECT due_at FROM assignment_date))
      RETURNING 1
    ), kept AS (
      INSERT INTO student_due_date (assignment_id, user_id, due_at)
      SELECT ${assignmentId}::uuid, ${userId}::uuid, ${own}::timestamptz
       WHERE ${own}::timestamptz IS NOT NULL
         AND ${own}::timestamptz IS DISTINCT FROM (SELECT due_at FROM assignment_date)
      ON CONFLICT (assignment_id, user_id) DO UPDATE SET due_at = excluded.due_at, stated_at = now()
       WHERE student_due_date.due_at <> excluded.due_at
      RETURNING 1
    )
    SELECT (EXISTS (SELECT 1 FROM forgotten) OR EXISTS (SELECT 1 FROM kept)) AS changed`.execute(db);
  if (!rows[0]?.changed) return 'unchanged';
  await judgeLateness(db, assignmentId, userId);
  return 'moved';
}
