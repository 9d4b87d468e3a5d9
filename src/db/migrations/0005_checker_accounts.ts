// Accounts at the checking service. A platform registration may name its own; without one it uses the default
// account from the environment. Passwords are stored encrypted (AES-256-GCM under the tool's key).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('checker_account')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('base_url', 'text', (col) => col.notNull())
    .addColumn('username', 'text', (col) => col.notNull())
    .addColumn('password_encrypted', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('checker_account_login', ['base_url', 'username'])
    .execute();
  await db.schema
    .alterTable('platform')
    .addColumn('checker_account_id', 'uuid', (col) => col.references('checker_account.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('platform').dropColumn('checker_account_id').execute();
  await db.schema.dropTable('checker_account').execute();
}
