// The OIDC `state` values the tool issued at login (login.ts), kept server-side for 10 minutes and usable once. The
// login also sets a state cookie, but an LMS iframe with third-party cookies blocked never sends it back; the stored
// state stands in for it, and refuses a launch whose state the tool never issued or already used.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { registrationCache } from './registration-cache.js';

const STATE_LIFETIME_SECONDS = 600;

/** Where the login asked to keep the state in the LMS's window too (LTI platform storage). */
export interface StateStorage {
  target: string;
  origin: string;
}

export async function recordState(
  db: Kysely<DatabaseSchema>,
  state: string,
  issuer: string,
  storage: StateStorage | null = null,
): Promise<void> {
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

/** A live state as the login stored it, with where it is also kept in the LMS's window. */
export interface IssuedState {
  state: string;
  /** The issuer the login was for. */
  issuer: string;
  /** Where the login asked to keep the state in the LMS's window; null: nowhere. */
  storage: StateStorage | null;
}

/**
 * The state a launch came back with, when the tool issued it and it is still unused; undefined otherwise. The same
 * round trip reads the registrations' version, so that everything this launch reads of the registrations from memory
 * is at least as new as its state (registration-cache.ts). Reading does not use the state up: the launch's one write
 * does (launch.ts), so a state carries one launch at most.
 */
export async function readState(db: Kysely<DatabaseSchema>, state: string): Promise<IssuedState | undefined> {
  const { rows } = await sql<{
    issuer: string | null;
    storage_target: string | null;
    storage_origin: string | null;
    version: string;
  }>`
    SELECT oidc_state.issuer, oidc_state.storage_target, oidc_state.storage_origin,
           lti_config_version.version
      FROM lti_config_version
      LEFT JOIN oidc_state ON oidc_state.state = ${state} AND oidc_state.expires_at > now()`.execute(db);
  const row = rows[0]!;
  registrationCache(db).observe(row.version);
  if (row.issuer === null) return undefined;
  const storage =
    row.storage_target && row.storage_origin ? { target: row.storage_target, origin: row.storage_origin } : null;
  return { state, issuer: row.issuer, storage };
}

export async function sweepStates(db: Kysely<DatabaseSchema>): Promise<number> {
  const result = await db
    .deleteFrom('oidc_state')
    .where('expires_at', '<=', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
