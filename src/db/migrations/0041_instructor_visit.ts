// When each instructor opened an assignment's dashboard, so that the dashboard says what arrived since their last
// visit: a visit is one launch's session (its ltik's hash), so that sorting and filtering within it keep the same
// "since"; the visit before it is kept beside it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('instructor_visit')
    .addColumn('assignment_id', 'uuid', (column) => column.notNull().references('assignment.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('lti_user.id').onDelete('cascade'))
    .addColumn('session_hash', 'text', (column) => column.notNull())
    .addColumn('seen_at', 'timestamptz', (column) => column.notNull())
    .addColumn('previous_seen_at', 'timestamptz')
    .addPrimaryKeyConstraint('instructor_visit_pkey', ['assignment_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('instructor_visit').execute();
}
