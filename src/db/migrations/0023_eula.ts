// The Asset Processor's terms (EULA): who accepted them, per platform deployment and user, as the LMS's EULA service
// keeps acceptance (Canvas doc/api/document_processor.md: "per tool deployment"). A user accepts once; accepting
// again only moves the time.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('eula_acceptance')
    .addColumn('platform_id', 'uuid', (col) => col.notNull().references('platform.id').onDelete('cascade'))
    .addColumn('deployment_id', 'text', (col) => col.notNull())
    .addColumn('lms_user_id', 'text', (col) => col.notNull())
    .addColumn('accepted_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('eula_acceptance_pk', ['platform_id', 'deployment_id', 'lms_user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('eula_acceptance').execute();
}
