// The embedded database: PGlite (PostgreSQL compiled to WASM) with its data in DATA_DIR, served on 127.0.0.1 by
// pglite-socket so that the tool's ordinary `pg` code runs on it unchanged. PGlite is one backend: only one
// process may open the data directory. The process that does writes `embedded-db.json` beside the data with its
// pid and port; another process (the CLI while the server runs) finds the file and connects to that port.
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
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { EmbeddedServerData, EmbeddedServerMessage } from './embedded-server.js';
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
  let thread: Worker | undefined;
  try {
    const dataPath = join(dataDir, DATA_SUBDIR);
    await initialise(dataPath);
    const data: EmbeddedServerData = { dataPath, maxConnections: options.maxConnections, settings: SETTINGS };
    thread = startServerThread(data);
    const serving = thread;
    const port = await new Promise<number>((resolve, reject) => {
      serving.once('message', (message: EmbeddedServerMessage) =>
        message.kind === 'ready'
          ? resolve(message.port)
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
    writeLock(dataDir, { pid: process.pid, port });
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
      url: urlFor(port),
      port,
      stop() {
        stopping ??= new Promise<void>((resolve) => {
          const done = () => {
            if (readLock(dataDir)?.pid === process.pid) rmSync(join(dataDir, LOCK_FILE), { force: true });
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
    if (holder.port !== null && (await portAnswers(holder.port))) return urlFor(holder.port);
    if (Date.now() > deadline) throw new EmbeddedDatabaseBusy(holder.pid);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
