// ltijs's storage (see src/lti/storage.ts): one row per document, unique per collection and natural key.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lti_record')
    .addColumn('id', 'bigint', (col) => col.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('collection', 'text', (col) => col.notNull())
    .addColumn('record_key', 'text', (col) => col.notNull())
    .addColumn('doc', 'jsonb', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    .addUniqueConstraint('lti_record_collection_key', ['collection', 'record_key'])
    .execute();
  await sql`CREATE INDEX lti_record_doc ON lti_record USING gin (doc jsonb_path_ops)`.execute(db);
  await sql`CREATE INDEX lti_record_expiry ON lti_record (expires_at) WHERE expires_at IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lti_record').execute();
}
