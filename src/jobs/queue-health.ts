// Each queue at a glance, for the administrator and /metrics: how many jobs wait, run and have failed, and how long
// the oldest job that could start has waited (a growing age says no worker takes them). Only jobs still open or
// failed are read: completed ones stay in pg-boss's table for a week and say nothing about the queue's health.
import type { Queryable } from './queryable.js';
import { QUEUE_NAMES, type QueueName } from './queues.js';

export interface QueueHealth {
  queue: QueueName;
  waiting: number;
  running: number;
  failed: number;
  oldestWaitingSeconds: number | null;
}

const QUEUE_COUNTS = `
  SELECT name,
         count(*) FILTER (WHERE state IN ('created', 'retry')) AS waiting,
         count(*) FILTER (WHERE state = 'active') AS running,
         count(*) FILTER (WHERE state = 'failed') AS failed,
         extract(epoch FROM now() - min(created_on) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now()))::int::text AS oldest
    FROM pgboss.job
   WHERE state IN ('created', 'retry', 'active', 'failed')
   GROUP BY name`;

/** Every queue of the tool, in the order QUEUES names them (an idle queue has no rows: all zero). */
export async function queueHealth(db: Queryable): Promise<QueueHealth[]> {
  const { rows } = await db.query<{
    name: string;
    waiting: string;
    running: string;
    failed: string;
    oldest: string | null;
  }>(QUEUE_COUNTS);
  return QUEUE_NAMES.map((queue) => {
    const row = rows.find((r) => r.name === queue);
    return {
      queue,
      waiting: Number(row?.waiting ?? 0),
      running: Number(row?.running ?? 0),
      failed: Number(row?.failed ?? 0),
      oldestWaitingSeconds: row?.oldest ? Number(row.oldest) : null,
    };
  });
}
