// The ltijs storage plugin against a real database (PostgreSQL, then PGlite): ltijs's contract for each method,
// atomic upserts under concurrency, the unique nonce, and expiry; ltijs's platforms and keys read from the tool's
// platform table, the one registry, and never written by ltijs.
import assert from 'node:assert/strict';
import { createSign, createVerify } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { PlatformDirectory, readPlatforms } from '../../src/lti/platform-directory.js';
import { saveRegistration, setRegistrationActive, type Registration } from '../../src/lti/registrations.js';
import { PostgresLtiStorage, LTI_RECORD_TTL_SECONDS } from '../../src/lti/storage.js';
import type { Database } from '../../src/db/index.js';
import { openTestDatabase } from '../support/db.js';

const KEY = 'k'.repeat(40);
let database: Database;
let cleanup: () => Promise<void>;
let storage: PostgresLtiStorage;
const registered: Registration[] = [];

function lms(clientId: string, extra: { authorizationServer?: string } = {}) {
  return {
    name: `LMS ${clientId}`,
    issuer: 'https://lms.a',
    clientId,
    deploymentId: 'd1',
    authUrl: 'https://lms.a/auth',
    tokenUrl: 'https://lms.a/token',
    jwksUrl: `https://lms.a/keys/${clientId}`,
    ...extra,
  };
}

before(async () => {
  ({ database, cleanup } = await openTestDatabase(12));
  storage = new PostgresLtiStorage(database.pool, (match) => readPlatforms(database.db, match));
  await storage.setup();
  const store = { db: database.db, provider: new PlatformDirectory(database.db, KEY) };
  registered.push(
    await saveRegistration(store, lms('c1'), 'cli'),
    await saveRegistration(store, lms('c2', { authorizationServer: 'https://auth.lms.a' }), 'cli'),
  );
});
after(async () => {
  await storage.Close();
  await cleanup();
});

async function rowCount(collection: string): Promise<number> {
  const { rows } = await database.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM lti_record WHERE collection = $1',
    [collection],
  );
  return Number(rows[0]!.n);
}

describe('Get', () => {
  test('answers false, not an empty list, when nothing matches', async () => {
    assert.equal(await storage.Get(false, 'platform', { platformUrl: 'https://nowhere.example' }), false);
  });

  test('without a query returns every row of the collection, and only of that collection', async () => {
    await storage.Insert(false, 'state', { state: 'all-1', query: {} });
    await storage.Insert(false, 'state', { state: 'all-2', query: {} });
    await storage.Insert(false, 'other', { state: 'all-3', query: {} });
    const all = await storage.Get(false, 'state');
    assert.ok(all);
    assert.deepEqual(all.map((row) => row.state).sort(), ['all-1', 'all-2']);
  });
});

