// How many submissions are in each state, across the installation (for /metrics): one GROUP BY.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema, SubmissionState } from '../db/index.js';
import { NEXT_STATES } from './state.js';

export async function countSubmissionsByState(db: Kysely<DatabaseSchema>): Promise<Record<SubmissionState, number>> {
  const { rows } = await sql<{ state: SubmissionState; count: string }>`
    SELECT state, count(*) AS count FROM submission GROUP BY state`.execute(db);
  // Every state is named, those with no submission as 0, so that a state emptied since the last scrape reads 0.
  const counts = Object.fromEntries(Object.keys(NEXT_STATES).map((state) => [state, 0])) as Record<
    SubmissionState,
    number
  >;
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}
