// The registered platforms as the services need them (AGS, NRPS, the Asset Processor's services, deep linking's
// signature): read from the tool's `platform` table, the one registry, with the tool's key pair for
// each. Workers look platforms up here without loading ltijs; ltijs reads the same rows through its storage plugin
// (storage.ts). Kept in memory with the other registrations (registration-cache.ts).
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import type { Platform, PlatformStore } from './platform.js';
import { newKeyPair, openPrivateKey, type StoredKeyPair } from './platform-key-pair.js';
import { registrationCache } from './registration-cache.js';
import { platformColumns } from './registrations.js';

/** A platform's row as the LTI services read it. */
export interface StoredPlatform {
  name: string;
  issuer: string;
  clientId: string;
  authUrl: string;
  tokenUrl: string;
  jwksUrl: string;
  /** The audience of the tool's token assertions: the authorization server, or else the token URL. */
  authorizationServer: string;
  active: boolean;
  /** The tool's key pair for the platform; null: none (a platform registered without one cannot be used). */
  keyPair: StoredKeyPair | null;
}

/** The registered platforms matching every field given (none: all of them), oldest first. */
export async function readPlatforms(
  db: Kysely<DatabaseSchema>,
  match: { issuer?: string; clientId?: string; keyId?: string },
): Promise<StoredPlatform[]> {
  let query = db
    .selectFrom('platform')
    .select([...platformColumns, 'key_id', 'private_key'])
    .orderBy('created_at');
  if (match.issuer !== undefined) query = query.where('issuer', '=', match.issuer);
  if (match.clientId !== undefined) query = query.where('client_id', '=', match.clientId);
  if (match.keyId !== undefined) query = query.where('key_id', '=', match.keyId);
  const rows = await query.execute();
  return rows.map((row) => ({
    name: row.name,
    issuer: row.issuer,
    clientId: row.client_id,
    authUrl: row.auth_url,
    tokenUrl: row.token_url,
    jwksUrl: row.jwks_url,
    // D2L and others sign access-token requests for an audience that differs from the token URL.
    authorizationServer: row.authorization_server ?? row.token_url,
    active: row.active,
    keyPair: row.key_id && row.private_key ? { keyId: row.key_id, privateKey: row.private_key } : null,
  }));
}

function keyPairOf(platform: StoredPlatform): StoredKeyPair {
  if (platform.keyPair) return platform.keyPair;
  throw new Error(
    `The registration of ${platform.issuer} (client ${platform.clientId}) has no key pair of the tool's: save it again (platform add, or the admin page) to make one.`,
  );
}

function asPlatform(platform: StoredPlatform, encryptionKey: string): Platform {
  return {
    platformUrl: async () => platform.issuer,
    platformClientId: async () => platform.clientId,
    platformKid: async () => keyPairOf(platform).keyId,
    platformPrivateKey: async () => openPrivateKey(keyPairOf(platform).privateKey, encryptionKey),
    platformAuthorizationServer: async () => platform.authorizationServer,
    platformAccessTokenEndpoint: async () => platform.tokenUrl,
  };
}

/** The platform store of one database, with the ENCRYPTION_KEY that seals the tool's keys. */
export class PlatformDirectory implements PlatformStore {
  constructor(
    readonly db: Kysely<DatabaseSchema>,
    private readonly encryptionKey: string,
  ) {}

  async getPlatform(issuer: string, clientId: string): Promise<Platform | false> {
    const found = await registrationCache(this.db).get(
      `platform:${JSON.stringify([issuer, clientId])}`,
      async () => (await readPlatforms(this.db, { issuer, clientId }))[0] ?? null,
      // A platform not found is not kept: it may be registered any moment.
      (platform) => platform !== null,
    );
    return found ? asPlatform(found, this.encryptionKey) : false;
  }

  newKeyPair(): Promise<StoredKeyPair> {
    return newKeyPair(this.encryptionKey);
  }
}
