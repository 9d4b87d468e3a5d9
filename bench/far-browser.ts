// A browser far from the servers it is sent to: its connections to the named origins pass through a delaying proxy
// (delay-proxy.ts), the others (the LMS's own pages) go direct. Each launch opens its connections afresh, as the
// first launch from an LMS page does, and what it asked of whom is recorded as a browser's network panel shows it.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Agent, buildConnector, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { startDelayProxy, type DelayProxy } from './delay-proxy.js';

export interface Hop {
  method: string;
  url: string;
  status: number;
  /** Whether it went through the delaying proxy. */
  far: boolean;
}

export interface FarBrowser {
  /** Runs `work` with undici's requests (the agent's launch) going through the proxies; gives the requests made. */
  run<T>(work: () => Promise<T>): Promise<{ result: T; hops: Hop[] }>;
  close(): Promise<void>;
}

/** `origins` (http://127.0.0.1:PORT) are `oneWayMs` away each way. */
export async function farBrowser(origins: string[], oneWayMs: number): Promise<FarBrowser> {
  const proxies = new Map<string, DelayProxy>();
  for (const origin of origins) {
    const { hostname, port } = new URL(origin);
    proxies.set(port, await startDelayProxy({ host: hostname, port: Number(port) }, oneWayMs));
  }
  const direct = buildConnector({});
  return {
    async run(work) {
      const hops: Hop[] = [];
      const record = (message: unknown) => {
        const { request, response } = message as {
          request: { origin: string; method: string; path: string };
          response: { statusCode: number };
        };
        hops.push({
          method: request.method,
          url: `${request.origin}${request.path}`,
          status: response.statusCode,
          far: proxies.has(new URL(request.origin).port),
        });
      };
      const agent = new Agent({
        // One connection to each origin, kept for the next request, as a browser keeps its idle one: left to
        // itself undici opens another for the request that follows a form post, a round trip a browser does not pay.
        connections: 1,
        connect: (options, callback) => {
          const proxy = proxies.get(String(options.port));
          direct(proxy ? { ...options, hostname: '127.0.0.1', port: String(proxy.port) } : options, callback);
        },
      });
      const before = getGlobalDispatcher();
      setGlobalDispatcher(agent);
      subscribe('undici:request:headers', record);
      try {
        return { result: await work(), hops };
      } finally {
        unsubscribe('undici:request:headers', record);
        setGlobalDispatcher(before);
        await agent.close();
      }
    },
    close: async () => {
      for (const proxy of proxies.values()) await proxy.close();
    },
  };
}
