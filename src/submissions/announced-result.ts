// The service announces a finished analysis (its callback, spec section 6) by a paper id alone. The announcement
// only queues a read-back: the result is read from the service (pipeline.ts readResult), never taken from the
// callback's body.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import { readResult, type PipelineDeps } from './pipeline.js';

/** A few seconds for the upload job to record the paper when the callback outruns the upload's own answer. */
const EARLY_CALLBACK_DELAY_SECONDS = 5;

/** The result job: one submission's paper, or (announced before its upload recorded it) a paper id. */
export interface ResultJob {
  submissionId?: string;
  paperId?: number;
}

/** A callback arrived before the upload job stored the paper id: the job tries again shortly. */
export class PaperNotRecordedYet extends Error {}

/**
 * The submissions holding a paper with this id: none while the upload has not recorded it yet, and one per
 * service account that handed out the id (a paper is known by (account, id), a callback names only the id).
 */
export async function submissionsForPaper(db: Kysely<DatabaseSchema>, paperId: number): Promise<string[]> {
  const rows = await db.selectFrom('submission').select('id').where('paper_id', '=', String(paperId)).execute();
  return rows.map((row) => row.id);
}

export interface ResultReadBackDeps {
  db: Kysely<DatabaseSchema>;
  jobs: Jobs;
}

/**
 * Queues the read-back of every submission holding the paper. Every service account registers the same callback
 * address and two services may hand out the same id, so each is read back from its own account; only the account
 * whose paper finished settles its submission, the others read "pending" and change nothing. (A callback that
 * outruns the recording of its paper while another account's submission holds the same id is caught by the
 * poller.) Keyed by submission (or paper): a repeated callback finds its job already queued and adds nothing.
 * Gives how many submissions hold the paper.
 */
export async function queueResultReadBack(deps: ResultReadBackDeps, paperId: number): Promise<number> {
  const submissionIds = await submissionsForPaper(deps.db, paperId);
  for (const submissionId of submissionIds) await deps.jobs.send(QUEUES.result, { submissionId } satisfies ResultJob, { key: submissionId });
  if (submissionIds.length === 0) {
    await deps.jobs.send(QUEUES.result, { paperId } satisfies ResultJob, { key: `paper-${paperId}`, startAfterSeconds: EARLY_CALLBACK_DELAY_SECONDS });
  }
  return submissionIds.length;
}

/** The result job: each submission holding the paper read back from its own account. */
export async function runResultJob(deps: PipelineDeps, job: ResultJob): Promise<void> {
  const submissionIds = job.submissionId ? [job.submissionId] : job.paperId !== undefined ? await submissionsForPaper(deps.db, job.paperId) : [];
  if (submissionIds.length === 0) throw new PaperNotRecordedYet(`No submission holds paper ${job.paperId} yet.`);
  for (const submissionId of submissionIds) await readResult(deps, submissionId, 'Result announced by the service');
}
