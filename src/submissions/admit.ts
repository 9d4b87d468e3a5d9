// What every door does with a file it has received (the tool's upload page, an LMS's notice): check its real type,
// find it among the student's earlier attempts, and commit the submission with the rest of its file and its upload
// job. Only then is there a receipt. Whatever is not kept is removed, so a refusal leaves nothing behind.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Assignment } from '../assignments/store.js';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import { inEnglish, type Sentence } from '../i18n/index.js';
import type { ToolMetrics } from '../observe/metrics.js';
import { fileLabel } from './file-label.js';
import { fileTypeName } from '../assignments/settings.js';
import { detectFileType } from './file-type.js';
import { discardReceivedFile, keepReceivedFile, type ReceivedFile } from './received-file.js';
import { receiptOf, recordSubmission, type Receipt, type Submission, type SubmitDecision } from './store.js';

export class SubmitRefused extends Error {
  constructor(
    readonly status: 400 | 403 | 408 | 409 | 413 | 415 | 422,
    /** What the student reads, in their language on a page; the message is its English. */
    readonly sentence: Sentence,
  ) {
    super(inEnglish(sentence));
    this.name = 'SubmitRefused';
  }
}

export interface AdmitDeps {
  db: Kysely<DatabaseSchema>;
  jobs: Jobs;
  metrics: Pick<ToolMetrics, 'submissionsReceived'>;
}

/** Whose attempt the file is, as the door found it allowed: the student's counted attempts and whether it is late. */
export interface Attempt {
  assignment: Assignment;
  userId: string;
  previous: Submission[];
  late: boolean;
  /** The door's attempt rules, decided again on the attempts as they are when the file is recorded (another file of the same student may have been recorded meanwhile). */
  rule?: (countedAttempts: Submission[]) => SubmitDecision;
}

/** An earlier attempt with the same content, which then stands for the file (one that failed is sent again). */
function sameFile(attempts: Submission[], sha256: string): Submission | undefined {
  return attempts.find((submission) => submission.sha256 === sha256 && submission.state !== 'failed');
}

export interface SubmitResult {
  receipt: Receipt;
  /** The same file as an earlier attempt: nothing new was stored or sent. */
  duplicate: boolean;
}

export async function admitFile(deps: AdmitDeps, attempt: Attempt, file: ReceivedFile): Promise<SubmitResult> {
  const { settings } = attempt.assignment;
  let keep = false;
  try {
    if (file.size === 0) throw new SubmitRefused(400, { key: 'upload.empty' });
    const type = detectFileType(file.head);
    if (type === null || !settings.allowedFileTypes.includes(type)) {
      const allowed = settings.allowedFileTypes.map(fileTypeName);
      throw new SubmitRefused(
        422,
        type
          ? { key: 'upload.wrongType', params: { type: fileTypeName(type), allowed } }
          : { key: 'upload.unknownType', params: { allowed } },
      );
    }
    const identical = sameFile(attempt.previous, file.sha256);
    if (identical) return { receipt: receiptOf(identical), duplicate: true };

    const id = randomUUID();
    const recorded = await recordSubmission(
      deps.db,
      {
        id,
        assignmentId: attempt.assignment.id,
        userId: attempt.userId,
        fileLabel: fileLabel(file.originalName, type),
        fileType: type,
        fileSize: file.size,
        sha256: file.sha256,
        fileId: file.fileId,
        late: attempt.late,
      },
      {
        check: (countedNow) => {
          const standing = sameFile(countedNow, file.sha256);
          if (standing) return standing;
          const decision = attempt.rule?.(countedNow);
          if (decision && !decision.allowed) throw new SubmitRefused(409, decision.reason);
          return undefined;
        },
        // The rest of the file and the upload job commit with the submission: a receipt always has its whole file
        // and its job. Each LMS's uploads take turns with the others' (a flood from one does not hold back another's
        // first paper).
        inSameCommit: async (trx) => {
          await keepReceivedFile(trx, file);
          await deps.jobs.send(
            QUEUES.upload,
            { submissionId: id, platformId: attempt.assignment.platformId },
            { key: id, newKey: true, takeTurnsBy: 'platformId', within: trx },
          );
        },
      },
    );
    if (recorded.duplicate) return { receipt: receiptOf(recorded.submission), duplicate: true };
    keep = true;
    deps.metrics.submissionsReceived.inc();
    return { receipt: receiptOf(recorded.submission), duplicate: false };
  } finally {
    if (!keep) await discardReceivedFile(deps.db, file);
  }
}
