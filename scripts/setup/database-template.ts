// A database as the tool leaves it after its first start (every migration applied, pg-boss's schema and the tool's
// queues made), made once per run by scripts/test.mjs for the tests to copy (test/support/db.ts): copying it is a
// fraction of a second, where each test file's first start made it again, seconds on PostgreSQL and several more on
// PGlite (its initdb, then the migrations on one backend). The first start itself stays tested: here, on each
// engine, once per run (a failing migration stops the run before any test), in the *.process tests from an empty data
// folder, and wherever a test asks test/support/db.ts for an empty database.
//
//   node --import tsx scripts/setup/database-template.ts postgres <admin URL> <name>   makes the database <name>
//   node --import tsx scripts/setup/database-template.ts pglite <folder>               makes <folder>/pgdata
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../src/db/index.js';
import { Jobs } from '../../src/jobs/index.js';

const [engine, where, name] = process.argv.slice(2);
if (!where || !(engine === 'pglite' || (engine === 'postgres' && name && /^[a-z_][a-z0-9_]*$/.test(name)))) {
  process.stderr.write('usage: database-template.ts postgres <admin URL> <name> | pglite <folder>\n');
  process.exit(2);
}

// The queues take their timing from each start (an existing queue takes the current settings): any will do here.
const TIMING = { pollingIntervalSeconds: 2, retryDelaySeconds: 1, retryLimit: 1, expireSeconds: 60, concurrency: 1 };

async function firstStart(url: string | null, dataDir: string): Promise<void> {
  const database = await openDatabase({ url, dataDir, poolSize: 4, embedded: 'serve' });
  try {
    await migrateToLatest(database.db);
    const jobs = new Jobs(database.pool, TIMING, { warn: () => {}, error: () => {} });
    await jobs.start();
    await jobs.boss.stop({ graceful: false, wait: true });
  } finally {
    await database.close();
  }
}

if (engine === 'pglite') {
  await firstStart(null, where);
} else {
  const admin = new pg.Client({ connectionString: where });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(where);
    url.pathname = `/${name}`;
    await firstStart(url.toString(), ''); // the runner drops it at its end, made or not
  } finally {
    await admin.end();
  }
}
