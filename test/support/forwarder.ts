// A plain HTTP forwarder that counts what passes: in front of several tool processes it is the load balancer
// (round robin), in front of the sandbox for one process it shows what that process sent to the service.
// With `retryRefused`, it behaves as a balancer does in front of processes that restart (nginx's default
// proxy_next_upstream error, HAProxy's retry-on conn-failure): one connection per request, the body kept until
// answered, and a request whose connection was refused (the process stopped listening) passed to the next process.
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';

export interface Forwarded {
  method: string;
  path: string;
  target: string;
}

export interface Forwarder {
  url: string;
  /** Every request passed on, in order of arrival. */
  forwarded: Forwarded[];
  /** Requests passed on whose answer has not ended yet. */
  inFlight(): number;
  /** Connections refused by a target and passed to the next one (retryRefused). */
  refusals(): number;
  setTargets(urls: string[]): void;
  close(): Promise<void>;
}

export async function startForwarder(
  targets: string[] = [],
  options: { retryRefused?: boolean } = {},
): Promise<Forwarder> {
  let current = targets;
  let next = 0;
  let open = 0;
  let refusals = 0;
  const forwarded: Forwarded[] = [];
  const server: Server = createServer(async (req, res) => {
    if (current.length === 0) return void res.writeHead(503).end();
    open += 1;
    res.once('close', () => (open -= 1));
    const first = next++;
    let body: Buffer | null = null;
    if (options.retryRefused) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      body = Buffer.concat(chunks);
    }
    const pass = (attempt: number): void => {
      const target = current[(first + attempt) % current.length]!;
      const { hostname, port } = new URL(target);
      const entry = { method: req.method ?? 'GET', path: req.url ?? '/', target };
      forwarded.push(entry);
      const upstream = request(
        { hostname, port, method: req.method, path: req.url, headers: req.headers, ...(body ? { agent: false } : {}) },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (body && error.code === 'ECONNREFUSED' && attempt + 1 < current.length) {
          refusals += 1;
          forwarded.splice(forwarded.indexOf(entry), 1);
          return pass(attempt + 1);
        }
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      if (body) upstream.end(body);
      else req.pipe(upstream);
    };
    pass(0);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    forwarded,
    inFlight: () => open,
    refusals: () => refusals,
    setTargets: (urls) => void (current = urls),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
