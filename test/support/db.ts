// A fresh database for each test file, on the backend the runner chose: TEST_DB=postgres (a new database in the
// local PostgreSQL server) or TEST_DB=pglite (a new embedded data directory). Importing this file is also what
// puts a test file in the runner's PGlite pass.
//
// A database asked for `migrated` is a copy of the one npm test made once for the run as the tool's first start
// leaves it (scripts/setup/database-template.ts: TEST_PG_TEMPLATE names it on PostgreSQL, TEST_PGLITE_TEMPLATE holds
// it on PGlite), a fraction of a second where making it took seconds; without them (a file run on its own with node
// --test) it is made as before, empty, and the tool migrates it. A test of the first start asks for an empty one.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
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
const pgTemplate = process.env.TEST_PG_TEMPLATE || null;
const pgliteTemplate = process.env.TEST_PGLITE_TEMPLATE || null;
/** The embedded database's data, inside DATA_DIR (src/db/embedded.ts). */
const PGLITE_DATA = 'pgdata';

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

/**
 * A new database of its own. `migrated`: already as the tool's first start leaves it (a copy of the run's template,
 * where npm test made one); otherwise empty, as a new installation's.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'olti-test-'));
  if (backend === 'pglite') {
    if (options.migrated && pgliteTemplate)
      cpSync(join(pgliteTemplate, PGLITE_DATA), join(dataDir, PGLITE_DATA), { recursive: true });
    return {
      url: null,
      dataDir,
      env: { DATA_DIR: dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `olti_test_${randomBytes(6).toString('hex')}`;
  const template = options.migrated && pgTemplate ? ` TEMPLATE ${pgTemplate}` : '';
  await admin((client) => client.query(`CREATE DATABASE ${name}${template}`));
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
  const testDb = await createTestDatabase({ migrated: true });
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
