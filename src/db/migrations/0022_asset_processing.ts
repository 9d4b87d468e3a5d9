// What becomes of an LMS's asset: fetched and admitted as a submission (the same pipeline as the tool's own upload
// page), or failed with the Asset Processor specification's error code; and the reports the tool posted for it, one
// row per (asset, report type), whose timestamp only ever grows (the platform refuses an older one with 409).
// Error codes: https://www.imsglobal.org/spec/lti-ap/v1p0 ; Canvas: app/controllers/lti/ims/asset_processor_controller.rb
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('lms_asset')
    .addColumn('submission_id', 'uuid', (col) => col.references('submission.id').onDelete('set null'))
    .addColumn('error_code', 'text')
    .addColumn('error_comment', 'text')
    .execute();
  await sql`ALTER TABLE lms_asset DROP CONSTRAINT lms_asset_state`.execute(db);
  await sql`ALTER TABLE lms_asset ADD CONSTRAINT lms_asset_state CHECK (
    (state = 'received' AND submission_id IS NULL AND error_code IS NULL)
    OR (state = 'admitted' AND error_code IS NULL)
    OR (state = 'failed' AND error_code IS NOT NULL))`.execute(db);
  await db.schema.createIndex('lms_asset_submission').on('lms_asset').column('submission_id').execute();
  await db.schema
    .createTable('asset_report')
    .addColumn('asset_row_id', 'uuid', (col) => col.notNull().references('lms_asset.id').onDelete('cascade'))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('progress', 'text', (col) => col.notNull())
    .addColumn('body', 'jsonb', (col) => col.notNull())
    .addColumn('posted_timestamp', 'timestamptz', (col) => col.notNull())
    .addColumn('posted_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('asset_report_pk', ['asset_row_id', 'type'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('asset_report').execute();
  await db.schema.dropIndex('lms_asset_submission').execute();
  await sql`ALTER TABLE lms_asset DROP CONSTRAINT lms_asset_state`.execute(db);
  await db.schema
    .alterTable('lms_asset')
    .dropColumn('submission_id')
    .dropColumn('error_code')
    .dropColumn('error_comment')
    .execute();
  await sql`ALTER TABLE lms_asset ADD CONSTRAINT lms_asset_state CHECK (state IN ('received'))`.execute(db);
}
