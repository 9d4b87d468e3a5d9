// Whether work has a job: one waiting, retrying, running, or failed (a job that used up its retries waits for an
// administrator's retry; it is not a forgotten one). As an SQL condition, so that a search for work without a job
// filters in the database rather than after a limit.
import { sql, type RawBuilder } from 'kysely';
import type { QueueName } from './queues.js';

/** SQL condition, true when the queue holds an open job whose key is the value of `keyColumn` (as text). */
export function hasOpenJob(queue: QueueName, keyColumn: string): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM pgboss.job j WHERE j.name = ${queue} AND j.singleton_key = ${sql.ref(keyColumn)}::text AND j.state IN ('created', 'retry', 'active', 'failed'))`;
}
