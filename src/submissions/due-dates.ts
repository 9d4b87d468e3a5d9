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
 * papers changed.
 */
export async function judgeLateness(db: Db, assignmentId: string, userId?: string): Promise<number> {
  const result = await sql`
    UPDATE submission AS s
       SET late = judged.late
      FROM (
        SELECT s2.id,
               coalesce(s2.submitted_at > coalesce(d.due_at, (a.settings->>'dueAt')::timestamptz), false) AS late
          FROM submission AS s2
          JOIN assignment AS a ON a.id = s2.assignment_id
          LEFT JOIN student_due_date AS d ON d.assignment_id = s2.assignment_id AND d.user_id = s2.user_id
         WHERE s2.assignment_id = ${assignmentId}::uuid
           ${userId === undefined ? sql`` : sql`AND s2.user_id = ${userId}::uuid`}
      ) AS judged
     WHERE s.id = judged.id AND s.late IS DISTINCT FROM judged.late`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * What a launch said of the due date (lti/due-date.ts's statedDueDate), kept where it belongs and the papers it
 * covers judged again: a student's launch states their own date ('none': they have none of their own, and the
 * assignment's holds); an instructor's states the assignment's, which moves only to a stated date, so that an LMS
 * with no date of its own never clears the one set on the settings page.
 */
export async function followStatedDueDate(
  db: Db,
  stated: { assignmentId: string; userId: string; audience: 'learner' | 'instructor'; dueAt: string | 'none' },
): Promise<'moved' | 'unchanged'> {
  const { assignmentId, userId, dueAt } = stated;
  if (stated.audience === 'instructor') {
    if (dueAt === 'none') return 'unchanged';
    const moved = await sql`
      UPDATE assignment SET settings = jsonb_set(settings::jsonb, '{dueAt}', to_jsonb(${dueAt}::text)), updated_at = now()
       WHERE id = ${assignmentId}::uuid
         AND (settings->>'dueAt' IS NULL OR (settings->>'dueAt')::timestamptz <> ${dueAt}::timestamptz)`.execute(db);
    if (Number(moved.numAffectedRows ?? 0) === 0) return 'unchanged';
    await judgeLateness(db, assignmentId);
    return 'moved';
  }
  const changed =
    dueAt === 'none'
      ? await db
          .deleteFrom('student_due_date')
          .where('assignment_id', '=', assignmentId)
          .where('user_id', '=', userId)
          .executeTakeFirst()
      : await db
          .insertInto('student_due_date')
          .values({ assignment_id: assignmentId, user_id: userId, due_at: new Date(dueAt) })
          .onConflict((oc) =>
            oc
              .columns(['assignment_id', 'user_id'])
              .doUpdateSet({ due_at: new Date(dueAt), stated_at: new Date() })
              .where('student_due_date.due_at', '<>', new Date(dueAt)),
          )
          .executeTakeFirst();
  const rows = 'numDeletedRows' in changed ? changed.numDeletedRows : changed.numInsertedOrUpdatedRows;
  if (Number(rows ?? 0) === 0) return 'unchanged';
  await judgeLateness(db, assignmentId, userId);
  return 'moved';
}
