// ltijs keeps platforms, keys, nonces, OIDC state, access tokens and sessions through a database plugin.
// This is ours, over the tool's PostgreSQL pool: every collection lives in one table, `lti_record`, with the
// collection's natural key made unique so that an upsert is one atomic statement (ltijs-sequelize's
// delete-then-insert duplicates rows under concurrent launches), and with the expiry ltijs expects of MongoDB's
// TTL indexes. The contract it meets is ltijs 5.9.9's `dist/Utils/Database.js`.
//
// Two things keep a launch's cost down. What ltijs reads of a platform on every launch (its record, its status,
// the tool's keys) comes from the registration cache (registration-cache.ts), which triggers keep honest across
// processes. And inside a launch (launch-scope.ts) the nonce and the session's tokens are not written one by one:
// the launch's one statement writes them with the person and the course (launch.ts), and the nonce's uniqueness
// is decided there, by the unique key, instead of by a read before the write. And inside a launch, ltijs's read
// of the platform answers with the key the guard fetched (launchAuthConfig), so ltijs never fetches keys itself.
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { currentLaunch, deferNonce, deferSessionRecord, type LaunchPassage } from './launch-scope.js';
import type { RegistrationCache } from './registration-cache.js';

type Doc = Record<string, unknown>;
type Query = Doc | undefined;

/** The fields ltijs looks a row up by when it replaces it; a row's key is their values. */
const KEY_FIELDS: Record<string, readonly string[]> = {
  platform: ['platformUrl', 'clientId'],
  platformStatus: ['id'],
  publickey: ['platformUrl', 'clientId'],
  privatekey: ['platformUrl', 'clientId'],
  accesstoken: ['platformUrl', 'clientId', 'scopes'],
  idtoken: ['iss', 'clientId', 'deploymentId', 'user'],
  contexttoken: ['contextId', 'user'],
  nonce: ['nonce'],
  state: ['state'],
};

/**
 * Lifetimes in seconds, as ltijs's MongoDB schema sets them. A nonce only needs to outlive the id_token's
 * accepted age (ltijs's tokenMaxAge, 10 s); the ltik carries no expiry, so a session lasts as long as its
 * idtoken and contexttoken rows.
 */
export const LTI_RECORD_TTL_SECONDS: Record<string, number> = {
  nonce: 10,
  state: 600,
  accesstoken: 3600,
  idtoken: 86_400,
  contexttoken: 86_400,
};

const SWEEP_INTERVAL_MS = 60_000;

function recordKey(collection: string, doc: Doc): string {
  const fields = KEY_FIELDS[collection];
  if (!fields) return randomUUID(); // a collection a later ltijs adds: stored, just not de-duplicated
  return JSON.stringify(fields.map((field) => doc[field] ?? null));
}

/** The key of ltijs's record of an OIDC state (which it keeps when the target link has query parameters). */
export function ltijsStateKey(state: string): string {
  return recordKey('state', { state });
}

/**
 * The keys of the two records a session's ltik stands for, as ltijs looks them up (ltijs 5.9.9
 * dist/Provider/Provider.js, sessionValidator): the id token per platform, deployment and user, the context token
 * per context and user.
 */
export function sessionRecordKeys(ltik: {
  platformUrl: string;
  clientId: string;
  deploymentId: string;
  contextId: string;
  user: string;
}): { idToken: string; contextToken: string } {
  return {
    idToken: recordKey('idtoken', {
      iss: ltik.platformUrl,
      clientId: ltik.clientId,
      deploymentId: ltik.deploymentId,
      user: ltik.user,
    }),
    contextToken: recordKey('contexttoken', { contextId: ltik.contextId, user: ltik.user }),
  };
}

/** The record key a query names exactly (every key field given, nothing else), so one index lookup finds it. */
function exactKey(collection: string, query: Query): string | null {
  const fields = KEY_FIELDS[collection];
  if (!fields || !query) return null;
  const given = Object.entries(query).filter(([, value]) => value !== undefined);
  if (given.length !== fields.length || !fields.every((field) => typeof query[field] === 'string')) return null;
  return recordKey(collection, query);
}

/** What a launch reads of its platform, kept in memory between launches; written only by registrations. */
const REGISTRATION_COLLECTIONS = new Set(['platform', 'platformStatus', 'publickey', 'privatekey']);

/** Written once per launch, with the launch's one statement (launch-scope.ts). */
const SESSION_COLLECTIONS = new Set(['idtoken', 'contexttoken']);

/** JSON.stringify drops undefined members, so `{clientId: undefined}` matches any clientId, as in mongoose. */
function containment(query: Query): string {
  return JSON.stringify(query ?? {});
}

function ttl(collection: string): number | null {
  return LTI_RECORD_TTL_SECONDS[collection] ?? null;
}

