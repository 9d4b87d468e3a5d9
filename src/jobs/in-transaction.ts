// A job queued in the caller's transaction: it commits, or rolls back, with what it works on (a submission and its
// upload job are one commit). pg-boss takes such a connection as `db` in its send options; the queue's own reads
// (is a key's job running?) go through the same transaction: on PGlite, whose one backend serves one transaction at
// a time, a read on another connection would wait for this transaction to end, which waits for the read.
import { CompiledQuery, type Kysely } from 'kysely';
import type { Queryable } from './queryable.js';

/** A kysely transaction (or connection) that a job can be queued in. */
export type Transactional = Pick<Kysely<never>, 'executeQuery'>;

async function rowsOf(within: Transactional, text: string, values: readonly unknown[] = []): Promise<unknown[]> {
  return (await within.executeQuery(CompiledQuery.raw(text, [...values]))).rows as unknown[];
}

/** pg-boss's `db` option over a kysely transaction. */
export function jobsDbOf(within: Transactional): {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
} {
  return { executeSql: async (text, values) => ({ rows: await rowsOf(within, text, values) }) };
}

/** The job queue's own reads, in the caller's transaction. */
export function queryableOf(within: Transactional): Queryable {
  return {
    query: (async (text: string, values?: unknown[]) => ({
      rows: await rowsOf(within, text, values),
    })) as unknown as Queryable['query'],
  };
}
