// The OIDC `state` values the tool issued at login, kept server-side for 10 minutes and usable once. ltijs also
// sets a state cookie, but an LMS iframe with third-party cookies blocked never sends it back; the stored state
// stands in for it, and refuses a launch whose state the tool never issued or already used.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';

const STATE_LIFETIME_SECONDS = 600;

export async function recordState(db: Kysely<DatabaseSchema>, state: string, issuer: string): Promise<void> {
  await db
    .insertInto('oidc_state')
    .values({ state, issuer, expires_at: sql<Date>`now() + make_interval(secs => ${STATE_LIFETIME_SECONDS})` })
    .execute();
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
