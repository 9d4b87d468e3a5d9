// Platform registrations (with their deployments), the people and courses seen in launches, and the OIDC
// states the tool issued, kept server-side so a launch works when the LMS iframe may not keep cookies.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('platform')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('issuer', 'text', (col) => col.notNull())
    .addColumn('client_id', 'text', (col) => col.notNull())
    .addColumn('auth_url', 'text', (col) => col.notNull())
    .addColumn('token_url', 'text', (col) => col.notNull())
    .addColumn('jwks_url', 'text', (col) => col.notNull())
    .addColumn('authorization_server', 'text')
    .addColumn('registered_by', 'text', (col) => col.notNull())
    .addColumn('active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('platform_issuer_client', ['issuer', 'client_id'])
    .execute();
  await db.schema
    .createTable('platform_deployment')
    .addColumn('platform_id', 'uuid', (col) => col.notNull().references('platform.id').onDelete('cascade'))
    .addColumn('deployment_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('platform_deployment_pk', ['platform_id', 'deployment_id'])
    .execute();
  await db.schema
    .createTable('lti_user')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('platform_id', 'uuid', (col) => col.notNull().references('platform.id').onDelete('cascade'))
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('lti_user_platform_subject', ['platform_id', 'subject'])
    .execute();
  await db.schema
    .createTable('course')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('platform_id', 'uuid', (col) => col.notNull().references('platform.id').onDelete('cascade'))
    .addColumn('deployment_id', 'text', (col) => col.notNull())
    .addColumn('context_id', 'text', (col) => col.notNull())
    .addColumn('title', 'text')
    .addColumn('label', 'text')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('course_platform_context', ['platform_id', 'context_id'])
    .execute();
  await db.schema
    .createTable('course_member')
    .addColumn('course_id', 'uuid', (col) => col.notNull().references('course.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('lti_user.id').onDelete('cascade'))
    .addColumn('roles', sql`text[]`, (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('course_member_pk', ['course_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('oidc_state')
    .addColumn('state', 'text', (col) => col.primaryKey())
    .addColumn('issuer', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['oidc_state', 'course_member', 'course', 'lti_user', 'platform_deployment', 'platform']) {
    await db.schema.dropTable(table).execute();
  }
}
