// The embedded database: PGlite (PostgreSQL compiled to WASM) with its data in DATA_DIR, served by pglite-socket on
// a Unix socket so that the tool's ordinary `pg` code runs on it unchanged. PGlite is one backend: only one process
// may open the data directory. The process that does writes `embedded-db.json` beside the data with its pid and the
// socket's folder; another process of the same owner (the CLI while the server runs) finds the file and connects.
//
// Only the owner can connect: PGlite takes any user name and password, so the socket sits in DATA_DIR, a folder only
// its owner can enter (0700, src/config/data-dir.ts), and the kernel refuses everyone else
// (test/config/data-dir.process.test.ts).
//
// PGlite and its socket server run in a thread of their own (embedded-server.ts): its WebAssembly work no longer
// holds the tool's event loop.
//
// Memory: this is the database of someone trying the tool on their own machine, so it is kept small (measured in
// bench/surge.ts; docs/performance.md). A new data directory is initialised by a short-lived child process, since
// PGlite keeps its initdb's WebAssembly instance (about 450 MB) alive in the process that ran it; and PostgreSQL's
// shared buffers, which live inside PGlite's WebAssembly memory and are never given back, are a small fraction of
// the server default (the files underneath are in the operating system's page cache all the same).
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { EmbeddedServerData, EmbeddedServerMessage } from './embedded-server.js';
import { EmbeddedDatabaseBusy } from './embedded-busy.js';
import { tighten } from '../config/data-dir.js';
import { isProcessAlive } from '../observe/process-alive.js';

const LOCK_FILE = 'embedded-db.json';
const DATA_SUBDIR = 'pgdata';
const START_WAIT_MS = 60_000;
/**
 * A new data directory's initdb, in its child process: seconds on a quiet machine, but a first start that loads the
 * tool beside it on a busy one took over a minute, and a first start must not fail for being slow.
 */
const INIT_WAIT_MS = 300_000;
/** libpq's name for a server's socket (port 5432) in its folder: `pg` connects to `<host>/.s.PGSQL.5432`. */
const SOCKET_NAME = '.s.PGSQL.5432';
/** A Unix socket's path holds at most 103 bytes on macOS (107 on Linux). */
const MOST_SOCKET_PATH = 103;

/**
 * PostgreSQL settings for the embedded server, beside PGlite's own. 16 MB of shared buffers (the default is 128 MB)
 * hold the tool's hot rows; WAL buffers follow them (1/32). The write-ahead log keeps 32 MB of old segments for
 * reuse (the server keeps 80 MB) and a checkpoint comes by 128 MB of it (rather than 1 GB): received files pass
 * through the log, and DATA_DIR should not keep a gigabyte of it after a busy hour (db/dead-space.ts).
 */
const SETTINGS = [
  'shared_buffers=16MB',
  'temp_buffers=1MB',
  'maintenance_work_mem=16MB',
  'min_wal_size=32MB',
  'max_wal_size=128MB',
];

interface LockContent {
  pid: number;
  /** The folder of the server's socket, once it serves. */
  socket: string | null;
}

export interface EmbeddedDatabase {
  url: string;
  /** The server's Unix socket. */
  socketPath: string;
  stop(): Promise<void>;
}

function urlFor(socketFolder: string): string {
  return `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketFolder)}`;
}

function readLock(dataDir: string): LockContent | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as Partial<LockContent>;
    if (typeof parsed.pid !== 'number') return null;
    return { pid: parsed.pid, socket: typeof parsed.socket === 'string' ? parsed.socket : null };
  } catch {
    return null;
  }
}

function writeLock(dataDir: string, content: LockContent): void {
  const temporary = join(dataDir, `${LOCK_FILE}.${process.pid}.tmp`);
  writeFileSync(temporary, JSON.stringify(content), { mode: 0o600 });
  renameSync(temporary, join(dataDir, LOCK_FILE));
}

/** The live process that holds this data directory's embedded database, if any. */
export function embeddedHolder(dataDir: string): number | null {
  const holder = readLock(dataDir);
  return holder && holder.pid !== process.pid && isProcessAlive(holder.pid) ? holder.pid : null;
}

/** Takes the data directory for this process, or says which live process holds it. */
function acquire(dataDir: string): void {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ pid: process.pid, socket: null }), {
        flag: 'wx',
        mode: 0o600,
      });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = embeddedHolder(dataDir);
      if (holder !== null) throw new EmbeddedDatabaseBusy(holder);
      rmSync(join(dataDir, LOCK_FILE), { force: true }); // left by a process that died
    }
  }
  throw new Error(`Could not take the embedded database lock in ${dataDir}.`);
}

