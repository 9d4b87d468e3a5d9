// The platforms' public keys (their JWKS), for verifying launches (verify-launch.ts) and notices (notice.ts). ltijs
// fetched a platform's JWKS on every launch through got, with no deadline and no cache (ltijs 5.9.9
// dist/Utils/Auth.js, validateToken): each launch cost the LMS a request, and an LMS whose keys URL hung stalled
// every launch from it. Here the keys are fetched through platform-http (deadline, size limit, address rules) and
// kept five minutes; a set older than that still answers for the keys it holds while it is fetched again behind the
// launch. A set is fetched again early only when a token names a key id the set lacks (a platform rotating its keys),
// and at most once every ten seconds per URL whether the last fetch succeeded or failed, so that a flood of made-up
// key ids cannot turn the tool against the LMS. While a fetch runs, at most two requests wait for it; the others
// are answered at once from the set kept (or "unknown key"), and a failure is remembered for those ten seconds and
// answered at once too: a platform whose keys host hangs cannot make the requests that name it hold the places that
// every school's launches and notices share.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { jwk, type Jwk } from './jwk.js';
import { PlatformRequestError, platformRequest } from './platform-http.js';
import { registrationCache } from './registration-cache.js';

const FRESH_MS = 5 * 60_000;
const REFETCH_FLOOR_MS = 10_000;
/** When the LMS cannot be reached, keys fetched within the last hour still verify its launches. */
const STALE_LIMIT_MS = 60 * 60_000;
/** Well inside the 10 s id_token age (verify-launch.ts), so the person gets the page below rather than an expired launch. */
export const KEYS_TIMEOUT_MS = 5_000;
const MAX_KEYS_BYTES = 256 * 1024;

const keySet = z.object({ keys: z.array(z.unknown()) });

interface CachedSet {
  keys: Jwk[];
  fetchedAt: number;
}

export class PlatformKeysUnavailable extends Error {
  constructor(
    readonly host: string,
    reason: string,
    /**
     * The fetch made no connection: the address rules refused it (platform-http.ts). Nothing of the LMS's is spared
     * by remembering it, and it is not: a network an administrator allows counts from the next request.
     */
    readonly connected = true,
  ) {
    super(`The LMS's signing keys could not be fetched from ${host}: ${reason}`);
    this.name = 'PlatformKeysUnavailable';
  }
}

/** Requests that may wait on one fetch of a key set for its whole deadline. */
export const MAX_WAITING_PER_FETCH = 2;
/**
 * How long the others wait for it: a healthy keys host answers well within it (a class launching at once after a
 * restart all get the set), one that hangs holds them no longer, and they are answered from what is kept.
 */
const OTHERS_WAIT_MS = 500;

interface KeysState {
  /** The last set fetched; kept STALE_LIMIT_MS. */
  set?: CachedSet;
  /** When the last fetch that failed ended, and why; forgotten once a fetch succeeds. */
  failure?: { at: number; error: PlatformKeysUnavailable };
  pending?: Promise<CachedSet>;
  waiting: number;
}

const states = new Map<string, KeysState>();

function stateOf(url: string): KeysState {
  let state = states.get(url);
  if (!state) {
    state = { waiting: 0 };
    states.set(url, state);
  }
  return state;
}

async function download(url: string): Promise<CachedSet> {
  const host = hostOf(url);
  let answer;
  try {
    answer = await platformRequest(url, {
      headers: { accept: 'application/json' },
      timeoutMs: KEYS_TIMEOUT_MS,
      maxBytes: MAX_KEYS_BYTES,
    });
  } catch (error) {
    throw new PlatformKeysUnavailable(
      host,
      error instanceof PlatformRequestError ? error.message : 'the request failed.',
      !(error instanceof PlatformRequestError && error.kind === 'forbidden-address'),
    );
  }
  if (answer.status !== 200) throw new PlatformKeysUnavailable(host, `it answered HTTP ${answer.status}.`);
  let parsed;
  try {
    parsed = keySet.parse(JSON.parse(answer.body));
  } catch {
    throw new PlatformKeysUnavailable(host, 'its answer is not a key set.');
  }
  // One odd entry does not hide the platform's other keys.
  const keys = parsed.keys.flatMap((entry) => {
    const key = jwk.safeParse(entry);
    return key.success ? [key.data] : [];
  });
  return { keys, fetchedAt: Date.now() };
}

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : url);

