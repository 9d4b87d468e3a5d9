// The space a database holds for rows deleted or replaced ("dead" rows), and giving it back on the embedded one.
// PostgreSQL's autovacuum reclaims it on a server; PGlite runs no autovacuum worker, and nothing else runs VACUUM,
// so every received file's bytes (deleted once the service has them, or at once when an upload is refused), every
// finished job and every expired session stayed in DATA_DIR for good. On PGlite the tool vacuums each table whose
// dead rows are worth it (reclaimDeadSpace, run every few seconds by the composition root): VACUUM makes their space
// reusable and gives the file's empty end back to the operating system, and a checkpoint then lets the write-ahead
// log's old segments go (beyond the 32 MB embedded.ts keeps), so a refused upload costs nothing lasting.
// /metrics shows the database's size and its dead rows on either engine (databaseSpace).
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from './schema.js';

/**
 * A table is vacuumed once its dead rows hold this much (a received file's chunks are a megabyte each), or once they
 * are this many and this share of its rows (small rows: sessions, jobs).
 */
const MIN_DEAD_ROWS = 200;
const MIN_DEAD_SHARE = 0.2;
const MIN_DEAD_BYTES = 8 * 1024 * 1024;

interface TableSpace {
  table: string;
  liveRows: number;
  deadRows: number;
  /** The table's disk (its TOAST and indexes included). */
  bytes: number;
}

export interface DatabaseSpace {
  /** The whole database on disk. */
  bytes: number;
  /** Rows deleted or replaced whose space is not reused yet, over every table of the tool's schemas. */
  deadRows: number;
  /** Their estimated share of the tables' disk: each table's size times its dead rows' share of its rows. */
  deadBytes: number;
}

async function tableSpaces(db: Kysely<DatabaseSchema>): Promise<TableSpace[]> {
  const { rows } = await sql<{ table: string; live: string; dead: string; bytes: string }>`
    SELECT format('%I.%I', schemaname, relname) AS table, n_live_tup AS live, n_dead_tup AS dead,
           pg_total_relation_size(relid) AS bytes
      FROM pg_stat_user_tables`.execute(db);
  return rows.map((row) => ({
    table: row.table,
    liveRows: Number(row.live),
    deadRows: Number(row.dead),
    bytes: Number(row.bytes),
  }));
}

const deadBytesOf = (table: TableSpace) =>
  table.deadRows === 0 ? 0 : Math.round((table.bytes * table.deadRows) / (table.deadRows + table.liveRows));

/** The database's size and dead rows, for /metrics. */
export async function databaseSpace(db: Kysely<DatabaseSchema>): Promise<DatabaseSpace> {
  const [tables, size] = await Promise.all([
    tableSpaces(db),
    sql<{ bytes: string }>`SELECT pg_database_size(current_database()) AS bytes`.execute(db),
  ]);
  return {
    bytes: Number(size.rows[0]?.bytes ?? 0),
    deadRows: tables.reduce((sum, table) => sum + table.deadRows, 0),
    deadBytes: tables.reduce((sum, table) => sum + deadBytesOf(table), 0),
  };
}

/**
 * Vacuums each table whose dead rows are worth it; gives the tables vacuumed. For the embedded database only: a
 * PostgreSQL server's autovacuum does this with its own measure.
 */
export async function reclaimDeadSpace(db: Kysely<DatabaseSchema>): Promise<string[]> {
  const worth = (await tableSpaces(db)).filter(
    (table) =>
      deadBytesOf(table) >= MIN_DEAD_BYTES ||
      (table.deadRows >= MIN_DEAD_ROWS && table.deadRows >= MIN_DEAD_SHARE * (table.deadRows + table.liveRows)),
  );
  // The name is PostgreSQL's own, quoted by format('%I.%I') above.
  for (const table of worth) await sql`VACUUM ${sql.raw(table.table)}`.execute(db);
  // The deleted bytes went through the write-ahead log too: a checkpoint lets the log's old segments go.
  if (worth.length > 0) await sql`CHECKPOINT`.execute(db);
  return worth.map((table) => table.table);
}
