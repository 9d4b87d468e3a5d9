// The service announces a finished analysis (its callback, spec section 6) by a paper id alone. The announcement
// only queues a read-back: the result is read from the service (pipeline.ts readResult), never taken from the
// callback's body.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, type JobData, type Jobs } from '../jobs/index.js';
import { readResult, type PipelineDeps } from './pipeline.js';

/** A few seconds for the upload job to record the paper when the callback outruns the upload's own answer. */
const EARLY_CALLBACK_DELAY_SECONDS = 5;

/** The result job's data: one submission's paper, or a paper id (its payload, declared in jobs/queues.ts). */
export type ResultJob = JobData<typeof QUEUES.result>;

/** A callback arrived before the upload job stored the paper id: the job tries again shortly. */
export class PaperNotRecordedYet extends Error {}

/**
 * The submissions holding a paper with this id: none while the upload has not recorded it yet, and one per
 * service account that handed out the id (a paper is known by (account, id), a callback names only the id).
 */
export async function submissionsForPaper(db: Kysely<DatabaseSchema>, paperId: number): Promise<string[]> {
  return (await submissionsForPapers(db, [paperId])).get(paperId) ?? [];
}

/** The same for several papers, in one query: each paper id with the submissions holding it. */
async function submissionsForPapers(db: Kysely<DatabaseSchema>, paperIds: number[]): Promise<Map<number, string[]>> {
  const rows = await db
    .selectFrom('submission')
    .select(['id', 'paper_id'])
    .where('paper_id', 'in', paperIds.map(String))
    .execute();
  const holding = new Map<number, string[]>();
  for (const row of rows) holding.set(Number(row.paper_id), [...(holding.get(Number(row.paper_id)) ?? []), row.id]);
  return holding;
}

export interface ResultReadBackDeps {
  db: Kysely<DatabaseSchema>;
  jobs: Jobs;
}

/**
 * Queues the read-back of every submission holding each paper. Every service account registers the same callback
 * address and two services may hand out the same id, so each is read back from its own account; only the account
 * whose paper finished settles its submission, the others read "pending" and change nothing. (A callback that
 * outruns the recording of its paper while another account's submission holds the same id is caught by the
 * poller.) Keyed by submission (or paper): a repeated callback finds its job already queued and adds nothing.
 * Gives, per paper, how many submissions hold it.
 */
async function queueResultReadBacks(deps: ResultReadBackDeps, paperIds: number[]): Promise<number[]> {
  const holding = await submissionsForPapers(deps.db, paperIds);
  const jobs = paperIds.flatMap((paperId): Array<{ data: ResultJob; key: string; startAfterSeconds?: number }> => {
    const submissionIds = holding.get(paperId) ?? [];
    if (submissionIds.length === 0)
      return [
        {
          data: { paperId } satisfies ResultJob,
          key: `paper-${paperId}`,
          startAfterSeconds: EARLY_CALLBACK_DELAY_SECONDS,
        },
      ];
    return submissionIds.map((submissionId) => ({ data: { submissionId } satisfies ResultJob, key: submissionId }));
  });
  await deps.jobs.sendMany(QUEUES.result, jobs);
  return paperIds.map((paperId) => holding.get(paperId)?.length ?? 0);
}

/** At most this many callbacks are queued by one statement. */
const MOST_PER_BATCH = 200;

/**
 * The service's callbacks, queued in batches: while one batch is being written, the callbacks that arrive wait and
 * go together in the next, so a burst costs a few statements per batch rather than three per callback, and a lone
 * callback waits for nothing. Each callback's answer waits until its read-back is committed.
 */
export class ResultAnnouncements {
  #waiting: Array<{ paperId: number; done(held: number): void; failed(error: unknown): void }> = [];
  #writing = false;

  constructor(private readonly deps: ResultReadBackDeps) {}

  /** Queues the read-back of the paper; gives how many submissions hold it. */
  announce(paperId: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ paperId, done: resolve, failed: reject });
      if (!this.#writing) void this.#write();
    });
  }

  async #write(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#waiting.length > 0) {
        const batch = this.#waiting.splice(0, MOST_PER_BATCH);
        try {
          const held = await queueResultReadBacks(
            this.deps,
            batch.map((callback) => callback.paperId),
          );
          batch.forEach((callback, i) => callback.done(held[i]!));
        } catch (error) {
          for (const callback of batch) callback.failed(error);
        }
      }
    } finally {
      this.#writing = false;
    }
  }
}

/** The result job: each submission holding the paper read back from its own account. */
export async function runResultJob(deps: PipelineDeps, job: ResultJob): Promise<void> {
  const submissionIds = job.submissionId
    ? [job.submissionId]
    : job.paperId !== undefined
      ? await submissionsForPaper(deps.db, job.paperId)
      : [];
  if (submissionIds.length === 0) throw new PaperNotRecordedYet(`No submission holds paper ${job.paperId} yet.`);
  for (const submissionId of submissionIds) await readResult(deps, submissionId, 'Result announced by the service');
}
