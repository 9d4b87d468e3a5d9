// From a received file to a result: the upload job, the poll job and the read-back of a finished paper. Each
// step reads the submission's state first and moves it with `transition`, so a repeated or late job does
// nothing twice: exactly one paper per submission at the service, one result, one grade.
import { failureOf } from '../checker/index.js';
import type { Kysely } from 'kysely';
import { ensureFolder } from '../assignments/folder.js';
import { getAssignment } from '../assignments/store.js';
import type { DatabaseSchema, SubmissionState } from '../db/index.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import type { ServiceConnections } from '../accounts/connections.js';
import type { ResultSink } from './result-sink.js';
import { readStoredFile } from './received-file.js';
import { replaceEarlierAttempts } from './replace-earlier.js';
import { LeaseLost, takeSendLease, type SendLease } from './send-lease.js';
import { transition } from './state.js';
import { getSubmission, getSubmissionInFolder, toSubmission, type Submission } from './store.js';

export interface PipelineDeps {
  db: Kysely<DatabaseSchema>;
  /** The checking service, per assignment (each lives in one service account). */
  services: ServiceConnections;
  jobs: Jobs;
  /** Where each step a reader outside the tool may see is announced: the gradebook or asset reports (result-sink.ts). */
  sink: ResultSink;
  /** Waits between polls, in seconds; the last one repeats. */
  pollScheduleSeconds: number[];
  /** How long a lease on sending a paper holds before it is renewed (under half the jobs' expiry). */
  sendLeaseSeconds: number;
  logger: { info(details: object, message: string): void; warn(details: object, message: string): void };
}

/** The name the service keeps for the paper: it carries the submission id, so a lost upload can be found again. */
export function serviceFileName(submission: Submission): string {
  return `${submission.id}-${submission.fileLabel}`;
}

export function pollDelay(schedule: number[], round: number): number {
  return schedule[Math.min(round, schedule.length - 1)] ?? 1800;
}

async function authorName(db: Kysely<DatabaseSchema>, userId: string): Promise<string> {
  const user = await db.selectFrom('lti_user').select(['name', 'email']).where('id', '=', userId).executeTakeFirst();
  return (user?.name ?? user?.email ?? 'Student').slice(0, 100);
}

async function schedulePoll(deps: PipelineDeps, submissionId: string, round: number): Promise<void> {
  await deps.jobs.send(
    QUEUES.poll,
    { submissionId, round },
    { key: submissionId, startAfterSeconds: pollDelay(deps.pollScheduleSeconds, round) },
  );
}

/** The file the submission waits to send. */
function fileToSend(submission: Submission): string {
  if (submission.fileId === null) throw new Error(`The file of submission ${submission.id} is no longer kept.`);
  return submission.fileId;
}

/** Another job holds the lease on sending this paper (see send-lease.ts): this one tries again later. */
export class SendInProgress extends Error {}

/** The states in which a paper still waits to be sent (an upload that lost its answer stays `uploading`). */
const AWAITING_UPLOAD: readonly SubmissionState[] = ['received', 'uploading'];
const awaitingUpload = (submission: Submission | null): submission is Submission =>
  submission !== null && AWAITING_UPLOAD.includes(submission.state);

/** The upload job. Throws to be retried (rate limits, outages, lost answers); records refusals. */
export async function uploadSubmission(deps: PipelineDeps, submissionId: string, jobAttempt: number): Promise<void> {
  // The lease is taken only while the paper still waits to be sent, and gives the submission as it is under the
  // lease (a move made while this job waited for it is seen).
  const taken = await takeSendLease(deps.db, submissionId, AWAITING_UPLOAD, deps.sendLeaseSeconds, (error) =>
    deps.logger.warn({ err: error, submissionId }, 'Could not renew the lease on sending a paper'),
  );
  if (!taken) {
    if (!awaitingUpload(await getSubmission(deps.db, submissionId))) return; // sent already, settled or gone
    throw new SendInProgress(
      'Another attempt is sending this paper to the checking service; this one looks again later.',
    );
  }
  const { lease } = taken;
  try {
    await sendPaper(deps, toSubmission(taken.row), lease, jobAttempt);
  } finally {
    await lease
      .release()
      .catch((error: unknown) =>
        deps.logger.warn(
          { err: error, submissionId },
          'Could not give up the lease on sending a paper; it lapses by itself',
        ),
      );
  }
}

/**
 * Sends the paper under the lease: every move it records names the lease (refused once another sender took it
 * over), the lease is confirmed right before the request goes out, and the request is aborted if the lease is
 * lost meanwhile. A lost lease ends the run with LeaseLost, nothing sent or recorded after it: the job runs again
 * and finds the paper where the other sender left it.
 */
