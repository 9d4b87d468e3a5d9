// The OIDC `state` the login sends the browser to the platform with, and the launch comes back with (Security
// Framework 5.1.1.2: https://www.imsglobal.org/spec/security/v1p0/#step-2-authentication-request ; OpenID Connect
// Core 3.1.2.1: an opaque value, bound to the browser's session). The tool signs it instead of keeping it: an HMAC
// under a key made from ENCRYPTION_KEY (which every process of one installation shares) covers a random part, the
// time it expires, a digest of the issuer the login was for, and where the login asked to keep it in the LMS's
// window (LTI platform storage). So the login writes nothing, and a launch learns without a read that the tool issued
// its state, for which issuer, and whether it is still good. A state carries one launch: the launch's one write
// records it as used (launch.ts), and a second launch with it writes nothing and is refused. Used states are kept
// until they would have expired, then swept. The login also sets a state cookie, but an LMS iframe with third-party
// cookies blocked never sends it back; the signature stands in for it.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';

const STATE_LIFETIME_SECONDS = 600;

/** Where the login asked to keep the state in the LMS's window too (LTI platform storage). */
export interface StateStorage {
  target: string;
  origin: string;
}

/** A state the tool issued and that has not expired, as its launch reads it. */
export interface IssuedState {
  state: string;
  /** When it stops being good; the launch's write keeps it as used until then. */
  expiresAt: Date;
  /** Where the login asked to keep the state in the LMS's window; null: nowhere. */
  storage: StateStorage | null;
  /** Whether the login was for this issuer. */
  isFor(issuer: string): boolean;
}

/** What the state says, signed: r random, e expiry (seconds), i the issuer's digest, t and o the storage. */
const signedPart = z.object({
  r: z.string().min(16).max(64),
  e: z.number().int().positive(),
  i: z.string().min(1).max(64),
  t: z.string().min(1).max(100).optional(),
  o: z.string().min(1).max(300).optional(),
});

/** The signing key, made once per ENCRYPTION_KEY: a key of its own, not the one that signs the ltik. */
const keys = new Map<string, Buffer>();
function stateKey(encryptionKey: string): Buffer {
  let key = keys.get(encryptionKey);
  if (!key) {
    key = createHmac('sha256', encryptionKey).update('originality-lti OIDC state').digest();
    keys.set(encryptionKey, key);
  }
  return key;
}

const issuerDigest = (issuer: string) => createHash('sha256').update(issuer).digest('base64url').slice(0, 22);
const signatureOf = (encryptionKey: string, body: string) =>
  createHmac('sha256', stateKey(encryptionKey)).update(body).digest().subarray(0, 16);

/**
 * A new state for a login to `issuer`: about 100 characters of base64url and a dot (some 300 more where it is kept in
 * the LMS's window), fit for a cookie's name and a form field.
 */
export function issueState(
  encryptionKey: string,
  issuer: string,
  storage: StateStorage | null = null,
  now = Date.now(),
): string {
  const part: z.infer<typeof signedPart> = {
    r: randomBytes(16).toString('base64url'),
    e: Math.floor(now / 1000) + STATE_LIFETIME_SECONDS,
    i: issuerDigest(issuer),
    ...(storage ? { t: storage.target, o: storage.origin } : {}),
  };
  const body = Buffer.from(JSON.stringify(part)).toString('base64url');
  return `${body}.${signatureOf(encryptionKey, body).toString('base64url')}`;
}

/** The state a launch came back with, when the tool issued it and it has not expired; undefined otherwise. */
export function readState(encryptionKey: string, state: string, now = Date.now()): IssuedState | undefined {
  const [body, signature, extra] = state.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = signatureOf(encryptionKey, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  // One spelling per state: base64url's last character has bits a decoder ignores, and a state spelled otherwise
  // would be another string to the once-only record of used states.
  if (given.toString('base64url') !== signature) return undefined;
  let part: z.infer<typeof signedPart>;
  try {
    part = signedPart.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
  } catch {
    return undefined;
  }
  if (part.e * 1000 <= now) return undefined;
  return {
    state,
    expiresAt: new Date(part.e * 1000),
    storage: part.t && part.o ? { target: part.t, origin: part.o } : null,
    isFor: (issuer) => issuerDigest(issuer) === part.i,
  };
}

/**
 * Whether a launch used this state already. The launch's write decides that for itself; this read is for a launch
 * refused before it, to tell the person the right reason.
 */
export async function wasUsed(db: Kysely<DatabaseSchema>, state: string): Promise<boolean> {
  const row = await db.selectFrom('used_oidc_state').select('state').where('state', '=', state).executeTakeFirst();
  return row !== undefined;
}

/** Forgets the used states that have expired: no launch can bring them back any more. */
export async function sweepStates(db: Kysely<DatabaseSchema>): Promise<number> {
  const result = await db
    .deleteFrom('used_oidc_state')
    .where('expires_at', '<=', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
