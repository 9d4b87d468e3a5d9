// The work sweep: the submission row is the truth, a job only a reminder to act on it. A crash or a lost send can
// leave a submission waiting in a state that needs a job with none for it; every minute such submissions get
// their job again. And a file no submission names, left by a process that died while it arrived, is deleted.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, hasOpenJob, type Jobs, type QueueName } from '../jobs/index.js';
import { ownsCell } from './cell-owner.js';
import { deleteUnclaimedChunks } from './file-store.js';

/** Waiting this long without a job means forgotten, not about to be queued by the step that moved it. */
const FORGOTTEN_AFTER = sql<Date>`now() - interval '1 minute'`;
const BATCH = 500;

/**
 * Submissions waiting in a state that needs a job of the queue, with no open job for them (queued, running, or
 * failed: a job that used up its retries waits for someone to press retry, it is not restarted in a loop).
 * A checked paper waits for its grade post, unless the gradebook refused it or a later attempt owns the cell.
 */
async function waitingWithoutJob(
  db: Kysely<DatabaseSchema>,
  state: 'received' | 'uploading' | 'processing' | 'scored',
  queue: QueueName,
): Promise<string[]> {
  const rows = await db
    .selectFrom('submission')
    .select('id')
    .where('state', '=', state)
    .$if(state === 'scored', (query) =>
      query
        .where('grade_state', 'not in', ['not-gradable', 'failed'])
        .where(ownsCell('submission'))
        // An Asset Processor's paper never goes to the gradebook (result-sink.ts).
        .where('assignment_id', 'in', db.selectFrom('assignment').select('id').where('kind', '=', 'gradebook')),
    )
    .where('updated_at', '<', FORGOTTEN_AFTER)
    .where(({ not }) => not(hasOpenJob(queue, 'submission.id')))
    .limit(BATCH)
    .execute();
  return rows.map((row) => row.id);
}

/** Queues the job each forgotten submission waits for; gives how many were queued. */
export async function sweepForgottenWork(deps: {
  db: Kysely<DatabaseSchema>;
  jobs: Jobs;
  logger: { info(details: object, message: string): void };
}): Promise<number> {
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

/** Deletes what files no submission names left in the store (file-store.ts says when one is no longer arriving). */
export async function sweepUnclaimedFiles(deps: {
  db: Kysely<DatabaseSchema>;
  logger: { info(details: object, message: string): void };
}): Promise<number> {
  const chunks = await deleteUnclaimedChunks(deps.db);
  if (chunks > 0) deps.logger.info({ chunks }, 'Deleted what interrupted uploads left of their files');
  return chunks;
}
