// An instructor's "send again" and "resend grade" on one attempt: the job the attempt waits for, queued again.
// Jobs are one per submission at a time, so a job already waiting makes the new one a no-op.
import type { SubmissionState } from '../db/index.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import type { ResultSink } from './result-sink.js';
import type { Submission } from './store.js';

/** The step a submission on its way to a result waits for in each state: its upload, or reading its result. */
const WAITING_FOR: Partial<Record<SubmissionState, 'upload' | 'result'>> = {
  received: 'upload',
  uploading: 'upload',
  processing: 'result',
};

/** A checked paper has a score for the gradebook. */
const HAS_SCORE: readonly SubmissionState[] = ['scored', 'graded'];

export type SendAgain =
  | { outcome: 'queued' | 'already-queued'; step: 'upload' | 'result' | 'grade' }
  /** An upload running now carries on by itself (and looks for its paper at the service before sending it again). */
  | { outcome: 'sending-now' }
  /** Not in a state that waits for this step. */
  | { outcome: 'nothing-to-send' };

/** "Send again": the upload of a paper not yet at the service, or the read-back of one being analysed. */
export async function sendPaperAgain(jobs: Jobs, submission: Submission): Promise<SendAgain> {
  const step = WAITING_FOR[submission.state];
  if (!step) return { outcome: 'nothing-to-send' };
  if (step === 'upload' && (await jobs.isRunning(QUEUES.upload, submission.id))) return { outcome: 'sending-now' };
  const queued = await jobs.send(QUEUES[step], { submissionId: submission.id }, { key: submission.id });
  return { outcome: queued ? 'queued' : 'already-queued', step };
}

/** "Resend grade": a checked paper's score posted to the gradebook again. */
export async function sendGradeAgain(
  deps: { sink: Pick<ResultSink, 'resend'> },
  submission: Submission,
): Promise<SendAgain> {
  if (!HAS_SCORE.includes(submission.state)) return { outcome: 'nothing-to-send' };
  const queued = await deps.sink.resend(submission.id);
  return { outcome: queued ? 'queued' : 'already-queued', step: 'grade' };
}
