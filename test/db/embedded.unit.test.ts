// The embedded database under concurrency: many connections sending parameterised queries of different shapes
// at once through pglite-socket get their own answers (PGlite has one backend and one unnamed statement), and
// transactions stay isolated. (The interleaving that src/db/pglite-queue.ts prevents showed under real load:
// test/lti/launch.test.ts's 50 concurrent launches on PGlite failed with "bind message supplies 2 parameters,
// but prepared statement requires 4" before it.)
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../src/db/embedded.js';

const dir = mkdtempSync(join(tmpdir(), 'olti-embedded-'));
let embedded: EmbeddedDatabase;
let pool: pg.Pool;

before(async () => {
  embedded = await startEmbeddedDatabase(dir, { maxConnections: 20 });
  pool = new pg.Pool({ connectionString: embedded.url, max: 12 });
  await pool.query('CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL)');
  await pool.query('INSERT INTO account SELECT g, 100 FROM generate_series(1, 10) g');
});
after(async () => {
  await pool.end();
  await embedded.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('2,000 concurrent parameterised queries of two shapes, beside transactions, each get their own answer', async () => {
  const inTransaction = async (i: number) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ v: number }>('SELECT $1::int + 1 AS v', [i]);
      await client.query('COMMIT');
      return rows[0]!.v === i + 1;
    } finally {
      client.release();
    }
  };
  const results = await Promise.allSettled(
    Array.from({ length: 2000 }, (_, i) =>
      i % 3 === 0
        ? pool.query<{ v: number }>('SELECT $1::int * 2 AS v', [i]).then((r) => r.rows[0]!.v === i * 2)
        : i % 3 === 1
          ? pool
              .query<{ a: string; b: string; c: number; d: boolean }>(
                'SELECT $1::text AS a, $2::text AS b, $3::int AS c, $4::bool AS d',
                [`x${i}`, `y${i}`, i, true],
              )
              .then((r) => r.rows[0]!.a === `x${i}` && r.rows[0]!.c === i)
          : inTransaction(i),
    ),
  );
  const errors = results.filter((r) => r.status === 'rejected');
  assert.equal(errors.length, 0, String((errors[0] as PromiseRejectedResult | undefined)?.reason));
  assert.equal(
    results.filter((r) => r.status === 'fulfilled' && r.value === false).length,
    0,
    "a query got another query's answer",
  );
});

test('300 concurrent transfers in transactions keep the total balance', async () => {
  await Promise.all(
    Array.from({ length: 300 }, async (_, i) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('UPDATE account SET balance = balance - $1 WHERE id = $2', [1, (i % 10) + 1]);
        await client.query('UPDATE account SET balance = balance + $1 WHERE id = $2', [1, ((i + 3) % 10) + 1]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }),
  );
  const { rows } = await pool.query<{ total: string }>('SELECT sum(balance) AS total FROM account');
  assert.equal(Number(rows[0]!.total), 1000);
});

test('a connection that drops inside its transaction does not leave the database stuck', async () => {
  const client = new pg.Client({ connectionString: embedded.url });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('BEGIN');
  await client.query('UPDATE account SET balance = 0 WHERE id = 1');
  (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  const { rows } = await pool.query<{ balance: number }>('SELECT balance FROM account WHERE id = 1');
  assert.notEqual(rows[0]!.balance, 0, 'the dropped transaction was not rolled back');
});
