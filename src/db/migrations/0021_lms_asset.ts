// The assets an LMS announced in its submission notices, for an assignment with the tool as its Asset Processor.
// A notice is never sent twice, so each is kept before the tool answers; the pair (LMS submission, asset) is the
// LMS's immutable name of one file, and is kept once: a repeated notice, or the same pair again, adds nothing.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lms_asset')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('assignment_id', 'uuid', (col) => col.notNull().references('assignment.id').onDelete('cascade'))
    .addColumn('lms_submission_id', 'text', (col) => col.notNull())
    .addColumn('asset_id', 'text', (col) => col.notNull())
    .addColumn('lms_user_id', 'text', (col) => col.notNull())
    .addColumn('notice_id', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('report_url', 'text', (col) => col.notNull())
    .addColumn('sha256', 'text')
    .addColumn('size', 'bigint')
    .addColumn('content_type', 'text')
    .addColumn('title', 'text')
    .addColumn('filename', 'text')
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('received'))
    .addColumn('received_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('lms_asset_once', ['assignment_id', 'lms_submission_id', 'asset_id'])
    .addCheckConstraint('lms_asset_state', sql`state IN ('received')`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lms_asset').execute();
}
