// ltijs reads and writes platforms, keys, nonces, OIDC state, access tokens and sessions through a database plugin.
// This is ours, over the tool's PostgreSQL pool: every collection but the platforms' lives in one table, `lti_record`,
// with the collection's natural key made unique so that an upsert is one atomic statement (ltijs-sequelize's
// delete-then-insert duplicates rows under concurrent launches), and with the expiry ltijs expects of MongoDB's TTL
// indexes. The contract it meets is ltijs 5.9.9's `dist/Utils/Database.js`.
//
// What ltijs reads of a platform (its record, its status, the tool's keys: the collections platform, platformStatus,
// publickey, privatekey) is answered from the tool's `platform` table, the one registry (platform-directory.ts), in the
// shapes ltijs wrote them (ltijs 5.9.9 dist/Provider/Provider.js, registerPlatform; dist/Utils/Auth.js,
// generatePlatformKeyPair), through the registration cache (registration-cache.ts), which triggers keep honest across
// processes. ltijs writes none of them: registrations are written by registrations.ts alone, and a write ltijs tries
// there is refused. ltijs no longer sees launches: the tool verifies them (verify-launch.ts) and writes a launch's
// nonce and its session (one record, the launch in its one shape) with the launch's one statement (launch.ts,
// launch-session.ts); `launchRecord` below is their one definition. The idtoken and contexttoken collections are
// ltijs's contract, which this plugin still meets; the tool writes none.
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { LaunchRecord } from './launch.js';
import type { StoredPlatform } from './platform-directory.js';
import { openPrivateKey, publicKeyOf } from './platform-key-pair.js';
import type { RegistrationCache } from './registration-cache.js';

type Doc = Record<string, unknown>;
type Query = Doc | undefined;

/** The fields ltijs looks a row up by when it replaces it; a row's key is their values. */
const KEY_FIELDS: Record<string, readonly string[]> = {
  accesstoken: ['platformUrl', 'clientId', 'scopes'],
  idtoken: ['iss', 'clientId', 'deploymentId', 'user'],
  contexttoken: ['contextId', 'user'],
  nonce: ['nonce'],
  state: ['state'],
};

/**
 * Lifetimes in seconds. A nonce only needs to outlive the id_token's accepted age (10 s, verify-launch.ts); a
 * session's record outlives its ltik (LTIK_LIFETIME_SECONDS, ltik.ts), which ends the session first. The other
 * collections are ltijs's own, timed as its schema times them.
 */
export const LTI_RECORD_TTL_SECONDS: Record<string, number> = {
  nonce: 10,
  state: 600,
  accesstoken: 3600,
  idtoken: 86_400,
  contexttoken: 86_400,
  // A page session (launch-session.ts): the launch in its one shape, kept a day, longer than its ltik opens pages.
  session: 86_400,
};

const SWEEP_INTERVAL_MS = 60_000;

function recordKey(collection: string, doc: Doc): string {
  const fields = KEY_FIELDS[collection];
  if (!fields) return randomUUID(); // a collection a later ltijs adds: stored, just not de-duplicated
  return JSON.stringify(fields.map((field) => doc[field] ?? null));
}

/**
 * The key of the record a session's ltik stands for (launch-session.ts): the launch's context id, as its ltik names
 * it, and its user.
 */
export function sessionRecordKey(ltik: { contextId: string; user: string }): string {
  return JSON.stringify([ltik.contextId, ltik.user]);
}

/** A launch's nonce (keyed by its value, kept for its lifetime above) or its session, under the key given. */
export function launchRecord(collection: 'nonce' | 'session', doc: Doc, key?: string): LaunchRecord {
  return { collection, recordKey: key ?? recordKey(collection, doc), doc, ttlSeconds: ttl(collection) };
}

/** The record key a query names exactly (every key field given, nothing else), so one index lookup finds it. */
function exactKey(collection: string, query: Query): string | null {
  const fields = KEY_FIELDS[collection];
  if (!fields || !query) return null;
  const given = Object.entries(query).filter(([, value]) => value !== undefined);
  if (given.length !== fields.length || !fields.every((field) => typeof query[field] === 'string')) return null;
  return recordKey(collection, query);
}

/** What ltijs reads of a platform: answered from the `platform` table, kept in memory, written only by registrations. */
const REGISTRATION_COLLECTIONS = new Set(['platform', 'platformStatus', 'publickey', 'privatekey']);

/** The registered platforms matching the fields given (platform-directory.ts's readPlatforms over the tool's db). */
export type PlatformReader = (match: {
  issuer?: string;
  clientId?: string;
  keyId?: string;
}) => Promise<StoredPlatform[]>;

/**
 * A platform's row as a record of one of ltijs's collections: what a query is matched against (the record with its
 * plain index fields) and what ltijs's Get is given back (with a key, the decrypted item alone).
 */
function registrationRecord(
  collection: string,
  platform: StoredPlatform,
  encryptionKey: string | false,
): { match: Doc; doc: Doc } | null {
  const keyPair = platform.keyPair;
  if (!keyPair) return null; // ltijs cannot use a platform without the tool's keys
  const kid = keyPair.keyId;
  switch (collection) {
    case 'platform': {
      const doc = {
        platformName: platform.name,
        platformUrl: platform.issuer,
        clientId: platform.clientId,
        authEndpoint: platform.authUrl,
        accesstokenEndpoint: platform.tokenUrl,
        authorizationServer: platform.authorizationServer,
        kid,
        authConfig: { method: 'JWK_SET', key: platform.jwksUrl },
      };
      return { match: doc, doc };
    }
    case 'platformStatus': {
      const doc = { id: kid, active: platform.active };
      return { match: doc, doc };
    }
    case 'publickey':
    case 'privatekey': {
      const index = { kid, platformUrl: platform.issuer, clientId: platform.clientId };
      if (!encryptionKey) return { match: index, doc: index };
      const privateKey = openPrivateKey(keyPair.privateKey, encryptionKey);
      return {
        match: index,
        doc: { key: collection === 'privatekey' ? privateKey : publicKeyOf(privateKey), kid },
      };
    }
    default:
      return null;
  }
}

