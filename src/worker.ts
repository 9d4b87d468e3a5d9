// The worker side of the tool: the job handlers, and a sweep that re-queues work a crash or a lost send left
// without a job (the submission row is the truth; a job is only a reminder to act on it).
import { sql, type Kysely } from 'kysely';
import type { Provider } from 'ltijs';
import { applyFolderSettings } from './assignments/folder.js';
import type { DatabaseSchema } from './db/index.js';
import { clearGrade, postGrade } from './grades/post-grade.js';
import { QUEUES, type Jobs } from './jobs/index.js';
import type { Logger } from './logger.js';
import { pollSubmission, readResult, submissionsForPaper, uploadSubmission, type PipelineDeps } from './submissions/pipeline.js';
import type { PaperServices } from './checker/index.js';
import { transition } from './submissions/state.js';

export interface WorkerDeps {
  db: Kysely<DatabaseSchema>;
  jobs: Jobs;
  services: PaperServices;
  provider: Provider;
  storage: { Delete(collection: string, query: Record<string, unknown>): Promise<unknown> };
  pollScheduleSeconds: number[];
  logger: Logger;
}

const SWEEP_INTERVAL_MS = 60_000;

export class PaperNotRecordedYet extends Error {}

export async function startWorker(deps: WorkerDeps): Promise<{ stop(): void }> {
  // A send's lease lapses well before the job's expiry, when the job is handed to another worker.
  const sendLeaseSeconds = deps.jobs.expireSeconds / 2;
  const pipeline: PipelineDeps = { db: deps.db, services: deps.services, jobs: deps.jobs, pollScheduleSeconds: deps.pollScheduleSeconds, sendLeaseSeconds, logger: deps.logger };

  await deps.jobs.work<{ submissionId: string }>(QUEUES.upload, (job) => uploadSubmission(pipeline, job.data.submissionId, job.retryCount + 1));
  await deps.jobs.work<{ submissionId: string; round: number }>(QUEUES.poll, (job) => pollSubmission(pipeline, job.data.submissionId, job.data.round ?? 0));
  await deps.jobs.work<{ submissionId?: string; paperId?: number }>(QUEUES.result, async (job) => {
    const submissionIds = job.data.submissionId ? [job.data.submissionId] : job.data.paperId !== undefined ? await submissionsForPaper(deps.db, job.data.paperId) : [];
    // A callback can arrive before the upload job has stored the paper id: try again shortly.
    if (submissionIds.length === 0) throw new PaperNotRecordedYet(`No submission holds paper ${job.data.paperId} yet.`);
    // Each from its own account: see callback-route.ts.
    for (const submissionId of submissionIds) await readResult(pipeline, submissionId, 'Result announced by the service');
  });
  await deps.jobs.work<{ assignmentId: string }>(QUEUES.folder, async (job) => applyFolderSettings(deps.db, await deps.services.forAssignment(job.data.assignmentId), job.data.assignmentId));
  await deps.jobs.work<{ submissionId?: string; resync?: boolean; clear?: { assignmentId: string; userId: string } }>(QUEUES.grade, async (job) => {
    const grades = { db: deps.db, provider: deps.provider, storage: deps.storage, logger: deps.logger };
    if (job.data.clear) {
      await clearGrade(grades, job.data.clear);
      return;
    }
    if (!job.data.submissionId) return;
    const outcome = await postGrade(grades, job.data.submissionId, { resync: job.data.resync === true });
    if (outcome.kind === 'final') {
      await transition(deps.db, { submissionId: job.data.submissionId, to: 'graded', reason: `Score ${outcome.score} posted to the gradebook` });
    }
  });

  const sweep = setInterval(() => {
    sweepForgottenWork(deps).catch((error: unknown) => deps.logger.warn({ err: error }, 'The work sweep failed; it runs again in a minute'));
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  return { stop: () => clearInterval(sweep) };
}

/**
 * Submissions waiting in a state that needs a job, with no job of that kind for them: none queued, running, or
 * failed (a job that used up its retries waits for someone to press retry, it is not restarted in a loop).
 * A checked paper waits for its grade post, unless the gradebook refused it or a later attempt owns the cell.
 */
async function waitingWithoutJob(db: Kysely<DatabaseSchema>, state: 'received' | 'uploading' | 'processing' | 'scored', queue: string): Promise<string[]> {
  const rows = await db
    .selectFrom('submission')
    .select('id')
    .where('state', '=', state)
    .$if(state === 'scored', (query) =>
      query
        .where('grade_state', 'not in', ['not-gradable', 'failed'])
        .where(
          sql<boolean>`NOT EXISTS (SELECT 1 FROM submission later WHERE later.assignment_id = submission.assignment_id AND later.user_id = submission.user_id AND later.attempt > submission.attempt AND later.state <> 'rejected')`,
        ),
    )
    .where('updated_at', '<', sql<Date>`now() - interval '1 minute'`)
    .where(({ not, exists }) =>
      not(
        exists(
          sql`(SELECT 1 FROM pgboss.job j WHERE j.name = ${queue} AND j.singleton_key = submission.id::text AND j.state IN ('created', 'retry', 'active', 'failed'))`,
        ),
      ),
    )
    .limit(500)
    .execute();
  return rows.map((row) => row.id);
}

export async function sweepForgottenWork(deps: Pick<WorkerDeps, 'db' | 'jobs' | 'logger'>): Promise<number> {
  let requeued = 0;
  for (const state of ['received', 'uploading'] as const) {
    for (const id of await waitingWithoutJob(deps.db, state, QUEUES.upload)) {
      if (await deps.jobs.send(QUEUES.upload, { submissionId: id }, { key: id })) requeued += 1;
    }
  }
  for (const id of await waitingWithoutJob(deps.db, 'processing', QUEUES.poll)) {
    if (await deps.jobs.send(QUEUES.poll, { submissionId: id, round: 0 }, { key: id })) requeued += 1;
  }
  // A score whose grade job was never queued (the connection dropped between the two) still reaches the gradebook.
  for (const id of await waitingWithoutJob(deps.db, 'scored', QUEUES.grade)) {
    if (await deps.jobs.send(QUEUES.grade, { submissionId: id }, { key: id })) requeued += 1;
  }
  if (requeued > 0) deps.logger.info({ requeued }, 'Re-queued submissions that had no job');
  return requeued;
}
