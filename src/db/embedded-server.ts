// The embedded database's own thread (embedded.ts starts it): PGlite and the socket server the tool's `pg` pool
// connects to. PGlite runs PostgreSQL in WebAssembly, synchronously for each batch of a connection's messages; in the
// tool's main thread that work held every HTTP request behind it (a student's receipt waited on the worker's SQL), so
// it runs here, beside the event loop instead of in it. Messages: 'ready' once it serves, 'failed' with the reason if
// it cannot start; it stops on 'stop' and says 'stopped'.
//
// It serves on a Unix socket, never on TCP: pglite-socket hands the startup message to PGlite, which accepts any user
// name and password (0.2.17 checks none), so a TCP port on 127.0.0.1 let every local user read and rewrite every
// table. A socket in a folder only the owner can enter (DATA_DIR, 0700; embedded.ts) is refused to everyone else by
// the kernel before a byte reaches PGlite.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { BatchingQueryQueue } from './pglite-queue.js';

export interface EmbeddedServerData {
  dataPath: string;
  maxConnections: number;
  /** The Unix socket's path, in a folder only the owner can enter. */
  socketPath: string;
  /** PostgreSQL's settings, as `-c name=value` pairs after PGlite's own start parameters. */
  settings: string[];
}

export type EmbeddedServerMessage = { kind: 'ready' } | { kind: 'failed'; reason: string } | { kind: 'stopped' };

const port = parentPort!;
const data = workerData as EmbeddedServerData;
const say = (message: EmbeddedServerMessage) => port.postMessage(message);

let db: PGlite | undefined;
try {
  db = await PGlite.create(data.dataPath, {
    startParams: [...PGlite.defaultStartParams, ...data.settings.flatMap((setting) => ['-c', setting])],
  });
  const server = new PGLiteSocketServer({ db, path: data.socketPath, maxConnections: data.maxConnections });
  // Its own queue interleaves concurrent connections' extended-protocol messages (see pglite-queue.ts).
  // The field is private in the types; pglite-socket is pinned to 0.2.17, whose handlers take it on connection.
  (server as unknown as { queryQueue: BatchingQueryQueue }).queryQueue = new BatchingQueryQueue(db);
  await server.start();
  const opened = db;
  port.on('message', (message: unknown) => {
    if (message !== 'stop') return;
    void (async () => {
      try {
        await server.stop();
        await opened.close();
      } finally {
        say({ kind: 'stopped' });
      }
    })();
  });
  say({ kind: 'ready' });
} catch (error) {
  await db?.close().catch(() => undefined);
  say({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
}