describe("ltijs's platforms and keys: the platform table's rows", () => {
  const kidOf = async (clientId: string) => {
    const platform = await new PlatformDirectory(database.db, KEY).getPlatform('https://lms.a', clientId);
    assert.ok(platform, `${clientId} is registered`);
    return platform.platformKid();
  };

  test("a platform reads as ltijs wrote it, found by issuer and client, by issuer alone, or by ltijs's id", async () => {
    const one = await storage.Get(false, 'platform', { platformUrl: 'https://lms.a', clientId: 'c2' });
    assert.deepEqual(one, [
      {
        platformName: 'LMS c2',
        platformUrl: 'https://lms.a',
        clientId: 'c2',
        authEndpoint: 'https://lms.a/auth',
        accesstokenEndpoint: 'https://lms.a/token',
        authorizationServer: 'https://auth.lms.a',
        kid: await kidOf('c2'),
        authConfig: { method: 'JWK_SET', key: 'https://lms.a/keys/c2' },
      },
    ]);
    const both = await storage.Get(false, 'platform', { platformUrl: 'https://lms.a' });
    assert.deepEqual(both && both.map((row) => row.clientId), ['c1', 'c2']);
    const byKid = await storage.Get(false, 'platform', { kid: await kidOf('c1') });
    // Without an authorization server of its own, the token URL is the assertion's audience (as ltijs did).
    assert.deepEqual(byKid && byKid.map((row) => [row.clientId, row.authorizationServer]), [
      ['c1', 'https://lms.a/token'],
    ]);
    assert.equal(await storage.Get(false, 'platform', { platformUrl: 'https://lms.a', clientId: 'c3' }), false);
  });

  test("the tool's key pair: the private key opens with the ENCRYPTION_KEY, and the public key ltijs publishes verifies it", async () => {
    const kid = await kidOf('c1');
    const privateKeys = await storage.Get(KEY, 'privatekey', { kid });
    const publicKeys = await storage.Get(KEY, 'publickey');
    assert.ok(privateKeys && publicKeys);
    assert.equal(publicKeys.length, 2, 'every platform has its key in the key set');
    const publicKey = publicKeys.find((key) => key.kid === kid);
    assert.ok(publicKey);
    const signature = createSign('RSA-SHA256').update('assertion').sign(String(privateKeys[0]!.key));
    assert.ok(createVerify('RSA-SHA256').update('assertion').verify(String(publicKey.key), signature));
    assert.match(String(publicKey.key), /^-----BEGIN PUBLIC KEY-----/);
    // Sealed at rest: the row does not hold the key in clear, and another ENCRYPTION_KEY cannot open it.
    const row = await database.db
      .selectFrom('platform')
      .select('private_key')
      .where('key_id', '=', kid)
      .executeTakeFirst();
    assert.ok(row?.private_key && !row.private_key.includes('PRIVATE KEY'));
    await assert.rejects(storage.Get('another key of forty characters at least!', 'privatekey', { kid }));
  });

  test("a platform's status is the registration's switch", async () => {
    const kid = await kidOf('c2');
    assert.deepEqual(await storage.Get(false, 'platformStatus', { id: kid }), [{ id: kid, active: true }]);
    await setRegistrationActive(database.db, registered[1]!.id, false);
    assert.deepEqual(await storage.Get(false, 'platformStatus', { id: kid }), [{ id: kid, active: false }]);
    await setRegistrationActive(database.db, registered[1]!.id, true);
  });

  test('ltijs writes none of them, and no copy of a registration is in its records', async () => {
    for (const collection of ['platform', 'platformStatus', 'publickey', 'privatekey']) {
      await assert.rejects(
        storage.Replace(false, collection, { platformUrl: 'https://lms.x', clientId: 'x' }, { kid: 'x' }),
        /registered in the tool's platform table/,
      );
      await assert.rejects(storage.Delete(collection, { kid: await kidOf('c1') }), /platform table/);
      assert.equal(await rowCount(collection), 0, `ltijs's ${collection} records hold a copy`);
    }
    assert.ok(await storage.Get(false, 'platform', { platformUrl: 'https://lms.a', clientId: 'c1' }));
  });
});

