// Receiving a student's file: multipart streamed straight to a temporary file (never whole in memory), its size
// checked while it streams (the rest of an oversized body is not stored), hashed on the way, synced to disk.
import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { inEnglish, type Sentence } from '../messages/index.js';
import { FileDigest, type ReceivedFile } from './received-file.js';

export type { ReceivedFile } from './received-file.js';

export class IntakeError extends Error {
  constructor(
    readonly status: 400 | 408 | 413 | 415,
    /** What the sender reads, in their language on a page; the message is its English. */
    readonly sentence: Sentence,
  ) {
    super(inEnglish(sentence));
    this.name = 'IntakeError';
  }
}

/** Multipart framing and the other fields add a little to the file; a body beyond this is refused unread. */
const MULTIPART_ALLOWANCE = 64 * 1024;

export function checkDeclaredLength(req: IncomingMessage, maxBytes: number): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_ALLOWANCE) {
    req.resume(); // dropped unread into storage; see receiveUpload
    throw tooLarge(maxBytes);
  }
}

function tooLarge(maxBytes: number): IntakeError {
  return new IntakeError(413, { key: 'upload.tooLarge', params: { size: Math.round(maxBytes / 1024 / 1024) } });
}

/** A body that sends nothing for this long is taken as abandoned (a stalled client, or one holding the socket). */
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

export async function receiveUpload(
  req: IncomingMessage,
  options: { maxBytes: number; tempDir: string; idleTimeoutMs?: number },
): Promise<ReceivedFile> {
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
    throw new IntakeError(415, { key: 'upload.notMultipart' });
  }
  checkDeclaredLength(req, options.maxBytes);
  await mkdir(options.tempDir, { recursive: true });

  return new Promise<ReceivedFile>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // Browsers send file names in UTF-8; busboy reads them as Latin-1 unless told.
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // fileSize + 1: busboy reports the limit when the count reaches it, and a file of exactly the limit is allowed.
        limits: { files: 1, fileSize: options.maxBytes + 1, fields: 8, parts: 10, fieldSize: 4096 },
      });
    } catch {
      reject(new IntakeError(400, { key: 'upload.unreadable' }));
      return;
    }
    let settled = false;
    let received: Promise<ReceivedFile> | null = null;
    let tempPath: string | null = null;
    let source: Readable | null = null;
    let writer: WriteStream | null = null;
    const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    let idle: NodeJS.Timeout | undefined;
    const stalled = () =>
      fail(new IntakeError(408, { key: 'upload.stalled', params: { seconds: Math.round(idleMs / 1000) } }));
    const touch = () => {
      clearTimeout(idle);
      if (!settled) idle = setTimeout(stalled, idleMs);
    };
    const fail = (error: IntakeError) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      req.unpipe(parser);
      // The rest of the body is read and dropped, never stored, so that the browser gets the answer
      // (a server that stops reading makes it report a broken connection instead).
      req.resume();
      source?.destroy();
      writer?.destroy();
      // The temporary file is removed only once its stream has closed: removed earlier, a stream still opening
      // would create it again. (The stream may fail first, as the body it was fed was cut: its close still comes.)
      const file = writer;
      const closed =
        file && !file.closed ? new Promise<void>((resolve) => file.once('close', () => resolve())) : Promise.resolve();
      const cleanup = closed.then(() => (tempPath ? rm(tempPath, { force: true }) : undefined));
      cleanup.finally(() => reject(error));
    };

    parser.on('file', (field, stream, info) => {
      if (field !== 'file') {
        stream.resume();
        fail(new IntakeError(400, { key: 'upload.wrongField' }));
        return;
      }
      const path = join(options.tempDir, `${randomUUID()}.part`);
      tempPath = path;
      const digest = new FileDigest();
      stream.on('data', (chunk: Buffer) => digest.add(chunk));
      stream.on('limit', () => fail(tooLarge(options.maxBytes)));
      source = stream;
      writer = createWriteStream(path, { flags: 'wx' });
      received = pipeline(stream, writer).then(async () => {
        const handle = await open(path, 'r+');
        try {
          await handle.sync(); // on disk before the receipt says so
        } finally {
          await handle.close();
        }
        return digest.finish(path, info.filename ?? '');
      });
      received.catch(() => fail(new IntakeError(400, { key: 'upload.interrupted' })));
    });
    parser.on('filesLimit', () => fail(new IntakeError(400, { key: 'upload.oneFile' })));
    parser.on('partsLimit', () => fail(new IntakeError(400, { key: 'upload.tooManyParts' })));
    parser.on('fieldsLimit', () => fail(new IntakeError(400, { key: 'upload.tooManyFields' })));
    parser.on('error', () => fail(new IntakeError(400, { key: 'upload.malformed' })));
    parser.on('close', () => {
      if (settled) return;
      if (!received) return fail(new IntakeError(400, { key: 'upload.noFile' }));
      received.then(
        (file) => {
          if (settled) return;
          settled = true;
          clearTimeout(idle);
          resolve(file);
        },
        () => undefined,
      );
    });
    req.on('aborted', () => fail(new IntakeError(400, { key: 'upload.interrupted' })));
    req.on('data', touch);
    touch();
    req.pipe(parser);
  });
}
