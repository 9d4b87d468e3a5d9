// What every launch reads of the registrations and does not change between launches (a platform's record and its
// status, its deployments and keys URL, the tool's own keys, the hosts that may frame it), kept in this process's
// memory. It is good while the registrations' version (one row that triggers raise with every change, migration
// 0015) is the one this process read last:
// - a launch's one write (launch.ts) takes effect only while the version is the one its checks read, and reads it: a
//   platform switched off, a key or keys URL changed, or a registration removed takes effect on the next launch in
//   every process (the launch is checked again against the registrations as they are now);
// - other readers (grade posts, pages, the login) read it again when it is older than MAX_AGE_MS;
// - a change made through this process forgets at once.
// Entries read while the version moved are not kept: a read that started before a change may have missed it.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';

/** How stale the registrations may be for readers other than a launch. */
export const MAX_AGE_MS = 1000;

interface Entry {
  version: string;
  value: unknown;
}

export class RegistrationCache {
  #version: string | null = null;
  #observedAt = 0;
  #reading: Promise<void> | null = null;
  #entries = new Map<string, Entry>();
  #loading = new Map<string, Promise<unknown>>();

  constructor(private readonly readVersion: () => Promise<string>) {}

  /** The version the kept entries are good for; null until one is read, and after a change made here. */
  get version(): string | null {
    return this.#version;
  }

  /** Takes a version read elsewhere (by a launch's write); a new one empties the cache. */
  observe(version: string): void {
    if (version !== this.#version) {
      this.#entries.clear();
      this.#loading.clear();
      this.#version = version;
    }
    this.#observedAt = Date.now();
  }

  /** A change made by this process: forget everything now, and read the version again before the next use. */
  forget(): void {
    this.#entries.clear();
    this.#loading.clear();
    this.#version = null;
    this.#observedAt = 0;
  }

  /**
   * Reads the version now; true when it moved from the one held (what was kept is then forgotten). For a refusal
   * made from memory, which must not stand on a registration changed a moment ago.
   */
  async moved(): Promise<boolean> {
    const held = this.#version;
    await this.#refresh();
    return this.#version !== held;
  }

  /** The version, read again first when it is older than MAX_AGE_MS. */
  async current(): Promise<string> {
    if (this.#version === null || Date.now() - this.#observedAt > MAX_AGE_MS) await this.#refresh();
    return this.#version!;
  }

  /**
   * The value kept under `key`, or `load`'s, kept while the version stays. `keep` says whether a loaded value is
   * worth keeping (a platform not found is not: it may be registered any moment).
   */
  async get<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean = () => true): Promise<T> {
    await this.current();
    const version = this.#version!;
    const kept = this.#entries.get(key);
    if (kept && kept.version === version) return kept.value as T;
    // Launches arriving together after a change share one read.
    const pending = this.#loading.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const loading = load().then((value) => {
      if (this.#loading.get(key) === loading) this.#loading.delete(key);
      if (this.#version === version && keep(value)) this.#entries.set(key, { version, value });
      return value;
    });
    this.#loading.set(key, loading);
    loading.catch(() => this.#loading.delete(key));
    return loading;
  }

  #refresh(): Promise<void> {
    this.#reading ??= this.readVersion()
      .then((version) => this.observe(version))
      .finally(() => (this.#reading = null));
    return this.#reading;
  }
}

const caches = new WeakMap<Kysely<DatabaseSchema>, RegistrationCache>();

/** The cache of one database (a process may hold several: the tests start tools side by side). */
export function registrationCache(db: Kysely<DatabaseSchema>): RegistrationCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new RegistrationCache(
      async () => (await db.selectFrom('lti_config_version').select('version').executeTakeFirstOrThrow()).version,
    );
    caches.set(db, cache);
  }
  return cache;
}