/** When the set was last asked for, successfully or not: the refetch floor counts from there. */
const lastAttempt = (state: KeysState) => Math.max(state.set?.fetchedAt ?? 0, state.failure?.at ?? 0);

/** Starts the one fetch of the set (none while one runs); its outcome is kept for everyone. */
function startFetch(url: string, state: KeysState): Promise<CachedSet> {
  if (!state.pending) {
    state.pending = download(url)
      .then(
        (set) => {
          state.set = set;
          delete state.failure;
          return set;
        },
        (error: unknown) => {
          const failure =
            error instanceof PlatformKeysUnavailable
              ? error
              : new PlatformKeysUnavailable(hostOf(url), 'the request failed.');
          if (failure.connected) state.failure = { at: Date.now(), error: failure };
          throw failure;
        },
      )
      .finally(() => delete state.pending);
    // Nobody may be waiting (a refresh behind a launch): the failure is kept, not thrown into the void.
    state.pending.catch(() => undefined);
  }
  return state.pending;
}

/**
 * The fresh set; null when too many wait for it already and it did not come within OTHERS_WAIT_MS: answer from what
 * is kept.
 */
async function fetchOrNull(url: string, state: KeysState): Promise<CachedSet | null> {
  if (state.pending && state.waiting >= MAX_WAITING_PER_FETCH) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(resolve, OTHERS_WAIT_MS, null)));
    try {
      return await Promise.race([state.pending, late]);
    } finally {
      clearTimeout(timer);
    }
  }
  const pending = startFetch(url, state);
  state.waiting += 1;
  try {
    return await pending;
  } finally {
    state.waiting -= 1;
  }
}

/**
 * The platform's key with this kid, or null when its key set has none (after one early refetch, within the floor).
 * Throws PlatformKeysUnavailable when no key set can be had at all: at once while a failure is remembered or too many
 * requests wait on the fetch already.
 */
export async function platformKey(jwksUrl: string, kid: string): Promise<Jwk | null> {
  const state = stateOf(jwksUrl);
  const now = Date.now();
  const kept = state.set && now - state.set.fetchedAt <= STALE_LIMIT_MS ? state.set : undefined;
  const floored = now - lastAttempt(state) < REFETCH_FLOOR_MS;
  if (kept) {
    const found = kept.keys.find((key) => key.kid === kid);
    const fresh = now - kept.fetchedAt <= FRESH_MS;
    if (found) {
      if (!fresh && !floored) void startFetch(jwksUrl, state).catch(() => undefined);
      return found;
    }
    if (floored) return null;
    try {
      const set = await fetchOrNull(jwksUrl, state);
      return set?.keys.find((key) => key.kid === kid) ?? null;
    } catch {
      // The LMS did not answer: the set kept says which keys it had.
      return null;
    }
  }
  if (floored && state.failure) throw state.failure.error;
  const set = await fetchOrNull(jwksUrl, state);
  if (!set)
    throw new PlatformKeysUnavailable(hostOf(jwksUrl), 'its keys are being fetched already and did not come in yet.');
  return set.keys.find((key) => key.kid === kid) ?? null;
}

/** Forgets every cached key set (tests; an administrator changing a keys URL needs nothing: the URL is the key). */
export function forgetPlatformKeys(): void {
  states.clear();
}

/** The keys URL our registration holds for a platform (kept with the registrations, registration-cache.ts). */
export async function keysUrlOf(db: Kysely<DatabaseSchema>, platformId: string): Promise<string | null> {
  return registrationCache(db).get(`keys-url:${platformId}`, async () => {
    const row = await db.selectFrom('platform').select('jwks_url').where('id', '=', platformId).executeTakeFirst();
    return row?.jwks_url ?? null;
  });
}
