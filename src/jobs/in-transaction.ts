// A job queued in the caller's transaction: it commits, or rolls back, with what it works on (a submission and its
// upload job are one commit). pg-boss takes such a connection as `db` in its send options.
import { CompiledQuery, type Kysely } from 'kysely';

/** A kysely transaction (or connection) that a job can be queued in. */
export type Transactional = Pick<Kysely<never>, 'executeQuery'>;

/** pg-boss's `db` option over a kysely transaction. */
export function jobsDbOf(within: Transactional): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  return {
    async executeSql(text, values = []) {
      const result = await within.executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows as unknown[] };
    },
  };
}
