// A student's own due date for an assignment, as the LMS states it in the student's launch (Canvas's
// $Canvas.assignment.dueAt.iso8601 expands to the date the assignment is due for that student, an extension
// included): "late" is judged against it where there is one, else against the assignment's due date.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('student_due_date')
    .addColumn('assignment_id', 'uuid', (column) => column.notNull().references('assignment.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('lti_user.id').onDelete('cascade'))
    .addColumn('due_at', 'timestamptz', (column) => column.notNull())
    .addColumn('stated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('student_due_date_pkey', ['assignment_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('student_due_date').execute();
}
