// A multipart upload (one file per request, spec 8) streamed straight to disk: memory stays flat whatever the
// size. Past the limit the upload is refused at once with 413 (from Content-Length before a byte is read, or
// when the streamed count passes it), the part written so far is deleted, and the rest of the body is not read:
// the connection is cut shortly after the answer.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { ApiError } from './errors.js';

/** Room for the form fields and part headers around the file in a Content-Length. */
const MULTIPART_OVERHEAD = 64 * 1024;
const HEAD_BYTES = 4096;
/** How long a refused body may keep coming before the connection is cut. */
const LINGER_MS = 1000;

export interface ReceivedFile {
  path: string;
  name: string;
  size: number;
  /** The first bytes, to tell the format by. */
  head: Buffer;
}

export interface Received {
  fields: Record<string, string>;
  file: ReceivedFile | null;
}

/** Counts the bytes that pass and keeps the first few. */
class Meter extends Transform {
  size = 0;
  head = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.head.length < HEAD_BYTES)
      this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    done(null, chunk);
  }
}

/**
 * A 413 answered at once. The rest of the body is not read: reading stops and the connection is cut soon after
 * the answer. Not at once: a client still writing would see its write fail (EPIPE) instead of the answer.
 */
function tooLarge(req: Request, res: Response, maxBytes: number): ApiError {
  req.pause();
  res.once('finish', () => setTimeout(() => req.socket.destroy(), LINGER_MS).unref());
  return new ApiError(413, `The file exceeds the maximum upload size of ${maxBytes} bytes.`);
}

export async function receiveUpload(
  req: Request,
  res: Response,
  options: { dir: string; maxBytes: number },
): Promise<Received> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes + MULTIPART_OVERHEAD)
    throw tooLarge(req, res, options.maxBytes);
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? ''))
    throw new ApiError(400, 'The upload must be sent as multipart/form-data.');

  let parser: busboy.Busboy;
  try {
    // fileSize + 1: busboy reports the limit when the count reaches it, and a file of exactly the limit is allowed.
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: { files: 1, fileSize: options.maxBytes + 1, fields: 20, fieldSize: 8192, parts: 30 },
    });
  } catch {
    throw new ApiError(400, 'The multipart body has no boundary.');
  }
  const fields: Record<string, string> = {};
  let file: ReceivedFile | null = null;
  let writing: Promise<void> | null = null;
  let meter: Meter | null = null;

  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return reject(new ApiError(422, `The form field ${name} is too long.`));
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || file) return void stream.resume();
      const path = join(options.dir, `${randomBytes(12).toString('hex')}.upload`);
      meter = new Meter();
      const received: ReceivedFile = { path, name: info.filename || 'paper', size: 0, head: Buffer.alloc(0) };
      file = received;
      stream.once('limit', () => reject(tooLarge(req, res, options.maxBytes)));
      const counted = meter;
      writing = pipeline(stream, counted, createWriteStream(path)).then(() => {
        received.size = counted.size;
        received.head = counted.head;
      });
      writing.catch(reject);
    });
    parser.on('filesLimit', () => reject(new ApiError(400, 'One file per request.')));
    parser.on('fieldsLimit', () => reject(new ApiError(400, 'Too many form fields.')));
    parser.on('partsLimit', () => reject(new ApiError(400, 'Too many parts in the multipart body.')));
    parser.on('error', () => reject(new ApiError(400, 'The multipart body could not be read.')));
    parser.on('close', resolve);
    req.on('error', () => reject(new ApiError(400, 'The upload was interrupted.')));
  });
  req.pipe(parser);

  try {
    await parsed;
    if (writing) await writing;
    return { fields, file };
  } catch (error) {
    req.unpipe(parser);
    // Over the limit the rest stays unread; after other refusals it is read and dropped, so the connection
    // can carry the next request.
    if (error instanceof ApiError && error.status === 413) req.pause();
    else req.resume();
    (meter as Meter | null)?.destroy();
    const written = file as ReceivedFile | null;
    if (written) await rm(written.path, { force: true });
    throw error;
  }
}
