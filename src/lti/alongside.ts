// A row that the code after a launch or a page's session needs, read in the same round trip as the launch's record
// or the session (launch.ts, session.ts), so that a launch and its first page cost fewer statements. The part that
// owns the row writes the query and reads its answer; these two only carry it.
import type { RawBuilder } from 'kysely';

export interface Alongside {
  /** What the row is (e.g. the assignment with some id), so that its reader uses it only for what it asked about. */
  key: string;
  /** A scalar subquery giving one JSON value, or NULL. */
  query: RawBuilder<unknown>;
}

/** What came back: the asked-for row as JSON (null when there is none), under its key. */
export interface ReadAlongside {
  key: string;
  row: unknown;
}

/**
 * The row read under `key` among what came back; undefined when nothing was asked under that key (its reader then
 * reads it itself). `{ row: null }`: it was asked, and there is none.
 */
export function alongsideRow(read: readonly ReadAlongside[] | undefined, key: string): { row: unknown } | undefined {
  const found = read?.find((entry) => entry.key === key);
  return found ? { row: found.row } : undefined;
}
