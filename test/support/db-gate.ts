// A TCP gate in front of the database for one process's pool: it passes bytes both ways until it is closed, then
// holds them (the database is unreachable for that process, as in a network partition) until it is opened again.
// It can close itself the moment a client sends a query containing a given text, which puts the partition at an
// exact point of the code under test without touching that code.
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseSchema } from '../../src/db/index.js';

export interface DbGate {
  /** A connection string for the same database, through the gate. */
  url: string;
  /** Closes the gate as soon as a query containing `text` is sent (the query itself is held). */
  closeOn(text: string): Promise<void>;
  /** Opens the gate: everything held passes on, in order. */
  open(): void;
  stop(): Promise<void>;
}

export async function startDbGate(databaseUrl: string): Promise<DbGate> {
  const target = new URL(databaseUrl);
  // The embedded database listens on a Unix socket in its folder (`?host=<folder>`, as libpq and node-postgres
  // read it); a server elsewhere on TCP.
  const socketFolder = target.searchParams.get('host');
  const reachDatabase = () =>
    socketFolder?.startsWith('/')
      ? connect(`${socketFolder}/.s.PGSQL.${target.port || 5432}`)
      : connect(Number(target.port || 5432), target.hostname);
  let closed = false;
  let trigger: { text: Buffer; fire(): void } | null = null;
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const pass = (from: Socket, to: Socket, watch: boolean) => {
    from.on('data', (chunk: Buffer) => {
      if (watch && trigger && chunk.includes(trigger.text)) {
        closed = true;
        trigger.fire();
        trigger = null;
      }
      if (closed) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };
  const server: Server = createServer((client) => {
    const upstream = reachDatabase();
    sockets.add(client).add(upstream);
    pass(client, upstream, true);
    pass(upstream, client, false);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.searchParams.delete('host');
  url.port = String(typeof address === 'object' && address ? address.port : 0);
  return {
    url: url.toString(),
    closeOn: (text) => new Promise<void>((resolve) => (trigger = { text: Buffer.from(text), fire: resolve })),
    open: () => {
      closed = false;
      for (const write of held.splice(0)) write();
    },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The tool's database as one more process would reach it through the gate (a second worker, say). */
export function databaseThrough(gate: DbGate, connections: number): Kysely<DatabaseSchema> {
  const pool = new pg.Pool({ connectionString: gate.url, max: connections });
  // Its connections are cut on purpose: one that ends is no error of the test.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
}
