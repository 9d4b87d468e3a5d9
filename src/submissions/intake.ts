// Receiving a student's file: multipart streamed straight into the database (received-file.ts, never whole in memory),
// its size checked while it streams (the rest of an oversized body is not stored), hashed on the way.
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { inEnglish, type Sentence } from '../i18n/index.js';
import { FileWriter, type ReceivedFile } from './received-file.js';

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

/** The least an upload must keep sending: `bytes` in every `windowMs` (UPLOAD_MIN_KB_PER_SECOND). */
export interface UploadMinRate {
  bytes: number;
  windowMs: number;
}

export async function receiveUpload(
  req: IncomingMessage,
  options: { maxBytes: number; db: Kysely<DatabaseSchema>; idleTimeoutMs?: number; minRate?: UploadMinRate | null },
): Promise<ReceivedFile> {
  if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
    throw new IntakeError(415, { key: 'upload.notMultipart' });
  }
  checkDeclaredLength(req, options.maxBytes);

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
    let source: Readable | null = null;
    let writer: FileWriter | null = null;
    const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    let idle: NodeJS.Timeout | undefined;
    const stalled = () =>
      fail(new IntakeError(408, { key: 'upload.stalled', params: { seconds: Math.round(idleMs / 1000) } }));
    const touch = () => {
      clearTimeout(idle);
      if (!settled) idle = setTimeout(stalled, idleMs);
    };
    // A byte now and then resets the idle timer; the floor cuts a body that trickles, as asset downloads are cut
    // (lti/platform-http.ts), so that a few slow senders cannot hold the upload places every school shares.
    const rate = options.minRate;
    let bytes = 0;
    let bytesBefore = 0;
    const watch =
      rate &&
      setInterval(() => {
        if (bytes - bytesBefore < rate.bytes) {
          const perSecond = Math.max(1, Math.round(((rate.bytes / rate.windowMs) * 1000) / 1024));
          fail(
            new IntakeError(408, {
              key: 'upload.tooSlow',
              params: { kb: perSecond, seconds: Math.round(rate.windowMs / 1000) },
            }),
          );
        }
        bytesBefore = bytes;
      }, rate.windowMs);
    /** An IntakeError says what was wrong with the upload; any other error, that the tool could not store it. */
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      if (watch) clearInterval(watch);
      req.unpipe(parser);
      // The rest of the body is read and dropped, never stored, so that the browser gets the answer
      // (a server that stops reading makes it report a broken connection instead).
      req.resume();
      source?.destroy();
      // What was written is deleted (after a write in flight) before the answer; a failure here is left to the sweep.
      (writer?.discard() ?? Promise.resolve()).catch(() => undefined).finally(() => reject(error));
    };

    parser.on('file', (field, stream, info) => {
      if (field !== 'file') {
        stream.resume();
        fail(new IntakeError(400, { key: 'upload.wrongField' }));
        return;
      }
      const file = new FileWriter(options.db);
      writer = file;
      stream.on('limit', () => fail(tooLarge(options.maxBytes)));
      source = stream;
      let storing: Error | null = null;
      received = (async () => {
        for await (const piece of stream as AsyncIterable<Buffer>)
          await file.add(piece).catch((error: Error) => {
            storing = error;
            throw error;
          });
        return file.finish(info.filename ?? '');
      })();
      received.catch(() => fail(storing ?? new IntakeError(400, { key: 'upload.interrupted' })));
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
          if (watch) clearInterval(watch);
          resolve(file);
        },
        () => undefined,
      );
    });
    req.on('aborted', () => fail(new IntakeError(400, { key: 'upload.interrupted' })));
    req.on('data', (piece: Buffer) => {
      bytes += piece.length;
      touch();
    });
    touch();
    req.pipe(parser);
  });
}