/**
 * ltijs verifies a launch with the key of the platform record it reads (ltijs 5.9.9 dist/Utils/Auth.js,
 * validateToken: getPlatform(iss, aud), then platformAuthConfig()); with a keys URL (JWK_SET) it would fetch the
 * set itself through got, with no deadline and no cache. During a launch the record of the platform the guard
 * checked answers with the key the guard fetched under a deadline (JWK_KEY, platform-keys.ts); the record of any
 * other platform, looked up by issuer and client id, answers with no key at all, so ltijs refuses the launch rather
 * than fetch anything. A lookup by issuer alone (several records) is no launch's and is left as stored.
 */
function launchAuthConfig(launch: Readonly<LaunchPassage>, query: Query, docs: Doc[]): Doc[] {
  if (typeof query?.platformUrl !== 'string' || typeof query.clientId !== 'string') return docs;
  const matches = query.platformUrl === launch.issuer && query.clientId === launch.clientId;
  return docs.map((doc) => {
    const config = doc.authConfig as { method?: unknown; key?: unknown } | undefined;
    if (config?.method !== 'JWK_SET') return doc;
    return {
      ...doc,
      authConfig: { method: 'JWK_KEY', key: matches && config.key === launch.jwksUrl ? launch.key : undefined },
    };
  });
}

export interface StorageLogger {
  warn(details: object, message: string): void;
}

