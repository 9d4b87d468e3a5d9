// What the tool learns of a file while it streams in, whichever door it comes by: its size, its SHA-256 and its
// first bytes (for the type check); and a file written to disk from a stream, synced before anyone is told it is kept.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_BYTES } from './file-type.js';

export interface ReceivedFile {
  tempPath: string;
  size: number;
  sha256: string;
  /** The first bytes, for the type check. */
  head: Buffer;
  originalName: string;
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
  finish(tempPath: string, originalName: string): ReceivedFile {
    return {
      tempPath,
      size: this.size,
      sha256: this.#hash.digest('hex'),
      head: Buffer.concat(this.#head),
      originalName,
    };
  }
}

/** Writes a stream to a new file under `tempDir`, synced to disk; a stream that fails leaves no file behind. */
export async function writeReceivedFile(
  source: AsyncIterable<Buffer> | Iterable<Buffer>,
  tempDir: string,
  originalName: string,
): Promise<ReceivedFile> {
  await mkdir(tempDir, { recursive: true });
  const path = join(tempDir, `${randomUUID()}.part`);
  const digest = new FileDigest();
  try {
    await pipeline(
      Readable.from(source),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          digest.add(chunk);
          yield chunk;
        }
      },
      createWriteStream(path, { flags: 'wx' }),
    );
    const handle = await open(path, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return digest.finish(path, originalName);
}
