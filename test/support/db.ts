// A fresh database for each test file, on the backend the runner chose: TEST_DB=postgres (a new database in the
// local PostgreSQL server) or TEST_DB=pglite (a new embedded data directory). Importing this file is also what
// puts a test file in the runner's PGlite pass.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrateToLatest, openDatabase, type Database } from '../../src/db/index.js';

export const backend: 'postgres' | 'pglite' = process.env.TEST_DB === 'pglite' ? 'pglite' : 'postgres';

/** A test of several tool processes on one database runs on PostgreSQL only (this is its skip option). */
export const severalProcessesSkip =
  backend === 'pglite'
    ? 'several processes share one PostgreSQL server; the embedded database serves one process'
    : false;

const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  /** DATABASE_URL for the tool; null on PGlite, where the tool opens dataDir itself. */
  url: string | null;
  dataDir: string;
  /** The environment a tool process needs to use this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'olti-test-'));
  if (backend === 'pglite') {
    return {
      url: null,
      dataDir,
      env: { DATA_DIR: dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `olti_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    drop: async () => {
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A migrated database opened in this process, and a function that closes and removes it. */
export async function openTestDatabase(poolSize = 10): Promise<{ database: Database; cleanup(): Promise<void> }> {
  const testDb = await createTestDatabase();
  const database = await openDatabase({ url: testDb.url, dataDir: testDb.dataDir, poolSize, embedded: 'serve' });
  await migrateToLatest(database.db);
  return {
    database,
    cleanup: async () => {
      await database.close();
      await testDb.drop();
    },
  };
}
