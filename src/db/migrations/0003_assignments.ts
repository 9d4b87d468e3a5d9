// Assignments: one per (platform, course, resource link), each mapped to a folder at the checking service.
// The resource link is unknown while deep linking places the tool; the first launch of the new link binds it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('assignment')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('platform_id', 'uuid', (col) => col.notNull().references('platform.id').onDelete('cascade'))
    .addColumn('course_id', 'uuid', (col) => col.notNull().references('course.id').onDelete('cascade'))
    .addColumn('resource_link_id', 'text')
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('settings', 'jsonb', (col) => col.notNull())
    .addColumn('line_item_url', 'text')
    .addColumn('line_items_url', 'text')
    .addColumn('memberships_url', 'text')
    .addColumn('folder_id', 'bigint')
    .addColumn('folder_state', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('folder_error', 'text')
    .addColumn('created_by', 'uuid', (col) => col.references('lti_user.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('assignment_folder_state', sql`folder_state IN ('pending', 'ready', 'failed')`)
    .execute();
  await sql`CREATE UNIQUE INDEX assignment_resource_link ON assignment (platform_id, course_id, resource_link_id) WHERE resource_link_id IS NOT NULL`.execute(
    db,
  );
  await db.schema.createIndex('assignment_course').on('assignment').column('course_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('assignment').execute();
}
