// What the pages show of submissions: a student's own attempts, and the class overview for instructors.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema, GradeState, SubmissionState } from '../db/index.js';
import { NOT_COUNTED } from './state.js';
import { toSubmission, type Submission } from './store.js';

/** How the pages name a student: their name, else their e-mail, else the LMS's id for them. */
export async function studentName(db: Kysely<DatabaseSchema>, userId: string): Promise<string> {
  const user = await db
    .selectFrom('lti_user')
    .select(['name', 'email', 'subject'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return user?.name ?? user?.email ?? user?.subject ?? 'The student';
}

/**
 * A student of the assignment's course, by the tool's id or the LMS's (`sub`), with the name the pages show; null
 * when the course has no such user. Of the course means: launched in it (course_member), or handed a paper in to
 * this assignment (an LMS's notice names its student without a launch). A user of another course or platform is
 * never found, so no page of this course names them.
 */
export async function courseStudent(
  db: Kysely<DatabaseSchema>,
  assignment: { id: string; platformId: string; courseId: string },
  by: { id: string } | { subject: string },
): Promise<{ id: string; name: string } | null> {
  const { rows } = await sql<{ id: string; name: string | null; email: string | null; subject: string }>`
    SELECT u.id, u.name, u.email, u.subject
    FROM lti_user AS u
    WHERE u.platform_id = ${assignment.platformId}
      AND ${'id' in by ? sql`u.id = ${by.id}::uuid` : sql`u.subject = ${by.subject}`}
      AND (
        EXISTS (SELECT 1 FROM course_member AS m WHERE m.course_id = ${assignment.courseId} AND m.user_id = u.id)
        OR EXISTS (SELECT 1 FROM submission AS s WHERE s.assignment_id = ${assignment.id} AND s.user_id = u.id)
      )`.execute(db);
  const user = rows[0];
  return user ? { id: user.id, name: user.name ?? user.email ?? user.subject } : null;
}

export interface SubmissionEvent {
  at: Date;
  from: SubmissionState | null;
  to: SubmissionState;
  reason: string;
  jobAttempt: number | null;
}

export async function eventsOf(db: Kysely<DatabaseSchema>, submissionId: string): Promise<SubmissionEvent[]> {
  const rows = await db
    .selectFrom('submission_event')
    .select(['at', 'from_state', 'to_state', 'reason', 'job_attempt'])
    .where('submission_id', '=', submissionId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    at: row.at,
    from: row.from_state,
    to: row.to_state,
    reason: row.reason,
    jobAttempt: row.job_attempt,
  }));
}

export interface ClassRow {
  userId: string;
  subject: string;
  name: string | null;
  email: string | null;
  attempts: number;
  latest: Submission & { gradeState: GradeState; gradeError: string | null };
}

/** Each student's latest attempt (rejected files included, so an instructor sees them), with the attempt count. */
export async function classRows(db: Kysely<DatabaseSchema>, assignmentId: string): Promise<ClassRow[]> {
  const rows = await db
    .selectFrom('submission as s')
    .innerJoin('lti_user as u', 'u.id', 's.user_id')
    .selectAll('s')
    .select(['u.subject', 'u.name', 'u.email'])
    .select((eb) =>
      eb
        .selectFrom('submission as other')
        .select((inner) => inner.fn.countAll<string>().as('n'))
        .whereRef('other.assignment_id', '=', 's.assignment_id')
        .whereRef('other.user_id', '=', 's.user_id')
        .where('other.state', '!=', NOT_COUNTED)
        .as('attempts'),
    )
    .where('s.assignment_id', '=', assignmentId)
    .where(({ selectFrom, not, exists }) =>
      not(
        exists(
          selectFrom('submission as newer')
            .select('newer.id')
            .whereRef('newer.assignment_id', '=', 's.assignment_id')
            .whereRef('newer.user_id', '=', 's.user_id')
            .whereRef('newer.attempt', '>', 's.attempt'),
        ),
      ),
    )
    .orderBy('u.name')
    .execute();
  return rows.map((row) => ({
    userId: row.user_id,
    subject: row.subject,
    name: row.name,
    email: row.email,
    attempts: Number(row.attempts ?? 0),
    latest: { ...toSubmission(row), gradeState: row.grade_state, gradeError: row.grade_error },
  }));
}