async function sendPaper(
  deps: PipelineDeps,
  submission: Submission,
  lease: SendLease,
  jobAttempt: number,
): Promise<void> {
  const submissionId = submission.id;
  const assignment = await getAssignment(deps.db, submission.assignmentId);
  if (!assignment) return;
  // The account the assignment's folder lives in holds the paper; the paper is recorded by (account, id).
  const accountId = assignment.checkerAccountId;
  const service = await deps.services.forAccount(accountId);
  const folderId = await ensureFolder(deps.db, service, assignment);
  const fileName = serviceFileName(submission);

  if (submission.state === 'uploading') {
    // An earlier attempt sent the file and lost the answer (or died): the service may already have it.
    const found = await service.findPaper(folderId, fileName);
    if (found !== null) {
      await accepted(
        deps,
        submission,
        { accountId, paperId: found },
        lease,
        jobAttempt,
        'Found at the service after an interrupted upload',
      );
      return;
    }
  }
  // The file is looked for before the move to uploading: one no process can read yet leaves the paper as it was.
  const fileId = fileToSend(submission);
  if (submission.state !== 'uploading') {
    await transition(deps.db, {
      submissionId,
      to: 'uploading',
      reason: 'Sending the file to the checking service',
      jobAttempt,
      lease: lease.token,
    });
  }
  const { settings } = assignment;
  // Only on the tool's own assignments: an LMS's submission to its own assignment may carry several files, each an
  // attempt here, that none replaces.
  if (assignment.kind === 'gradebook' && settings.earlierAttempts === 'replace') {
    for (const { attempt, outcome } of await replaceEarlierAttempts(
      deps.db,
      service,
      { folderId, accountId },
      submission,
    ))
      if (typeof outcome === 'object')
        deps.logger.warn(
          { submissionId, attempt, reason: outcome.refused },
          'The checking service did not delete the paper of an earlier attempt; it is tried again with the next one',
        );
  }
  let paperId: number;
  // Only the service's own answer is judged here: a failure after it (recording the paper) leaves the submission
  // uploading, so that the retry looks for the paper before sending it again.
  try {
    ({ paperId } = await service.upload({
      folderId,
      // Read from the database chunk by chunk as the request goes (and again if a new login must send it again).
      file: { size: submission.fileSize, read: () => readStoredFile(deps.db, fileId, submission.fileSize) },
      fileName,
      authorName: await authorName(deps.db, submission.userId),
      title: submission.fileLabel,
      documentType: settings.documentType,
      language: settings.language,
      grammarCheck: settings.grammarCheck,
      beforeSend: lease.confirm,
      signal: lease.lost,
    }));
  } catch (error) {
    if (error instanceof LeaseLost) throw error;
    if (lease.lost.aborted) throw lease.lost.reason; // the request was cut off because the lease was lost
    const failure = failureOf(error);
    if (failure.kind === 'refused') {
      const moved = await transition(deps.db, {
        submissionId,
        to: 'rejected',
        reason: failure.message,
        jobAttempt,
        lease: lease.token,
        changes: { failure_reason: failure.message, file_id: null },
      });
      if (moved !== null) await deps.sink.ended(submissionId);
      return;
    }
    if (failure.kind === 'transient') {
      // Refused for now (a rate limit, an outage): the service has no paper, so the next attempt sends without
      // first listing the folder, which for a large folder is many more requests into the same limit.
      await transition(deps.db, {
        submissionId,
        to: 'received',
        reason: failure.message,
        jobAttempt,
        lease: lease.token,
      });
    }
    throw error; // transient and lost: retried with backoff, and a lost one is looked up first (above)
  }
  await accepted(
    deps,
    submission,
    { accountId, paperId },
    lease,
    jobAttempt,
    'Accepted by the checking service; analysis running',
  );
}

async function accepted(
  deps: PipelineDeps,
  submission: Submission,
  paper: { accountId: string | null; paperId: number },
  lease: SendLease,
  jobAttempt: number,
  reason: string,
): Promise<void> {
  // Recorded only while the lease is still this sender's (in the same transaction): a sender that lost it leaves
  // the submission uploading, and whoever holds the lease next finds this paper by its name before sending.
  const moved = await transition(deps.db, {
    submissionId: submission.id,
    to: 'processing',
    reason,
    jobAttempt,
    lease: lease.token,
    // The service has the file now: its bytes go (transition), only hash, size and label stay here.
    changes: { paper_id: paper.paperId, paper_account_id: paper.accountId, file_id: null },
  });
  if (moved === null) return;
  await schedulePoll(deps, submission.id, 0);
  await deps.sink.accepted(submission.id);
}

/**
 * Reads the paper back and stores its result when the analysis is done. Returns whether it is still running.
 * The callback's own body is never trusted: this read is what scores a submission.
 */
export async function readResult(
  deps: PipelineDeps,
  submissionId: string,
  reason: string,
): Promise<'pending' | 'settled'> {
  const found = await getSubmissionInFolder(deps.db, submissionId);
  if (!found) return 'settled';
  const { submission, folderId } = found;
  if (submission.state !== 'processing' || submission.paperId === null || folderId === null) return 'settled';
  if (submission.replacedAt !== null) return 'settled'; // its paper was deleted at the service: no result to come
  // Read from the account that holds the paper: another account may hold a paper with the same id.
  const service = await deps.services.forAccount(submission.paperAccountId);
  const result = await service.result(folderId, submission.paperId);
  if (result.state === 'pending') return 'pending';
  if (result.state === 'error') {
    const moved = await transition(deps.db, {
      submissionId,
      to: 'failed',
      reason: result.reason,
      changes: { failure_reason: result.reason },
    });
    if (moved !== null) await deps.sink.ended(submissionId);
    return 'settled';
  }
  const moved = await transition(deps.db, {
    submissionId,
    to: 'scored',
    reason: `${reason}: similarity ${result.similarity}%`,
    changes: {
      similarity: result.similarity,
      ai_score: result.aiScore,
      grammar_score: result.grammarScore,
      report_key: result.reportKey,
      scored_at: new Date(),
    },
  });
  if (moved !== null) await deps.sink.scored(submissionId);
  return 'settled';
}

/** The poll job: read the paper back; still running → ask again after the next wait of the schedule. */
export async function pollSubmission(deps: PipelineDeps, submissionId: string, round: number): Promise<void> {
  const outcome = await readResult(deps, submissionId, 'Result found by polling');
  if (outcome === 'pending') await schedulePoll(deps, submissionId, round + 1);
}
