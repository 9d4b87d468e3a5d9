// What the grade posts work with, passed in by their callers (the worker's jobs, the pages' resync).
import type { Kysely } from 'kysely';
import type { Provider } from 'ltijs';
import type { DatabaseSchema } from '../db/index.js';

export interface GradeDeps {
  db: Kysely<DatabaseSchema>;
  provider: Provider;
  /** ltijs's storage, to forget an access token the platform refused. */
  storage: { Delete(collection: string, query: Record<string, unknown>): Promise<unknown> };
  logger: { info(details: object, message: string): void; warn(details: object, message: string): void };
}
