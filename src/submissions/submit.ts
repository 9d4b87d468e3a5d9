// A student hands in a paper: the rules are checked, the file is received, checked and stored, the submission
// is committed, and only then does the student get a receipt. The upload to the service is a job.
import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Assignment } from '../assignments/store.js';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import { fileLabel } from './file-label.js';
import { detectFileType, FILE_TYPE_NAMES } from './file-type.js';
import { IntakeError, receiveUpload } from './intake.js';
import { attemptsOf, canSubmit, receiptOf, recordSubmission, type Receipt } from './store.js';

export class SubmitRefused extends Error {
  constructor(
    readonly status: 400 | 408 | 409 | 413 | 415 | 422,
    message: string,
  ) {
    super(message);
    this.name = 'SubmitRefused';
  }
}

export interface SubmitDeps {
  db: Kysely<DatabaseSchema>;
  jobs: Jobs;
  uploadDir: string;
  /** An upload whose body sends nothing for this long is cut off (and nothing of it is kept). */
  uploadIdleTimeoutMs?: number;
  logger: { warn(details: object, message: string): void };
}

export interface SubmitResult {
  receipt: Receipt;
  /** The same file as an earlier attempt: nothing new was stored or sent. */
  duplicate: boolean;
}

async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function submitPaper(deps: SubmitDeps, assignment: Assignment, userId: string, req: IncomingMessage): Promise<SubmitResult> {
  const { settings } = assignment;
  const previous = await attemptsOf(deps.db, assignment.id, userId, 'counted');
  const decision = canSubmit(settings, previous, new Date());
  if (!decision.allowed) throw new SubmitRefused(409, decision.reason);

  let file;
  try {
    file = await receiveUpload(req, { maxBytes: settings.maxFileMb * 1024 * 1024, tempDir: join(deps.uploadDir, 'incoming'), ...(deps.uploadIdleTimeoutMs ? { idleTimeoutMs: deps.uploadIdleTimeoutMs } : {}) });
  } catch (error) {
    if (error instanceof IntakeError) throw new SubmitRefused(error.status, error.message);
    throw error;
  }
  let keep = false;
  try {
    if (file.size === 0) throw new SubmitRefused(400, 'The file is empty. Choose the file with your paper in it.');
    const type = detectFileType(file.head);
    if (type === null || !settings.allowedFileTypes.includes(type)) {
      const allowed = settings.allowedFileTypes.map((t) => FILE_TYPE_NAMES[t]).join(', ');
      const found = type ? `a ${FILE_TYPE_NAMES[type]} file` : 'not a document type the tool recognises';
      throw new SubmitRefused(422, `This file is ${found}. This assignment takes: ${allowed}.`);
    }
    const identical = previous.find((submission) => submission.sha256 === file.sha256 && submission.state !== 'failed');
    if (identical) return { receipt: receiptOf(identical), duplicate: true };

    const id = randomUUID();
    const storedPath = join(deps.uploadDir, id);
    await rename(file.tempPath, storedPath);
    await syncDirectory(deps.uploadDir);
    let submission;
    try {
      submission = await recordSubmission(deps.db, {
        id,
        assignmentId: assignment.id,
        userId,
        fileLabel: fileLabel(file.originalName, type),
        fileType: type,
        fileSize: file.size,
        sha256: file.sha256,
        storedPath,
        late: decision.late,
      });
    } catch (error) {
      await rm(storedPath, { force: true });
      throw error;
    }
    keep = true;
    // Committed: the receipt stands even if the queue does not answer now; the worker's sweep sends it later.
    await deps.jobs.send(QUEUES.upload, { submissionId: id }, { key: id }).catch((error: unknown) => {
      deps.logger.warn({ err: error, submissionId: id }, 'Could not queue the upload; the periodic sweep will');
    });
    return { receipt: receiptOf(submission), duplicate: false };
  } finally {
    if (!keep) await rm(file.tempPath, { force: true });
  }
}
