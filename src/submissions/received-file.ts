// What the tool learns of a file while it streams in, whichever door it comes by (its size, its SHA-256 and its first
// bytes, for the type check), and the file itself written into the database as it arrives (file-store.ts): full
// chunks while it streams, the rest in the commit that keeps it, so that a kept file is whole the moment anyone can
// see it, and a file that is not kept is deleted (or, if the process dies first, swept: sweep.ts).
import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { SNIFF_BYTES } from './file-type.js';
import { CHUNK_BYTES, STATEMENT_BYTES, deleteFile, readChunkParts, writeChunk } from './file-store.js';

type Db = Kysely<DatabaseSchema>;

export interface ReceivedFile {
  /** Where its bytes are kept (received_file_chunk.file_id). */
  fileId: string;
  size: number;
  sha256: string;
  /** The first bytes, for the type check. */
  head: Buffer;
  originalName: string;
  /** Chunks already in the store (numbered from 0). */
  written: number;
  /** The bytes after them, written as chunk `written` in the commit that keeps the file (keepReceivedFile). */
  rest: Buffer | null;
}

/** Size, hash and first bytes of a stream, chunk by chunk. */
export class FileDigest {
  size = 0;
  readonly #hash = createHash('sha256');
  readonly #head: Buffer[] = [];
  #headLength = 0;

  add(chunk: Buffer): void {
    this.size += chunk.length;
    this.#hash.update(chunk);
    if (this.#headLength < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.#headLength);
      this.#head.push(part);
      this.#headLength += part.length;
    }
  }

  /** Once the stream has ended. */
  finish(): { size: number; sha256: string; head: Buffer } {
    return { size: this.size, sha256: this.#hash.digest('hex'), head: Buffer.concat(this.#head) };
  }
}

/**
 * A file written into the store while it streams in: `add` each piece and wait for it (a full chunk is written
 * before it resolves, which holds the stream back), then `finish` once it has ended, or `discard` when it is not
 * kept. Nothing is written after `discard` begins.
 */
export class FileWriter {
  readonly fileId = randomUUID();
  readonly #db: Db;
  readonly #digest = new FileDigest();
  /** What arrived and is not written yet. */
  #parts: Buffer[] = [];
  #buffered = 0;
  #chunk: Buffer | null = null;
  #written = 0;
  #writing: Promise<void> = Promise.resolve();
  #discarded = false;

  constructor(db: Db) {
    this.#db = db;
  }

  async add(piece: Buffer): Promise<void> {
    if (this.#discarded) throw new Error('The file is no longer being received.');
    this.#digest.add(piece);
    this.#parts.push(piece);
    this.#buffered += piece.length;
    // More than a chunk held: the full chunk goes out; a file of exactly one chunk waits for the commit that keeps it.
    while (this.#buffered > CHUNK_BYTES) {
      if (this.#discarded) throw new Error('The file is no longer being received.');
      // One buffer for every chunk of a large file: the memory a 100 MB upload takes stays that of one chunk.
      const chunk = (this.#chunk ??= Buffer.allocUnsafe(CHUNK_BYTES));
      for (let filled = 0; filled < CHUNK_BYTES;) {
        const part = this.#parts[0]!;
        const copied = part.copy(chunk, filled);
        filled += copied;
        if (copied === part.length) this.#parts.shift();
        else this.#parts[0] = part.subarray(copied);
      }
      this.#buffered -= CHUNK_BYTES;
      // Counted before it is written: a discard meanwhile deletes it too. The chunk is reused once it is written.
      this.#writing = writeChunk(this.#db, this.fileId, this.#written++, chunk);
      await this.#writing;
    }
  }

  finish(originalName: string): ReceivedFile {
    return {
      fileId: this.fileId,
      ...this.#digest.finish(),
      originalName,
      written: this.#written,
      rest: this.#buffered > 0 ? Buffer.concat(this.#parts, this.#buffered) : null,
    };
  }

  /** Deletes what was written, once a write in flight has ended. */
  async discard(): Promise<void> {
    this.#discarded = true;
    this.#parts = [];
    await this.#writing.catch(() => undefined);
    if (this.#written > 0) await deleteFile(this.#db, this.fileId);
  }
}

/** Writes a stream into the store; a stream that fails leaves nothing behind. */
export async function writeReceivedFile(
  db: Db,
  source: AsyncIterable<Buffer> | Iterable<Buffer>,
  originalName: string,
): Promise<ReceivedFile> {
  const writer = new FileWriter(db);
  try {
    for await (const piece of source) await writer.add(piece);
  } catch (error) {
    await writer.discard().catch(() => undefined); // what is left is swept
    throw error;
  }
  return writer.finish(originalName);
}

/** Writes the rest of the file: called in the transaction that records what keeps it, so it is whole once visible. */
export async function keepReceivedFile(trx: Db, file: ReceivedFile): Promise<void> {
  if (file.rest) await writeChunk(trx, file.fileId, file.written, file.rest);
}

/** Deletes a file that is not kept (a refusal, the same file again); what a failure here leaves is swept. */
export async function discardReceivedFile(db: Db, file: ReceivedFile): Promise<void> {
  if (file.written > 0) await deleteFile(db, file.fileId).catch(() => undefined);
}

/** Deletes a submission's file from the store. */
export async function forgetFile(db: Db, submission: { fileId: string | null }): Promise<void> {
  if (submission.fileId) await deleteFile(db, submission.fileId);
}

/** A stored file's bytes from the first, a few small parts a statement; `size` bytes in all, or it throws. */
export async function* readStoredFile(db: Db, fileId: string, size: number): AsyncGenerator<Buffer> {
  let read = 0;
  for (let seq = 0; read < size; seq += 1) {
    for (let offset = 0, chunkLength = 1; offset < chunkLength;) {
      const answer = await readChunkParts(db, { fileId, seq }, offset, STATEMENT_BYTES);
      if (answer.parts.length === 0)
        throw new Error(`The stored file ${fileId} ends after ${read} of its ${size} bytes.`);
      ({ chunkLength } = answer);
      for (const part of answer.parts) {
        offset += part.length;
        read += part.length;
        yield part;
      }
    }
  }
}

/** A file received but not yet kept, read from the first byte (its chunks in the store, then its rest). */
export async function* readReceivedFile(db: Db, file: ReceivedFile): AsyncGenerator<Buffer> {
  yield* readStoredFile(db, file.fileId, file.size - (file.rest?.length ?? 0));
  if (file.rest) yield file.rest;
}
