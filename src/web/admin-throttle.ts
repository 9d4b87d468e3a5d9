// Wrong bootstrap tokens (ADMIN_TOKEN) sent to /admin from one address: the token opens the whole installation, so
// guessing it must be slow. The first few wrong ones are answered at once (a person mistypes), the next ones each a
// little later than the one before, and past a limit the address is refused for a while (429 with Retry-After),
// whatever token it sends, the right one too, so that a refusal tells a guesser nothing. Another address is not
// held: the administrator at their own machine still gets in. Attempts are counted as they arrive, so that guesses
// sent all at once are counted as surely as guesses sent one after another. Kept in the process's memory, as the
// registration limit is (web/registration.ts): a restart forgets it, and several web processes each count their own.
// The address is the client's as web/client-address.ts reads it: behind a reverse proxy named in TRUSTED_PROXIES, the
// forwarded client's, so that a stranger's wrong tokens never hold the administrator's right one.

/** Wrong tokens an address may send in a window before its answers are held back. */
export const FREE_FAILURES = 5;
/** Wrong tokens in a window after which the address is refused for `LOCK_MS`. */
export const LOCKING_FAILURES = 20;
/** How long wrong tokens are remembered, counted from the first; and how long an address that sent too many is refused. */
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;
/** Each wrong token past the free ones is answered this much later than the one before, up to `SLOWEST_MS`. */
const STEP_MS = 500;
const SLOWEST_MS = 5_000;
/** Addresses remembered at most: the oldest is forgotten first, so that the memory stays bounded. */
const MAX_TRACKED_ADDRESSES = 10_000;

interface Failures {
  count: number;
  since: number;
  lockedUntil: number;
}

export class TokenThrottle {
  readonly #failures = new Map<string, Failures>();

  constructor(private readonly now: () => number = Date.now) {}

  #current(address: string): Failures | null {
    const entry = this.#failures.get(address);
    if (!entry) return null;
    const now = this.now();
    if (entry.lockedUntil > now || (entry.lockedUntil === 0 && now - entry.since < WINDOW_MS)) return entry;
    this.#failures.delete(address);
    return null;
  }

  /** How long the address is still refused, in milliseconds; 0 when it is not. */
  refusedFor(address: string): number {
    const entry = this.#current(address);
    return entry ? Math.max(0, entry.lockedUntil - this.now()) : 0;
  }

  /** Counts a wrong token: how long to hold its answer, and whether the address is refused from now on. */
  failed(address: string): { holdMs: number; refusedMs: number } {
    let entry = this.#current(address);
    if (!entry) {
      if (this.#failures.size >= MAX_TRACKED_ADDRESSES) this.#failures.delete(this.#failures.keys().next().value!);
      entry = { count: 0, since: this.now(), lockedUntil: 0 };
      this.#failures.set(address, entry);
    }
    entry.count += 1;
    if (entry.count >= LOCKING_FAILURES) {
      entry.lockedUntil = this.now() + LOCK_MS;
      return { holdMs: 0, refusedMs: LOCK_MS };
    }
    const past = entry.count - FREE_FAILURES;
    return { holdMs: past > 0 ? Math.min(SLOWEST_MS, past * STEP_MS) : 0, refusedMs: 0 };
  }

  /** The right token: the address's wrong ones are forgotten. */
  succeeded(address: string): void {
    this.#failures.delete(address);
  }
}