/**
 * The socket's folder: DATA_DIR itself (made the owner's alone here whoever the caller), or, where DATA_DIR's path is
 * too long for a socket's, a new folder of the owner's alone in the system's temporary folder.
 */
function socketFolder(dataDir: string): string {
  if (Buffer.byteLength(join(dataDir, SOCKET_NAME)) <= MOST_SOCKET_PATH) {
    chmodSync(dataDir, 0o700);
    return dataDir;
  }
  return mkdtempSync(join(tmpdir(), 'olti-db-')); // 0700
}

function socketAnswers(folder: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path: join(folder, SOCKET_NAME) });
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
    await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', script], { timeout: INIT_WAIT_MS });
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(
      `Could not create the embedded database in ${dataPath}: ${(error as { stderr?: string }).stderr || (error as Error).message}`,
      { cause: error },
    );
  }
  tighten(building);
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
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  acquire(dataDir);
  let thread: Worker | undefined;
  let folder: string | undefined;
  try {
    const dataPath = join(dataDir, DATA_SUBDIR);
    await initialise(dataPath);
    folder = socketFolder(dataDir);
    const socketPath = join(folder, SOCKET_NAME);
    rmSync(socketPath, { force: true }); // left by a process that died (this one holds the lock now)
    const data: EmbeddedServerData = {
      dataPath,
      socketPath,
      maxConnections: options.maxConnections,
      settings: SETTINGS,
    };
    thread = startServerThread(data);
    const serving = thread;
    const ownFolder = folder === dataDir ? null : folder;
    await new Promise<void>((resolve, reject) => {
      serving.once('message', (message: EmbeddedServerMessage) =>
        message.kind === 'ready'
          ? resolve()
          : reject(
              new Error(
                `The embedded database did not start: ${message.kind === 'failed' ? message.reason : message.kind}`,
              ),
            ),
      );
      serving.once('error', reject);
      serving.once('exit', (code) =>
        reject(new Error(`The embedded database's thread ended (code ${code}) before it served.`)),
      );
    });
    tighten(dataPath); // the relation cache PostgreSQL wrote as it started
    writeLock(dataDir, { pid: process.pid, socket: folder });
    let stopping: Promise<void> | undefined;
    // The database gone while the tool runs ends the process, as PGlite failing in the tool's own thread did: a
    // supervisor starts it again, and nothing serves pages with no database under them.
    serving.once('exit', (code) => {
      if (stopping) return;
      process.nextTick(() => {
        throw new Error(`The embedded database's thread ended unexpectedly (code ${code}).`);
      });
    });
    return {
      url: urlFor(folder),
      socketPath,
      stop() {
        stopping ??= new Promise<void>((resolve) => {
          const done = () => {
            tighten(dataPath);
            if (readLock(dataDir)?.pid === process.pid) rmSync(join(dataDir, LOCK_FILE), { force: true });
            if (ownFolder) rmSync(ownFolder, { recursive: true, force: true });
            resolve();
          };
          serving.once('exit', done);
          serving.once('message', () => void serving.terminate());
          serving.postMessage('stop');
        });
        return stopping;
      },
    };
  } catch (error) {
    await thread?.terminate().catch(() => undefined);
    if (folder && folder !== dataDir) rmSync(folder, { recursive: true, force: true });
    rmSync(join(dataDir, LOCK_FILE), { force: true });
    throw error;
  }
}

/** The thread's JavaScript heap is small (PGlite's own memory is WebAssembly's, outside it). */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 4 };

/**
 * The thread, from the module built beside this one; or, when the tool runs from its sources (tsx), from the source,
 * with tsx registered in the thread first (a thread takes no loader from the command line).
 */
function startServerThread(data: EmbeddedServerData): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./embedded-server.js', import.meta.url), {
      workerData: data,
      resourceLimits: THREAD_LIMITS,
    });
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = new URL('./embedded-server.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(code, { eval: true, workerData: data, resourceLimits: THREAD_LIMITS });
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
    if (holder.socket !== null && (await socketAnswers(holder.socket))) return urlFor(holder.socket);
    if (Date.now() > deadline) throw new EmbeddedDatabaseBusy(holder.pid);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
