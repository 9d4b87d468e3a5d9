// A plain HTTP forwarder that counts what passes: in front of several tool processes it is the load balancer
// (round robin), in front of the sandbox for one process it shows what that process sent to the service.
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
  setTargets(urls: string[]): void;
  close(): Promise<void>;
}

export async function startForwarder(targets: string[] = []): Promise<Forwarder> {
  let current = targets;
  let next = 0;
  let open = 0;
  const forwarded: Forwarded[] = [];
  const server: Server = createServer((req, res) => {
    if (current.length === 0) return void res.writeHead(503).end();
    const target = current[next++ % current.length]!;
    forwarded.push({ method: req.method ?? 'GET', path: req.url ?? '/', target });
    open += 1;
    res.once('close', () => (open -= 1));
    const { hostname, port } = new URL(target);
    const upstream = request({ hostname, port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    forwarded,
    inFlight: () => open,
    setTargets: (urls) => void (current = urls),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
