// The embedded database's own thread (embedded.ts starts it): PGlite and the socket server the tool's `pg` pool
// connects to. PGlite runs PostgreSQL in WebAssembly, synchronously for each batch of a connection's messages; in the
// tool's main thread that work held every HTTP request behind it (a student's receipt waited on the worker's SQL), so
// it runs here, beside the event loop instead of in it. Messages: 'ready' with the port once it serves, 'failed'
// with the reason if it cannot start; it stops on 'stop' and says 'stopped'.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { BatchingQueryQueue } from './pglite-queue.js';

export interface EmbeddedServerData {
  dataPath: string;
  maxConnections: number;
  /** PostgreSQL's settings, as `-c name=value` pairs after PGlite's own start parameters. */
  settings: string[];
}

export type EmbeddedServerMessage =
  { kind: 'ready'; port: number } | { kind: 'failed'; reason: string } | { kind: 'stopped' };

const port = parentPort!;
const data = workerData as EmbeddedServerData;
const say = (message: EmbeddedServerMessage) => port.postMessage(message);

let db: PGlite | undefined;
try {
  db = await PGlite.create(data.dataPath, {
    startParams: [...PGlite.defaultStartParams, ...data.settings.flatMap((setting) => ['-c', setting])],
  });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: data.maxConnections });
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
  say({ kind: 'ready', port: Number(server.getServerConn().split(':').pop()) });
} catch (error) {
  await db?.close().catch(() => undefined);
  say({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
}
