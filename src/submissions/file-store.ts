// The received files' store: each file a run of chunks in received_file_chunk, written while it
// streams in, read back as a stream, deleted once no retry needs it. Every process reaches it through the database,
// so the process that receives a file and the one that sends it share nothing else. One SQL operation per function.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';

type Db = Kysely<DatabaseSchema>;

/**
 * About 1 MB a chunk: a 100 MB paper is a hundred statements (each its own commit while the file streams in), and no
 * more than a chunk or two of it is held in memory while it is written. A file of up to this size is written whole in
 * the commit that keeps it.
 */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * The longest a file takes to arrive before it is kept or dropped: an upload's request (HTTP_REQUEST_TIMEOUT_MS) and
 * an asset's download (ASSET_DOWNLOAD_TIMEOUT_SECONDS) last an hour at most. Chunks older than this that no
 * submission names were left by a process that died while a file arrived.
 */
const ARRIVING_AT_MOST = sql<Date>`now() - interval '2 hours'`;

export async function writeChunk(db: Db, fileId: string, seq: number, bytes: Buffer): Promise<void> {
  await db.insertInto('received_file_chunk').values({ file_id: fileId, seq, bytes }).execute();
}

/**
 * A chunk is read a quarter at a time (STATEMENT_BYTES), in one statement, as rows of READ_BYTES. node-postgres hands
 * each value over as text (hex, twice its size) and gathers a message larger than a socket read (64 KiB) by doubling
 * a fresh buffer, so rows of a quarter chunk each took about ten bytes of memory outside the JavaScript heap per byte
 * read, and those the send still held when the heap's young objects were collected stayed until a full collection:
 * a worker sending a 100 MB file grew by 80 MB (bench/upload-memory.ts). Rows this small arrive several to a socket
 * read, and a statement brings only what is sent before the next. node-postgres's binary results are no way out: it
 * decodes a binary value as UTF-8 text, which mangles bytes.
 */
export const READ_BYTES = 16 * 1024;
export const STATEMENT_BYTES = CHUNK_BYTES / 4;

/**
 * Up to `length` bytes of a chunk (`seq` from 0) from `offset`, in parts of READ_BYTES, with the chunk's whole length;
 * no parts when there is no such chunk or it ends before `offset`.
 */
export async function readChunkParts(
  db: Db,
  file: { fileId: string; seq: number },
  offset: number,
  length: number,
): Promise<{ parts: Buffer[]; chunkLength: number }> {
  // PostgreSQL reads each part alone (the chunks are stored uncompressed).
  const { rows } = await sql<{ bytes: Buffer; chunk_length: number }>`
    SELECT substring(chunk.bytes FROM part.start FOR ${READ_BYTES}::integer) AS bytes,
           octet_length(chunk.bytes) AS chunk_length
      FROM received_file_chunk AS chunk
     CROSS JOIN LATERAL generate_series(
             ${offset + 1}::integer, least(octet_length(chunk.bytes), ${offset + length}::integer), ${READ_BYTES}::integer
           ) AS part (start)
     WHERE chunk.file_id = ${file.fileId} AND chunk.seq = ${file.seq}
     ORDER BY part.start`.execute(db);
  return { parts: rows.map((row) => row.bytes), chunkLength: rows[0]?.chunk_length ?? 0 };
}

export async function deleteFile(db: Db, fileId: string): Promise<void> {
  await db.deleteFrom('received_file_chunk').where('file_id', '=', fileId).execute();
}

/** Deletes the chunks no submission names that were written longer ago than a file takes to arrive; gives how many. */
export async function deleteUnclaimedChunks(db: Db): Promise<number> {
  const result = await db
    .deleteFrom('received_file_chunk')
    .where('written_at', '<', ARRIVING_AT_MOST)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('submission')
            .select(sql`1`.as('one'))
            .whereRef('submission.file_id', '=', 'received_file_chunk.file_id'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface StoredFileTotals {
  /** Files kept (those still arriving included). */
  files: number;
  /** Their bytes. */
  bytes: number;
  /** What the table takes on disk: its chunks, index and the space of deleted ones not yet reused. */
  diskBytes: number;
}

/**
 * The store's size, for /metrics. The rows hold only pointers to the bytes (kept out of line), and a chunk's length
 * is read from its pointer, so this reads a few bytes per megabyte kept.
 */
export async function storedFileTotals(db: Db): Promise<StoredFileTotals> {
  const { rows } = await sql<{ files: string; bytes: string; disk_bytes: string }>`
    SELECT count(DISTINCT file_id) AS files, coalesce(sum(octet_length(bytes)), 0) AS bytes,
           pg_total_relation_size('received_file_chunk') AS disk_bytes
      FROM received_file_chunk`.execute(db);
  const row = rows[0];
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0), diskBytes: Number(row?.disk_bytes ?? 0) };
}
