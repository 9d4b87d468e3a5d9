// What every door does with a file it has received (the tool's upload page today, an LMS's notice next): check its
// real type, find it among the student's earlier attempts, store it, commit the submission, and queue its upload.
// Only then is there a receipt. Whatever is not kept is removed, so a refusal leaves nothing behind.
import { randomUUID } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Assignment } from '../assignments/store.js';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import type { ToolMetrics } from '../metrics.js';
import { fileLabel } from './file-label.js';
import { detectFileType, FILE_TYPE_NAMES } from './file-type.js';
import type { ReceivedFile } from './intake.js';
import { receiptOf, recordSubmission, type Receipt, type Submission } from './store.js';

export class SubmitRefused extends Error {
  constructor(
    readonly status: 400 | 408 | 409 | 413 | 415 | 422,
    message: string,
  ) {
    super(message);
    this.name = 'SubmitRefused';
  }
}

export interface AdmitDeps {
  db: Kysely<DatabaseSchema>;
  jobs: Jobs;
  uploadDir: string;
  logger: { warn(details: object, message: string): void };
  metrics: Pick<ToolMetrics, 'submissionsReceived'>;
}

/** Whose attempt the file is, as the door found it allowed: the student's counted attempts and whether it is late. */
export interface Attempt {
  assignment: Assignment;
  userId: string;
  previous: Submission[];
  late: boolean;
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

export async function admitFile(deps: AdmitDeps, attempt: Attempt, file: ReceivedFile): Promise<SubmitResult> {
  const { settings } = attempt.assignment;
  let keep = false;
  try {
    if (file.size === 0) throw new SubmitRefused(400, 'The file is empty. Choose the file with your paper in it.');
    const type = detectFileType(file.head);
    if (type === null || !settings.allowedFileTypes.includes(type)) {
      const allowed = settings.allowedFileTypes.map((t) => FILE_TYPE_NAMES[t]).join(', ');
      const found = type ? `a ${FILE_TYPE_NAMES[type]} file` : 'not a document type the tool recognises';
      throw new SubmitRefused(422, `This file is ${found}. This assignment takes: ${allowed}.`);
    }
    const identical = attempt.previous.find((submission) => submission.sha256 === file.sha256 && submission.state !== 'failed');
    if (identical) return { receipt: receiptOf(identical), duplicate: true };

    const id = randomUUID();
    const storedPath = join(deps.uploadDir, id);
    await rename(file.tempPath, storedPath);
    await syncDirectory(deps.uploadDir);
    let submission;
    try {
      submission = await recordSubmission(deps.db, {
        id,
        assignmentId: attempt.assignment.id,
        userId: attempt.userId,
        fileLabel: fileLabel(file.originalName, type),
        fileType: type,
        fileSize: file.size,
        sha256: file.sha256,
        storedPath,
        late: attempt.late,
      });
    } catch (error) {
      await rm(storedPath, { force: true });
      throw error;
    }
    keep = true;
    deps.metrics.submissionsReceived.inc();
    // Committed: the receipt stands even if the queue does not answer now; the worker's sweep sends it later.
    await deps.jobs.send(QUEUES.upload, { submissionId: id }, { key: id, newKey: true }).catch((error: unknown) => {
      deps.logger.warn({ err: error, submissionId: id }, 'Could not queue the upload; the periodic sweep will');
    });
    return { receipt: receiptOf(submission), duplicate: false };
  } finally {
    if (!keep) await rm(file.tempPath, { force: true });
  }
}
