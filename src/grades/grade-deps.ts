// What the grade posts work with, passed in by their callers (the worker's jobs, the pages' resync).
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { PlatformLookup } from '../lti/platform.js';

export interface GradeDeps {
  db: Kysely<DatabaseSchema>;
  /** The platform store, for the token of each service call. */
  provider: PlatformLookup;
  logger: { info(details: object, message: string): void; warn(details: object, message: string): void };
}
