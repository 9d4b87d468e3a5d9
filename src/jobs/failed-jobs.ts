// Jobs that used up their retries, newest first, for the administrator to read and retry. A platform's
// administrator sees those of their own platform only: a job's key is the submission or the assignment it acts on
// (the submission and assignment queues key their jobs so) or the LMS asset (the Asset Processor's), which names the
// platform.
import type { Queryable } from './queryable.js';

export interface FailedJob {
  id: string;
  queue: string;
  key: string | null;
  failedAt: Date;
  reason: string;
}

/** Which failed jobs: all, or a platform's; and optionally the one with this id. */
export interface FailedJobScope {
  platformId: string | null;
  jobId?: string;
}

const FAILED_JOBS = `
  SELECT j.id, j.name, j.singleton_key, j.completed_on, j.output
    FROM pgboss.job j
   WHERE j.state = 'failed'
     AND ($1::uuid IS NULL
          OR j.singleton_key IN (SELECT s.id::text FROM submission s JOIN assignment a ON a.id = s.assignment_id WHERE a.platform_id = $1::uuid)
          OR j.singleton_key IN (SELECT a.id::text FROM assignment a WHERE a.platform_id = $1::uuid)
          OR j.singleton_key IN (SELECT x.id::text FROM lms_asset x JOIN assignment a ON a.id = x.assignment_id WHERE a.platform_id = $1::uuid))
     AND ($2::uuid IS NULL OR j.id = $2::uuid)
   ORDER BY j.completed_on DESC
   LIMIT 100`;

export async function failedJobs(db: Queryable, scope: FailedJobScope): Promise<FailedJob[]> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    singleton_key: string | null;
    completed_on: Date;
    output: unknown;
  }>(FAILED_JOBS, [scope.platformId, scope.jobId ?? null]);
  return rows.map((row) => {
    const output = row.output as { message?: unknown } | null;
    return {
      id: row.id,
      queue: row.name,
      key: row.singleton_key,
      failedAt: row.completed_on,
      reason: typeof output?.message === 'string' ? output.message.slice(0, 500) : 'no reason recorded',
    };
  });
}