describe('encrypted collections', () => {
  test('keep the index fields searchable and the item unreadable at rest, and decrypt on read', async () => {
    const index = { platformUrl: 'https://lms.enc', clientId: 'enc', scopes: 'score' };
    await storage.Replace(KEY, 'accesstoken', index, { token: { access_token: 'secret material' } }, index);
    const { rows } = await database.pool.query<{ doc: Record<string, unknown> }>(
      "SELECT doc FROM lti_record WHERE collection = 'accesstoken' AND doc->>'clientId' = 'enc'",
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.doc.platformUrl, 'https://lms.enc');
    assert.ok(!JSON.stringify(rows[0]!.doc).includes('secret material'), 'the token is stored in clear');
    const read = await storage.Get(KEY, 'accesstoken', { clientId: 'enc' });
    assert.ok(read);
    assert.deepEqual(read[0]!.token, { access_token: 'secret material' });
    await assert.rejects(storage.Get('another key of forty characters at least!', 'accesstoken', { clientId: 'enc' }));
  });

  test('access tokens come back with createdAt in milliseconds, so ltijs can see when they go stale', async () => {
    const before = Date.now();
    const query = {
      platformUrl: 'https://lms.tok',
      clientId: 'tok',
      scopes: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
    };
    await storage.Replace(KEY, 'accesstoken', query, { token: { access_token: 'abc', expires_in: 3600 } }, query);
    const read = await storage.Get(KEY, 'accesstoken', query);
    assert.ok(read);
    assert.equal((read[0]!.token as { access_token: string }).access_token, 'abc');
    const createdAt = read[0]!.createdAt as number;
    assert.equal(typeof createdAt, 'number');
    assert.ok(
      createdAt >= before - 2000 && createdAt <= Date.now() + 2000,
      `createdAt ${createdAt} is not the time of writing`,
    );
  });

  test('Modify on an encrypted row keeps the other fields and re-encrypts', async () => {
    const index = { platformUrl: 'https://lms.mod', clientId: 'mod', scopes: 'score' };
    await storage.Replace(KEY, 'accesstoken', index, { token: 'OLD', kept: 'yes' }, index);
    await storage.Modify(KEY, 'accesstoken', { clientId: 'mod' }, { token: 'NEW' });
    const read = await storage.Get(KEY, 'accesstoken', { clientId: 'mod' });
    assert.ok(read);
    assert.equal(read[0]!.token, 'NEW');
    assert.equal(read[0]!.kept, 'yes');
  });
});

describe('writes', () => {
  test('Replace updates in place: 50 concurrent launches of one user leave one idtoken row and one contexttoken row', async () => {
    const query = { iss: 'https://lms.race', clientId: 'race', deploymentId: 'd1', user: 'student-1' };
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        Promise.all([
          storage.Replace(false, 'idtoken', query, { ...query, userInfo: { name: `Launch ${i}` } }),
          storage.Replace(
            false,
            'contexttoken',
            { contextId: 'ctx-race', user: 'student-1' },
            { contextId: 'ctx-race', user: 'student-1', n: i },
          ),
        ]),
      ),
    );
    assert.deepEqual(
      results.filter((r) => r.status === 'rejected'),
      [],
    );
    assert.equal(await rowCount('idtoken'), 1);
    assert.equal(await rowCount('contexttoken'), 1);
    const read = await storage.Get(false, 'idtoken', query);
    assert.ok(read);
    assert.match(String((read[0]!.userInfo as { name: string }).name), /^Launch \d+$/);
  });

  test('a nonce can be stored once: the second insert of the same nonce fails', async () => {
    await storage.Insert(false, 'nonce', { nonce: 'n-123' });
    await assert.rejects(storage.Insert(false, 'nonce', { nonce: 'n-123' }), /duplicate key|unique/i);
    assert.equal(await rowCount('nonce'), 1);
  });

  test('20 concurrent inserts of one nonce: exactly one succeeds', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => storage.Insert(false, 'nonce', { nonce: 'n-race' })),
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
  });

  test('Modify changes the named fields of the first match only and keeps the rest', async () => {
    await storage.Insert(false, 'state', { state: 's-m', query: { a: '1' }, note: 'Old' });
    await storage.Insert(false, 'state', { state: 's-m2', query: { a: '1' }, note: 'Old' });
    await storage.Modify(false, 'state', { query: { a: '1' } }, { note: 'New' });
    const read = await storage.Get(false, 'state', { query: { a: '1' } });
    assert.ok(read);
    assert.deepEqual(
      read.map((row) => [row.state, row.note, row.query]),
      [
        ['s-m', 'New', { a: '1' }],
        ['s-m2', 'Old', { a: '1' }],
      ],
    );
  });

  test('Delete removes every match and nothing else', async () => {
    await storage.Insert(false, 'state', { state: 's1', query: { a: '1' } });
    await storage.Insert(false, 'state', { state: 's2', query: {} });
    await storage.Delete('state', { state: 's1' });
    assert.equal(await storage.Get(false, 'state', { state: 's1' }), false);
    assert.ok(await storage.Get(false, 'state', { state: 's2' }));
  });
});

