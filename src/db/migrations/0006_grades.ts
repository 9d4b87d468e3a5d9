// Grade sync: each submission's state at the gradebook, and per (platform, line item, user) the last score
// timestamp sent, so that the next one is strictly later and at least a second apart (AGS 3.4; Moodle compares
// whole seconds).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('submission')
    .addColumn('grade_state', 'text', (col) => col.notNull().defaultTo('none'))
    .addColumn('grade_error', 'text')
    .addColumn('graded_at', 'timestamptz')
    .execute();
  await sql`ALTER TABLE submission ADD CONSTRAINT submission_grade_state CHECK (grade_state IN ('none', 'pending', 'posted', 'failed', 'not-gradable'))`.execute(
    db,
  );
  await db.schema
    .createTable('score_clock')
    .addColumn('platform_id', 'uuid', (col) => col.notNull().references('platform.id').onDelete('cascade'))
    .addColumn('line_item_url', 'text', (col) => col.notNull())
    .addColumn('user_subject', 'text', (col) => col.notNull())
    .addColumn('last_timestamp', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('score_clock_pk', ['platform_id', 'line_item_url', 'user_subject'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('score_clock').execute();
  await sql`ALTER TABLE submission DROP CONSTRAINT submission_grade_state`.execute(db);
  await db.schema
    .alterTable('submission')
    .dropColumn('grade_state')
    .dropColumn('grade_error')
    .dropColumn('graded_at')
    .execute();
}