/** Mongo's equality on every field the query gives (undefined ones match anything, as in mongoose). */
function matches(record: Doc, query: Query): boolean {
  return Object.entries(query ?? {}).every(
    ([field, value]) => value === undefined || JSON.stringify(record[field]) === JSON.stringify(value),
  );
}

/** JSON.stringify drops undefined members, so `{clientId: undefined}` matches any clientId, as in mongoose. */
function containment(query: Query): string {
  return JSON.stringify(query ?? {});
}

function ttl(collection: string): number | null {
  return LTI_RECORD_TTL_SECONDS[collection] ?? null;
}

export interface StorageLogger {
  warn(details: object, message: string): void;
}

export class PostgresLtiStorage {
  #sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    /** The registered platforms, which ltijs's registration collections are answered from. */
    private readonly platforms: PlatformReader,
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

  /** A read, the registration collections' from the `platform` table, through the registration cache when there is one. */
  async Get(encryptionKey: string | false, collection: string, query?: Query): Promise<Doc[] | false> {
    if (!REGISTRATION_COLLECTIONS.has(collection)) return this.#read(encryptionKey, collection, query);
    if (!this.registrations) return this.#readRegistrations(encryptionKey, collection, query);
    const key = `ltijs:${collection}:${encryptionKey ? 'decrypted' : 'plain'}:${containment(query)}`;
    // Misses are not kept: their keys come from whoever sends a login.
    const docs = await this.registrations.get(
      key,
      () => this.#readRegistrations(encryptionKey, collection, query),
      (found) => found !== false,
    );
    // ltijs builds objects from these and may change them; the kept ones stay as read.
    return docs && docs.map((doc) => structuredClone(doc));
  }

  async #readRegistrations(encryptionKey: string | false, collection: string, query: Query): Promise<Doc[] | false> {
    // The fields the table is searched by; the others are matched on the records.
    const field = (name: string) => (typeof query?.[name] === 'string' ? (query[name] as string) : undefined);
    const issuer = field('platformUrl');
    const clientId = field('clientId');
    const keyId = collection === 'platformStatus' ? field('id') : field('kid');
    const platforms = await this.platforms({
      ...(issuer !== undefined ? { issuer } : {}),
      ...(clientId !== undefined ? { clientId } : {}),
      ...(keyId !== undefined ? { keyId } : {}),
    });
    const docs = platforms.flatMap((platform) => {
      const record = registrationRecord(collection, platform, encryptionKey);
      return record && matches(record.match, query) ? [record.doc] : [];
    });
    return docs.length > 0 ? docs : false;
  }

  /** ltijs writing a registration collection: refused, registrations are written by registrations.ts alone. */
  #refuseRegistrationWrite(collection: string): void {
    if (REGISTRATION_COLLECTIONS.has(collection))
      throw new Error(
        `ltijs tried to write its "${collection}" records; platforms and the tool's keys are registered in the tool's platform table (lti/registrations.ts) only.`,
      );
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
    this.#refuseRegistrationWrite(collection);
    const doc = await this.#stored(encryptionKey, item, index);
    const keySource = encryptionKey ? { ...index } : item;
    // A duplicate key (a replayed nonce, a reused state) raises a unique violation, which ltijs reports as a failure.
    await this.pool.query(
      `INSERT INTO lti_record (collection, record_key, doc, expires_at)
       VALUES ($1, $2, $3::jsonb, now() + make_interval(secs => $4::double precision))`,
      [collection, recordKey(collection, keySource), JSON.stringify(doc), ttl(collection)],
    );
    return true;
  }

  async Replace(encryptionKey: string | false, collection: string, query: Doc, item: Doc, index?: Doc): Promise<true> {
    this.#refuseRegistrationWrite(collection);
    const doc = await this.#stored(encryptionKey, item, index);
    const key = recordKey(collection, { ...doc, ...query });
    await this.pool.query(
      `INSERT INTO lti_record (collection, record_key, doc, expires_at)
       VALUES ($1, $2, $3::jsonb, now() + make_interval(secs => $4::double precision))
       ON CONFLICT (collection, record_key)
       DO UPDATE SET doc = excluded.doc, created_at = now(), expires_at = excluded.expires_at`,
      [collection, key, JSON.stringify(doc), ttl(collection)],
    );
    return true;
  }

  async Modify(encryptionKey: string | false, collection: string, query: Doc, modification: Doc): Promise<true> {
    this.#refuseRegistrationWrite(collection);
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
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async Delete(collection: string, query: Doc): Promise<true> {
    this.#refuseRegistrationWrite(collection);
    await this.pool.query('DELETE FROM lti_record WHERE collection = $1 AND doc @> $2::jsonb', [
      collection,
      containment(query),
    ]);
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

  /** What a row holds: the item itself, or with a key the plain index fields beside the encrypted item. */
  async #stored(encryptionKey: string | false, item: Doc, index?: Doc): Promise<Doc> {
    if (!encryptionKey) return item;
    const encrypted = await this.Encrypt(JSON.stringify(item), encryptionKey);
    return { ...index, iv: encrypted.iv, data: encrypted.data };
  }
}
