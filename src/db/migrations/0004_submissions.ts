// Submissions and their history. A submission's state moves received → uploading → processing → scored →
// graded, or ends rejected (the service refused the file for good) or failed (the analysis failed); every move
// is a row in submission_event, so "stuck in pending" always has an answer.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('submission')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('assignment_id', 'uuid', (col) => col.notNull().references('assignment.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('lti_user.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('file_label', 'text', (col) => col.notNull())
    .addColumn('file_type', 'text', (col) => col.notNull())
    .addColumn('file_size', 'bigint', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('stored_path', 'text')
    .addColumn('submitted_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('late', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('paper_id', 'bigint')
    .addColumn('report_key', 'text')
    .addColumn('similarity', sql`numeric(5, 2)`)
    .addColumn('ai_score', sql`numeric(5, 2)`)
    .addColumn('grammar_score', sql`numeric(5, 2)`)
    .addColumn('failure_reason', 'text')
    .addColumn('scored_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('submission_attempt', ['assignment_id', 'user_id', 'attempt'])
    .addCheckConstraint(
      'submission_state',
      sql`state IN ('received', 'uploading', 'processing', 'scored', 'graded', 'rejected', 'failed')`,
    )
    .execute();
  await db.schema.createIndex('submission_assignment').on('submission').columns(['assignment_id', 'state']).execute();
  await db.schema
    .createIndex('submission_paper')
    .on('submission')
    .column('paper_id')
    .where(sql.ref('paper_id'), 'is not', null)
    .execute();
  await db.schema
    .createTable('submission_event')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('submission_id', 'uuid', (col) => col.notNull().references('submission.id').onDelete('cascade'))
    .addColumn('at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('from_state', 'text')
    .addColumn('to_state', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('job_attempt', 'integer')
    .execute();
  await db.schema
    .createIndex('submission_event_submission')
    .on('submission_event')
    .columns(['submission_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('submission_event').execute();
  await db.schema.dropTable('submission').execute();
}
