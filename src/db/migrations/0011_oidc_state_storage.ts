// Where a login asked for LTI platform storage (https://www.imsglobal.org/spec/lti-pm-s/v0p1), the state is
// also kept in the LMS's window, and the launch must find it there: the frame to ask and the origin it answers
// from are kept with the state.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('oidc_state')
    .addColumn('storage_target', 'text')
    .addColumn('storage_origin', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oidc_state').dropColumn('storage_target').dropColumn('storage_origin').execute();
}
