// The hosts an LMS shows the tool from, learnt from its launches (launch_presentation.return_url): Canvas Cloud's
// issuer is canvas.instructure.com while its pages are on the school's own host, which only a launch tells.
// The pages' CSP frame-ancestors allows these beside the registration's own addresses.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('platform_frame_origin')
    .addColumn('platform_id', 'uuid', (col) => col.notNull().references('platform.id').onDelete('cascade'))
    .addColumn('origin', 'text', (col) => col.notNull())
    .addColumn('first_seen_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('platform_frame_origin_pk', ['platform_id', 'origin'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('platform_frame_origin').execute();
}
