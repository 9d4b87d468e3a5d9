// The HTTP servers in front of the express app: one per listen address (loopback means both 127.0.0.1 and ::1, so
// two servers on one port), each with the limits that keep slow clients from holding sockets.
import { once } from 'node:events';
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../observe/logger.js';

export interface ServerLimits {
  /** The whole request head must arrive within this (slowloris: headers sent a byte at a time). */
  headersTimeoutMs: number;
  /** The whole request, body included; an upload that still moves but takes longer than this is cut. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

export interface Listening {
  servers: Server[];
  port: number;
  /** An address this machine reaches the tool at (for tests, the CLI and the start-up line). */
  localUrl: string;
}

/** Errors that mean "this machine has no such address" (IPv6 switched off): the other address still serves. */
export const ABSENT_ADDRESS = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/** The answers each server has not sent yet, and the servers told to close (closeServers). */
const unanswered = new WeakMap<Server, Set<ServerResponse>>();
const closing = new WeakSet<Server>();

function newServer(app: RequestListener, limits: ServerLimits): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks both timeouts on this interval (30 s by default), so a limit would otherwise be overshot by up
      // to 30 s; a quarter of the headers' limit keeps the overshoot small at negligible cost.
      connectionsCheckingInterval: Math.max(250, Math.min(5000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    app,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // Node's header and request limits start at a request's first byte: a connection that never sends one would
  // be held for ever. It gets the headers' limit for that first byte; the request, once it comes, clears it (a
  // socket inactivity limit beyond that would cut long answers, such as a report still being fetched).
  server.on('connection', (socket) => socket.setTimeout(limits.headersTimeoutMs, () => socket.destroy()));
  server.on('request', (req) => req.socket.setTimeout(0));
  // Once the server closes, every answer says "Connection: close" and ends its connection: a balancer that keeps
  // connections open would otherwise send its next request on one the server is about to drop.
  const answers = new Set<ServerResponse>();
  unanswered.set(server, answers);
  server.on('request', (_req, res: ServerResponse) => {
    if (closing.has(server)) res.shouldKeepAlive = false;
    answers.add(res);
    res.once('close', () => answers.delete(res));
  });
  return server;
}

async function listenOne(server: Server, port: number, host: string): Promise<void> {
  server.listen(port, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
}

function urlHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return address.includes(':') ? `[${address}]` : address;
}

/**
 * Listens on every host, on one port. With PORT=0 the first host picks the port and the others follow; should
 * another program hold that port on a later host, the whole set is tried again on a new one.
 */
export async function listenOnHosts(
  app: RequestListener,
  options: { hosts: string[]; port: number; limits: ServerLimits; logger: Logger },
): Promise<Listening> {
  const { hosts, limits, logger } = options;
  for (let attempt = 0; ; attempt += 1) {
    const servers: Server[] = [];
    let port = options.port;
    try {
      for (const host of hosts) {
        const server = newServer(app, limits);
        try {
          await listenOne(server, port, host);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? '';
          if (servers.length > 0 && ABSENT_ADDRESS.has(code)) {
            logger.info({ host, reason: code }, `This machine has no address ${host}; listening without it`);
            continue;
          }
          throw error;
        }
        servers.push(server);
        const address = server.address();
        if (typeof address === 'object' && address) port = address.port;
      }
      return { servers, port, localUrl: `http://${urlHost(hosts[0]!)}:${port}` };
    } catch (error) {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      const retry =
        options.port === 0 &&
        servers.length > 0 &&
        (error as NodeJS.ErrnoException).code === 'EADDRINUSE' &&
        attempt < 5;
      if (!retry) throw error;
    }
  }
}

/** Stops accepting on every server, lets requests in flight finish (up to the timeout), then cuts the rest. */
export async function closeServers(servers: Server[], timeoutMs: number): Promise<void> {
  for (const server of servers) {
    closing.add(server);
    for (const res of unanswered.get(server) ?? []) if (!res.headersSent) res.shouldKeepAlive = false;
  }
  const closed = Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  for (const server of servers) server.closeIdleConnections();
  const timer = setTimeout(() => servers.forEach((server) => server.closeAllConnections()), timeoutMs);
  await closed;
  clearTimeout(timer);
}
