// Whether a job of a queue with this key runs now, in any process (or which of several keys do, in one query).
import type { Queryable } from './queryable.js';
import type { QueueName } from './queues.js';

const RUNNING_OF = `
  SELECT DISTINCT singleton_key AS key FROM pgboss.job
   WHERE name = $1 AND singleton_key = ANY($2::text[]) AND state = 'active'`;

/** Which of these keys have a job of the queue running now. */
export async function runningOf(db: Queryable, queue: QueueName, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const found = await db.query<{ key: string }>(RUNNING_OF, [queue, keys]);
  return new Set(found.rows.map((row) => row.key));
}

export async function isRunning(db: Queryable, queue: QueueName, key: string): Promise<boolean> {
  return (await runningOf(db, queue, [key])).has(key);
}
