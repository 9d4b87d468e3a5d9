// The embedded database: PGlite (PostgreSQL compiled to WASM) with its data in DATA_DIR, served on 127.0.0.1 by
// pglite-socket so that the tool's ordinary `pg` code runs on it unchanged. PGlite is one backend: only one
// process may open the data directory. The process that does writes `embedded-db.json` beside the data with its
// pid and port; another process (the CLI while the server runs) finds the file and connects to that port.
//
// Memory: this is the database of someone trying the tool on their own machine, so it is kept small (measured in
// bench/surge.ts; docs/performance.md). A new data directory is initialised by a short-lived child process, since
// PGlite keeps its initdb's WebAssembly instance (about 450 MB) alive in the process that ran it; and PostgreSQL's
// shared buffers, which live inside PGlite's WebAssembly memory and are never given back, are a small fraction of
// the server default (the files underneath are in the operating system's page cache all the same).
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { BatchingQueryQueue } from './pglite-queue.js';
import { EmbeddedDatabaseBusy } from './embedded-busy.js';
import { isProcessAlive } from '../process-alive.js';

const LOCK_FILE = 'embedded-db.json';
const DATA_SUBDIR = 'pgdata';
const START_WAIT_MS = 60_000;

/**
 * PostgreSQL settings for the embedded server, beside PGlite's own. 16 MB of shared buffers (the default is 128 MB)
 * hold the tool's hot rows; WAL buffers follow them (1/32).
 */
const SETTINGS = ['shared_buffers=16MB', 'temp_buffers=1MB', 'maintenance_work_mem=16MB'];

interface LockContent {
  pid: number;
  port: number | null;
}

export interface EmbeddedDatabase {
  url: string;
  port: number;
  stop(): Promise<void>;
}

function urlFor(port: number): string {
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

function readLock(dataDir: string): LockContent | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as Partial<LockContent>;
    if (typeof parsed.pid !== 'number') return null;
    return { pid: parsed.pid, port: typeof parsed.port === 'number' ? parsed.port : null };
  } catch {
    return null;
  }
}

function writeLock(dataDir: string, content: LockContent): void {
  const temporary = join(dataDir, `${LOCK_FILE}.${process.pid}.tmp`);
  writeFileSync(temporary, JSON.stringify(content));
  renameSync(temporary, join(dataDir, LOCK_FILE));
}

/** Takes the data directory for this process, or says which live process holds it. */
function acquire(dataDir: string): void {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ pid: process.pid, port: null }), { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(dataDir);
      if (holder && holder.pid !== process.pid && isProcessAlive(holder.pid))
        throw new EmbeddedDatabaseBusy(holder.pid);
      rmSync(join(dataDir, LOCK_FILE), { force: true }); // left by a process that died
    }
  }
  throw new Error(`Could not take the embedded database lock in ${dataDir}.`);
}

function portAnswers(port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Creates the PostgreSQL data directory in a child process that ends when it is done, into a directory of its
 * own that is renamed into place only once complete (a start that dies halfway leaves no half-made directory).
 */
async function initialise(dataPath: string): Promise<void> {
  if (existsSync(join(dataPath, 'PG_VERSION'))) return;
  const building = `${dataPath}.init-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)}); const db = await PGlite.create(${JSON.stringify(building)}); await db.close();`;
  try {
    await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', script], { timeout: START_WAIT_MS });
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(
      `Could not create the embedded database in ${dataPath}: ${(error as { stderr?: string }).stderr || (error as Error).message}`,
      { cause: error },
    );
  }
  if (existsSync(dataPath)) {
    if (readdirSync(dataPath).length > 0) {
      rmSync(building, { recursive: true, force: true });
      throw new Error(
        `${dataPath} holds files but no PostgreSQL data directory (no PG_VERSION): move them away and start again.`,
      );
    }
    rmSync(dataPath, { recursive: true });
  }
  renameSync(building, dataPath);
}

/** Opens the data directory (creating it on first use) and serves it on a free port of 127.0.0.1. */
export async function startEmbeddedDatabase(
  dataDir: string,
  options: { maxConnections: number },
): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true });
  acquire(dataDir);
  let db: PGlite | undefined;
  try {
    const dataPath = join(dataDir, DATA_SUBDIR);
    await initialise(dataPath);
    db = await PGlite.create(dataPath, {
      startParams: [...PGlite.defaultStartParams, ...SETTINGS.flatMap((setting) => ['-c', setting])],
    });
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: options.maxConnections });
    // Its own queue interleaves concurrent connections' extended-protocol messages (see pglite-queue.ts).
    // The field is private in the types; pglite-socket is pinned to 0.2.17, whose handlers take it on connection.
    (server as unknown as { queryQueue: BatchingQueryQueue }).queryQueue = new BatchingQueryQueue(db);
    await server.start();
    const port = Number(server.getServerConn().split(':').pop());
    writeLock(dataDir, { pid: process.pid, port });
    const opened = db;
    return {
      url: urlFor(port),
      port,
      async stop() {
        await server.stop();
        await opened.close();
        if (readLock(dataDir)?.pid === process.pid) rmSync(join(dataDir, LOCK_FILE), { force: true });
      },
    };
  } catch (error) {
    await db?.close().catch(() => undefined);
    rmSync(join(dataDir, LOCK_FILE), { force: true });
    throw error;
  }
}

/**
 * The URL of the embedded database another live process serves from this data directory, waiting while that
 * process is still starting; null when no process holds it.
 */
export async function findRunningEmbeddedDatabase(dataDir: string): Promise<string | null> {
  const deadline = Date.now() + START_WAIT_MS;
  for (;;) {
    const holder = readLock(dataDir);
    if (!holder || !isProcessAlive(holder.pid)) return null;
    if (holder.port !== null && (await portAnswers(holder.port))) return urlFor(holder.port);
    if (Date.now() > deadline) throw new EmbeddedDatabaseBusy(holder.pid);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
