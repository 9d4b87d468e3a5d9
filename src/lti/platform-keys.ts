// The platforms' public keys (their JWKS), for verifying launches (verify-launch.ts) and notices (notice.ts). ltijs
// fetched a platform's JWKS on every launch through got, with no deadline and no cache (ltijs 5.9.9
// dist/Utils/Auth.js, validateToken): each launch cost the LMS a request, and an LMS whose keys URL hung stalled
// every launch from it. Here the keys are fetched through platform-http (deadline, size limit, address rules), kept
// five minutes, and fetched again early only when a launch names a key id the cached set lacks (a platform rotating
// its keys), at most every ten seconds per URL so that a flood of made-up key ids cannot turn the tool against the
// LMS.
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
  ) {
    super(`The LMS's signing keys could not be fetched from ${host}: ${reason}`);
    this.name = 'PlatformKeysUnavailable';
  }
}

const cache = new Map<string, CachedSet>();
const fetching = new Map<string, Promise<CachedSet>>();

async function download(url: string): Promise<CachedSet> {
  const host = URL.canParse(url) ? new URL(url).host : url;
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

/** Fetches the set once however many launches wait for it. */
function refresh(url: string): Promise<CachedSet> {
  let pending = fetching.get(url);
  if (!pending) {
    pending = download(url)
      .then((set) => {
        cache.set(url, set);
        return set;
      })
      .finally(() => fetching.delete(url));
    fetching.set(url, pending);
  }
  return pending;
}

/**
 * The platform's key with this kid, or null when its key set has none (after one early refetch, within the floor).
 * Throws PlatformKeysUnavailable when no key set can be had at all.
 */
export async function platformKey(jwksUrl: string, kid: string): Promise<Jwk | null> {
  let set = cache.get(jwksUrl);
  if (!set || Date.now() - set.fetchedAt > FRESH_MS) {
    try {
      set = await refresh(jwksUrl);
    } catch (error) {
      if (!set || Date.now() - set.fetchedAt > STALE_LIMIT_MS) throw error;
    }
  }
  const found = set.keys.find((key) => key.kid === kid);
  if (found) return found;
  if (Date.now() - set.fetchedAt < REFETCH_FLOOR_MS) return null;
  set = await refresh(jwksUrl);
  return set.keys.find((key) => key.kid === kid) ?? null;
}

/** Forgets every cached key set (tests; an administrator changing a keys URL needs nothing: the URL is the key). */
export function forgetPlatformKeys(): void {
  cache.clear();
}

/** The keys URL our registration holds for a platform (kept with the registrations, registration-cache.ts). */
export async function keysUrlOf(db: Kysely<DatabaseSchema>, platformId: string): Promise<string | null> {
  return registrationCache(db).get(`keys-url:${platformId}`, async () => {
    const row = await db.selectFrom('platform').select('jwks_url').where('id', '=', platformId).executeTakeFirst();
    return row?.jwks_url ?? null;
  });
}
