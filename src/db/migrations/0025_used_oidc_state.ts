// The OIDC state is signed by the tool at login instead of kept (lti/oidc-state.ts): the table that held each issued
// state until its launch used it now holds each state a launch used, until it would have expired, so that it is used
// once. States issued before this change and not yet used name nothing the new login signed; their launches are
// refused as any unknown state is, and the person opens the tool again from the course.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE oidc_state`.execute(db);
  await db.schema
    .createTable('used_oidc_state')
    .addColumn('state', 'text', (col) => col.primaryKey())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('used_oidc_state').execute();
  await db.schema
    .createTable('oidc_state')
    .addColumn('state', 'text', (col) => col.primaryKey())
    .addColumn('issuer', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('storage_target', 'text')
    .addColumn('storage_origin', 'text')
    .execute();
}