export class PostgresLtiStorage {
  #sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger?: StorageLogger,
    /** Keeps the registration collections in memory; without it every read goes to the database. */
    private readonly registrations?: RegistrationCache,
  ) {}

  async setup(): Promise<true> {
    // The schema comes from the tool's migrations, which ran before ltijs is deployed.
    this.#sweeper ??= setInterval(() => {
      this.sweep().catch((error: unknown) => this.logger?.warn({ err: error }, 'Could not remove expired LTI records'));
    }, SWEEP_INTERVAL_MS);
    this.#sweeper.unref();
    return true;
  }

  async Close(): Promise<true> {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    return true; // the pool belongs to the tool, which closes it last
  }

  /** Removes rows past their lifetime; reads already ignore them. Returns how many went. */
  async sweep(): Promise<number> {
    const result = await this.pool.query('DELETE FROM lti_record WHERE expires_at <= now()');
    return result.rowCount ?? 0;
  }

  async Get(encryptionKey: string | false, collection: string, query?: Query): Promise<Doc[] | false> {
    const launch = currentLaunch();
    // In a launch the nonce is checked by the launch's one write (a unique key), and ltijs's record of the state
    // was read with ours (oidc-state.ts).
    if (launch && collection === 'nonce') return false;
    if (launch && collection === 'state' && query?.state === launch.state.state) {
      return launch.state.ltijsRecord ? [{ ...launch.state.ltijsRecord }] : false;
    }
    const docs = await this.#readKept(encryptionKey, collection, query);
    return launch && docs && collection === 'platform' ? launchAuthConfig(launch, query, docs) : docs;
  }

  /** A read, the registration collections' from the registration cache when there is one. */
  async #readKept(encryptionKey: string | false, collection: string, query?: Query): Promise<Doc[] | false> {
    if (this.registrations && REGISTRATION_COLLECTIONS.has(collection)) {
      const key = `ltijs:${collection}:${encryptionKey ? 'decrypted' : 'plain'}:${containment(query)}`;
      // A platform without a status record is active (ltijs's default), and its record is found by the id of a
      // registered platform: kept. Other misses are not: their keys come from whoever sends a login.
      const keep = (found: Doc[] | false) => found !== false || collection === 'platformStatus';
      const docs = await this.registrations.get(key, () => this.#read(encryptionKey, collection, query), keep);
      // ltijs builds objects from these and may change them; the kept ones stay as read.
      return docs && docs.map((doc) => structuredClone(doc));
    }
    return this.#read(encryptionKey, collection, query);
  }

  async #read(encryptionKey: string | false, collection: string, query?: Query): Promise<Doc[] | false> {
    const key = exactKey(collection, query);
    const { rows } = key
      ? await this.pool.query<{ doc: Doc; created_at: Date }>(
          `SELECT doc, created_at FROM lti_record
            WHERE collection = $1 AND record_key = $2 AND (expires_at IS NULL OR expires_at > now())`,
          [collection, key],
        )
      : await this.pool.query<{ doc: Doc; created_at: Date }>(
          `SELECT doc, created_at FROM lti_record
            WHERE collection = $1 AND doc @> $2::jsonb AND (expires_at IS NULL OR expires_at > now())
            ORDER BY id`,
          [collection, containment(query)],
        );
    if (rows.length === 0) return false;
    const results: Doc[] = [];
    for (const row of rows) {
      const createdAt = row.created_at.getTime();
      if (encryptionKey) {
        const plain = await this.Decrypt(String(row.doc.data), String(row.doc.iv), encryptionKey);
        results.push({ ...(JSON.parse(plain) as Doc), createdAt });
      } else {
        results.push({ ...row.doc, createdAt });
      }
    }
    return results;
  }

  async Insert(encryptionKey: string | false, collection: string, item: Doc, index?: Doc): Promise<true> {
    const doc = await this.#stored(encryptionKey, item, index);
    const keySource = encryptionKey ? { ...index } : item;
    if (
      collection === 'nonce' &&
      !encryptionKey &&
      deferNonce({ collection, recordKey: recordKey(collection, keySource), doc, ttlSeconds: ttl(collection) })
    )
      return true;
    // A duplicate key (a replayed nonce, a reused state) raises a unique violation, which ltijs reports as a failure.
    await this.pool.query(
      `INSERT INTO lti_record (collection, record_key, doc, expires_at)
       VALUES ($1, $2, $3::jsonb, now() + make_interval(secs => $4::double precision))`,
      [collection, recordKey(collection, keySource), JSON.stringify(doc), ttl(collection)],
    );
    this.#changed(collection);
    return true;
  }

  async Replace(encryptionKey: string | false, collection: string, query: Doc, item: Doc, index?: Doc): Promise<true> {
    const doc = await this.#stored(encryptionKey, item, index);
    const key = recordKey(collection, { ...doc, ...query });
    if (
      SESSION_COLLECTIONS.has(collection) &&
      !encryptionKey &&
      deferSessionRecord({ collection, recordKey: key, doc, ttlSeconds: ttl(collection) })
    )
      return true;
    await this.pool.query(
      `INSERT INTO lti_record (collection, record_key, doc, expires_at)
       VALUES ($1, $2, $3::jsonb, now() + make_interval(secs => $4::double precision))
       ON CONFLICT (collection, record_key)
       DO UPDATE SET doc = excluded.doc, created_at = now(), expires_at = excluded.expires_at`,
      [collection, key, JSON.stringify(doc), ttl(collection)],
    );
    this.#changed(collection);
    return true;
  }

  async Modify(encryptionKey: string | false, collection: string, query: Doc, modification: Doc): Promise<true> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ id: string; doc: Doc }>(
        `SELECT id, doc FROM lti_record
          WHERE collection = $1 AND doc @> $2::jsonb AND (expires_at IS NULL OR expires_at > now())
          ORDER BY id LIMIT 1 FOR UPDATE`,
        [collection, containment(query)],
      );
      const row = rows[0];
      if (row) {
        let doc: Doc;
        if (encryptionKey) {
          const plain = JSON.parse(await this.Decrypt(String(row.doc.data), String(row.doc.iv), encryptionKey)) as Doc;
          const { iv: _iv, data: _data, ...index } = row.doc;
          doc = await this.#stored(encryptionKey, { ...plain, ...modification }, index);
        } else {
          doc = { ...row.doc, ...modification };
        }
        await client.query('UPDATE lti_record SET doc = $2::jsonb, record_key = $3 WHERE id = $1', [
          row.id,
          JSON.stringify(doc),
          recordKey(collection, doc),
        ]);
      }
      await client.query('COMMIT');
      this.#changed(collection);
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async Delete(collection: string, query: Doc): Promise<true> {
    // A launch's state record goes with the launch's one write.
    if (collection === 'state' && query.state === currentLaunch()?.state.state) return true;
    await this.pool.query('DELETE FROM lti_record WHERE collection = $1 AND doc @> $2::jsonb', [
      collection,
      containment(query),
    ]);
    this.#changed(collection);
    return true;
  }

  /** AES-256-CBC with key = sha256(secret), hex iv and data: ltijs's own format, so stored keys stay portable. */
  async Encrypt(data: string, secret: string): Promise<{ iv: string; data: string }> {
    const key = createHash('sha256').update(secret).digest();
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', key, iv);
    const encrypted = Buffer.concat([cipher.update(data), cipher.final()]);
    return { iv: iv.toString('hex'), data: encrypted.toString('hex') };
  }

  async Decrypt(data: string, iv: string, secret: string): Promise<string> {
    const key = createHash('sha256').update(secret).digest();
    const decipher = createDecipheriv('aes-256-cbc', key, Buffer.from(iv, 'hex'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'hex')), decipher.final()]).toString();
  }

  /**
   * A registration collection changed through this process: what is kept goes now, and the next read asks for the
   * version the change's trigger raised (a read in between was tagged with the old one and is not kept).
   */
  #changed(collection: string): void {
    if (REGISTRATION_COLLECTIONS.has(collection)) this.registrations?.forget();
  }

  /** What a row holds: the item itself, or with a key the plain index fields beside the encrypted item. */
  async #stored(encryptionKey: string | false, item: Doc, index?: Doc): Promise<Doc> {
    if (!encryptionKey) return item;
    const encrypted = await this.Encrypt(JSON.stringify(item), encryptionKey);
    return { ...index, iv: encrypted.iv, data: encrypted.data };
  }
}
