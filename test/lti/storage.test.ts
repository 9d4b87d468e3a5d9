// The ltijs storage plugin against a real database (PostgreSQL, then PGlite): ltijs's contract for each method,
// atomic upserts under concurrency, the unique nonce, and expiry.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PostgresLtiStorage, LTI_RECORD_TTL_SECONDS } from '../../src/lti/storage.js';
import type { Database } from '../../src/db/index.js';
import { openTestDatabase } from '../support/db.js';

const KEY = 'k'.repeat(40);
let database: Database;
let cleanup: () => Promise<void>;
let storage: PostgresLtiStorage;

before(async () => {
  ({ database, cleanup } = await openTestDatabase(12));
  storage = new PostgresLtiStorage(database.pool);
  await storage.setup();
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
    await storage.Replace(false, 'platformStatus', { id: 'p-1' }, { id: 'p-1', active: true });
    await storage.Replace(false, 'platformStatus', { id: 'p-2' }, { id: 'p-2', active: false });
    const all = await storage.Get(false, 'platformStatus');
    assert.ok(all);
    assert.deepEqual(all.map((row) => row.id).sort(), ['p-1', 'p-2']);
  });

  test('matches on every field of the query', async () => {
    await storage.Replace(
      false,
      'platform',
      { platformUrl: 'https://lms.a', clientId: 'c1' },
      { platformUrl: 'https://lms.a', clientId: 'c1', kid: 'kid-a1', name: 'A one' },
    );
    await storage.Replace(
      false,
      'platform',
      { platformUrl: 'https://lms.a', clientId: 'c2' },
      { platformUrl: 'https://lms.a', clientId: 'c2', kid: 'kid-a2', name: 'A two' },
    );
    const one = await storage.Get(false, 'platform', { platformUrl: 'https://lms.a', clientId: 'c2' });
    assert.ok(one);
    assert.deepEqual(
      one.map((row) => row.name),
      ['A two'],
    );
    const both = await storage.Get(false, 'platform', { platformUrl: 'https://lms.a' });
    assert.ok(both);
    assert.equal(both.length, 2);
    const byKid = await storage.Get(false, 'platform', { kid: 'kid-a1' });
    assert.ok(byKid);
    assert.equal(byKid[0]!.clientId, 'c1');
  });
});

describe('encrypted collections', () => {
  test('keep the index fields searchable and the item unreadable at rest, and decrypt on read', async () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nsecret material\n-----END PRIVATE KEY-----';
    const index = { kid: 'kid-enc', platformUrl: 'https://lms.enc', clientId: 'enc' };
    await storage.Replace(
      KEY,
      'privatekey',
      { platformUrl: 'https://lms.enc', clientId: 'enc' },
      { key: pem, kid: 'kid-enc' },
      index,
    );
    const { rows } = await database.pool.query<{ doc: Record<string, unknown> }>(
      "SELECT doc FROM lti_record WHERE collection = 'privatekey'",
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.doc.kid, 'kid-enc');
    assert.ok(!JSON.stringify(rows[0]!.doc).includes('secret material'), 'the private key is stored in clear');
    const read = await storage.Get(KEY, 'privatekey', { kid: 'kid-enc' });
    assert.ok(read);
    assert.equal(read[0]!.key, pem);
    await assert.rejects(storage.Get('another key of forty characters at least!', 'privatekey', { kid: 'kid-enc' }));
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
    const index = { kid: 'kid-mod', platformUrl: 'https://lms.mod', clientId: 'mod' };
    await storage.Replace(
      KEY,
      'publickey',
      { platformUrl: 'https://lms.mod', clientId: 'mod' },
      { key: 'PUBLIC', kid: 'kid-mod' },
      index,
    );
    await storage.Modify(KEY, 'publickey', { kid: 'kid-mod' }, { key: 'NEW PUBLIC' });
    const read = await storage.Get(KEY, 'publickey', { kid: 'kid-mod' });
    assert.ok(read);
    assert.equal(read[0]!.key, 'NEW PUBLIC');
    assert.equal(read[0]!.kid, 'kid-mod');
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
    await storage.Replace(
      false,
      'platform',
      { platformUrl: 'https://lms.m', clientId: 'm' },
      { platformUrl: 'https://lms.m', clientId: 'm', kid: 'kid-m', name: 'Old', authEndpoint: 'https://lms.m/auth' },
    );
    await storage.Modify(false, 'platform', { platformUrl: 'https://lms.m', clientId: 'm' }, { name: 'New' });
    const read = await storage.Get(false, 'platform', { kid: 'kid-m' });
    assert.ok(read);
    assert.equal(read[0]!.name, 'New');
    assert.equal(read[0]!.authEndpoint, 'https://lms.m/auth');
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
    await storage.Replace(
      false,
      'platform',
      { platformUrl: 'https://lms.keep', clientId: 'keep' },
      { platformUrl: 'https://lms.keep', clientId: 'keep' },
    );
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
      platform: null,
    });
    assert.deepEqual(LTI_RECORD_TTL_SECONDS, {
      nonce: 10,
      state: 600,
      accesstoken: 3600,
      idtoken: 86_400,
      contexttoken: 86_400,
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