describe('expiry', () => {
  test('each collection gets the lifetime ltijs expects (nonce 10 s, state 10 min, access token 1 h, sessions 24 h)', async () => {
    await storage.Insert(false, 'nonce', { nonce: 'n-ttl' });
    await storage.Insert(false, 'state', { state: 's-ttl', query: {} });
    await storage.Replace(
      false,
      'idtoken',
      { iss: 'i', clientId: 'c', deploymentId: 'd', user: 'u-ttl' },
      { iss: 'i', clientId: 'c', deploymentId: 'd', user: 'u-ttl' },
    );
    await storage.Replace(
      false,
      'contexttoken',
      { contextId: 'c-ttl', user: 'u-ttl' },
      { contextId: 'c-ttl', user: 'u-ttl' },
    );
    await storage.Replace(
      KEY,
      'accesstoken',
      { platformUrl: 'p', clientId: 'c', scopes: 's-ttl' },
      { token: {} },
      { platformUrl: 'p', clientId: 'c', scopes: 's-ttl' },
    );
    // A collection a later ltijs adds is kept without expiry.
    await storage.Insert(false, 'later', { clientId: 'keep' });
    const { rows } = await database.pool.query<{ collection: string; seconds: string | null }>(
      `SELECT collection, extract(epoch FROM expires_at - created_at)::int::text AS seconds FROM lti_record
        WHERE doc->>'nonce' = 'n-ttl' OR doc->>'state' = 's-ttl' OR doc->>'user' = 'u-ttl' OR doc->>'scopes' = 's-ttl' OR doc->>'clientId' = 'keep'`,
    );
    const lifetimes = Object.fromEntries(
      rows.map((row) => [row.collection, row.seconds === null ? null : Number(row.seconds)]),
    );
    assert.deepEqual(lifetimes, {
      nonce: 10,
      state: 600,
      idtoken: 86_400,
      contexttoken: 86_400,
      accesstoken: 3600,
      later: null,
    });
    assert.deepEqual(LTI_RECORD_TTL_SECONDS, {
      nonce: 10,
      state: 600,
      accesstoken: 3600,
      idtoken: 86_400,
      contexttoken: 86_400,
      // The tool's page session (lti/launch-session.ts) lasts as long as ltijs's tokens did.
      session: 86_400,
    });
  });

  test('an expired row is invisible at once and removed by the sweep; an expired nonce may be used again', async () => {
    await storage.Insert(false, 'nonce', { nonce: 'n-old' });
    await database.pool.query(
      "UPDATE lti_record SET expires_at = now() - interval '1 second' WHERE doc->>'nonce' = 'n-old'",
    );
    assert.equal(await storage.Get(false, 'nonce', { nonce: 'n-old' }), false);
    const removed = await storage.sweep();
    assert.ok(removed >= 1);
    assert.equal((await database.pool.query("SELECT 1 FROM lti_record WHERE doc->>'nonce' = 'n-old'")).rowCount, 0);
    await storage.Insert(false, 'nonce', { nonce: 'n-old' });
  });

  test('Replace renews a session row: a new launch starts a new 24 hours', async () => {
    const query = { contextId: 'c-renew', user: 'u' };
    await storage.Replace(false, 'contexttoken', query, query);
    await database.pool.query(
      "UPDATE lti_record SET expires_at = now() + interval '1 minute' WHERE doc->>'contextId' = 'c-renew'",
    );
    await storage.Replace(false, 'contexttoken', query, { ...query, again: true });
    const { rows } = await database.pool.query<{ left: string }>(
      "SELECT extract(epoch FROM expires_at - now())::int::text AS left FROM lti_record WHERE doc->>'contextId' = 'c-renew'",
    );
    assert.ok(Number(rows[0]!.left) > 86_000);
  });
});
