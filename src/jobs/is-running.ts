// Whether a job of a queue with this key runs now, in any process.
import type { Queryable } from './queryable.js';
import type { QueueName } from './queues.js';

const IS_RUNNING = `
  SELECT 1 FROM pgboss.job
   WHERE name = $1 AND singleton_key = $2 AND state = 'active'
   LIMIT 1`;

export async function isRunning(db: Queryable, queue: QueueName, key: string): Promise<boolean> {
  const found = await db.query(IS_RUNNING, [queue, key]);
  return (found.rowCount ?? 0) > 0;
}
