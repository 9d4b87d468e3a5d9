// What the store of received files holds (src/submissions/file-store.ts), read from the database: a refused or
// cut-off upload must leave nothing there, and a sent paper's file must be gone.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../../src/db/index.js';

/** Chunks of files no submission names: what an upload that was not kept left behind. */
export async function unclaimedChunks(db: Kysely<DatabaseSchema>): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM received_file_chunk c
     WHERE NOT EXISTS (SELECT 1 FROM submission s WHERE s.file_id = c.file_id)`.execute(db);
  return Number(rows[0]!.n);
}

/** Chunks of every file kept or arriving, and their bytes. */
export async function storedChunks(db: Kysely<DatabaseSchema>): Promise<{ chunks: number; bytes: number }> {
  const { rows } = await sql<{ chunks: string; bytes: string }>`
    SELECT count(*) AS chunks, coalesce(sum(octet_length(bytes)), 0) AS bytes FROM received_file_chunk`.execute(db);
  return { chunks: Number(rows[0]!.chunks), bytes: Number(rows[0]!.bytes) };
}
