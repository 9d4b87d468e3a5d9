// A TCP proxy that puts a network's round trip between a browser and a server on this machine: every chunk is
// passed on `oneWayMs` after it arrived, in order, each way; a new connection's first request waits one round trip
// more, as a browser's waits for the TCP handshake. What a page costs a person then shows as time: each request a
// launch makes of the server adds a round trip. (`tc netem` on a network namespace would do it in the kernel; this
// needs neither root nor the netem module.)
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface DelayProxy {
  /** The port the proxy listens on, on 127.0.0.1. */
  port: number;
  close(): Promise<void>;
}

/** Passes `from`'s chunks to `to`, each `delay(first)` ms after it arrived, never out of order. */
function delayed(from: Socket, to: Socket, delay: (first: boolean) => number): void {
  let last = 0;
  let first = true;
  from.on('data', (chunk: Buffer) => {
    const due = Math.max(performance.now() + delay(first), last);
    first = false;
    last = due;
    setTimeout(() => to.destroyed || to.write(chunk), due - performance.now());
  });
  from.on('end', () => {
    setTimeout(() => to.destroyed || to.end(), Math.max(0, last - performance.now()));
  });
}

export async function startDelayProxy(target: { host: string; port: number }, oneWayMs: number): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    // The handshake: the client's first bytes leave one round trip after its connect began.
    delayed(client, upstream, (first) => (first ? 3 * oneWayMs : oneWayMs));
    delayed(upstream, client, () => oneWayMs);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
