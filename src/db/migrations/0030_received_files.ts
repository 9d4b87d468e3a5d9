// Received files are kept in the database until the service has them, so that web and worker processes on different
// machines share nothing but the database. A file is a run of chunks (about 1 MB each, `seq` from 0) written while it
// streams in; a submission names the file it waits to send (`file_id`, null once the service has it or refused it).
// Files an earlier release left in DATA_DIR (their absolute path in `stored_path`) are moved in by the processes that
// can read them, at start and by the upload job (submissions/files-on-disk.ts): a migration may run where that
// folder is not mounted (the CLI on another machine).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('received_file_chunk')
    .addColumn('file_id', 'uuid', (col) => col.notNull())
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('bytes', 'bytea', (col) => col.notNull())
    .addColumn('written_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('received_file_chunk_pk', ['file_id', 'seq'])
    .execute();
  // Papers are mostly compressed already (PDF, Office files) and wait only minutes: not worth compressing each chunk.
  await sql`ALTER TABLE received_file_chunk ALTER COLUMN bytes SET STORAGE EXTERNAL`.execute(db);
  await db.schema.alterTable('submission').addColumn('file_id', 'uuid').execute();
  // The sweep of files no submission names (submissions/sweep.ts) looks them up; few rows are ever in it.
  await sql`CREATE INDEX submission_file ON submission (file_id) WHERE file_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submission').dropColumn('file_id').execute();
  await db.schema.dropTable('received_file_chunk').execute();
}
