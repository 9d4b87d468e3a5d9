// One handle on the tool's database: a `pg` pool, a kysely instance over it, and (without DATABASE_URL) the
// embedded PGlite server behind them.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { EmbeddedDatabase } from './embedded.js';
import type { DatabaseSchema } from './schema.js';

export type {
  AssignmentKind,
  AssignmentTable,
  DatabaseSchema,
  GradeState,
  LmsAssetState,
  PlatformTable,
  SubmissionState,
  SubmissionTable,
} from './schema.js';
export { migrateToLatest, pendingMigrations, MigrationError } from './migrate.js';
export { databaseReadiness, type Readiness } from './readiness.js';

export interface DatabaseOptions {
  /** PostgreSQL URL; null selects the embedded database in dataDir. */
  url: string | null;
  dataDir: string;
  poolSize: number;
  /**
   * 'serve': open the embedded data directory (a server process).
   * 'share': use the embedded database another process serves from dataDir, opening it only when none does (the CLI).
   */
  embedded?: 'serve' | 'share';
  onPoolError?: (error: Error) => void;
}

export interface Database {
  kind: 'postgres' | 'pglite';
  pool: pg.Pool;
  db: Kysely<DatabaseSchema>;
  close(): Promise<void>;
}

export class DatabaseUnreachable extends Error {
  constructor(kind: Database['kind'], cause: unknown) {
    // Connecting to "localhost" tries each address and fails with an AggregateError whose own message is empty.
    const first = cause instanceof AggregateError && cause.errors.length > 0 ? cause.errors[0] : cause;
    const detail = first instanceof Error ? first.message || first.name : String(first);
    const where = kind === 'postgres' ? 'the PostgreSQL server named by DATABASE_URL' : 'the embedded database';
    super(`Could not connect to ${where}: ${detail}.`, { cause });
    this.name = 'DatabaseUnreachable';
  }
}

/**
 * Connections the embedded server accepts: the tool's pool, pg-boss's own, and a CLI beside the server.
 * Beyond it, pglite-socket refuses the connection.
 */
function embeddedConnections(poolSize: number): number {
  return poolSize * 2 + 10;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let embedded: EmbeddedDatabase | null = null;
  let url = options.url;
  if (url === null) {
    // PGlite (its WebAssembly and the modules around it, about 35 MB) is loaded only where it is used.
    const { findRunningEmbeddedDatabase, startEmbeddedDatabase } = await import('./embedded.js');
    const shared = options.embedded === 'share' ? await findRunningEmbeddedDatabase(options.dataDir) : null;
    if (shared) url = shared;
    else {
      embedded = await startEmbeddedDatabase(options.dataDir, {
        maxConnections: embeddedConnections(options.poolSize),
      });
      url = embedded.url;
    }
  }
  const kind: Database['kind'] = options.url === null ? 'pglite' : 'postgres';
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client's error (a server restart, a dropped socket) must not end the process; the pool replaces it.
  pool.on('error', (error) => options.onPoolError?.(error));
  // A client in use when its connection ends (in a transaction, between two queries) emits the error too, and the
  // pool listens only while the client is idle: without a listener of its own the event would end the process.
  pool.on('connect', (client) => client.on('error', (error) => options.onPoolError?.(error)));
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw new DatabaseUnreachable(kind, error);
  }
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind,
    pool,
    db,
    async close() {
      await db.destroy(); // ends the pool too
      await embedded?.stop();
    },
  };
}
export { isUnstorableText } from './unstorable.js';
export { isDatabaseUnreachable } from './unreachable.js';
