// The OIDC `state` values the tool issued at login, kept server-side for 10 minutes and usable once. ltijs also
// sets a state cookie, but an LMS iframe with third-party cookies blocked never sends it back; the stored state
// stands in for it, and refuses a launch whose state the tool never issued or already used.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';

const STATE_LIFETIME_SECONDS = 600;

/** Where the login asked to keep the state in the LMS's window too (LTI platform storage). */
export interface StateStorage {
  target: string;
  origin: string;
}

export async function recordState(db: Kysely<DatabaseSchema>, state: string, issuer: string, storage: StateStorage | null = null): Promise<void> {
  await db
    .insertInto('oidc_state')
    .values({
      state,
      issuer,
      expires_at: sql<Date>`now() + make_interval(secs => ${STATE_LIFETIME_SECONDS})`,
      storage_target: storage?.target ?? null,
      storage_origin: storage?.origin ?? null,
    })
    .execute();
}

/** The platform storage a live state was issued with, without using the state up; undefined when unknown. */
export async function stateStorage(db: Kysely<DatabaseSchema>, state: string): Promise<StateStorage | null | undefined> {
  const row = await db
    .selectFrom('oidc_state')
    .select(['storage_target', 'storage_origin'])
    .where('state', '=', state)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  if (!row) return undefined;
  return row.storage_target && row.storage_origin ? { target: row.storage_target, origin: row.storage_origin } : null;
}

/** The issuer the state was issued for, removing it; null when unknown, expired or already used. */
export async function consumeState(db: Kysely<DatabaseSchema>, state: string): Promise<string | null> {
  const row = await db
    .deleteFrom('oidc_state')
    .where('state', '=', state)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('issuer')
    .executeTakeFirst();
  return row?.issuer ?? null;
}

export async function sweepStates(db: Kysely<DatabaseSchema>): Promise<number> {
  const result = await db.deleteFrom('oidc_state').where('expires_at', '<=', sql<Date>`now()`).executeTakeFirst();
  return Number(result.numDeletedRows);
}
