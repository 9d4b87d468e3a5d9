// A stand-in for the checking service (reference/checker-api.md), for local use, the demo and the tests: every
// endpoint of both families, JWT logins that expire, asynchronous analysis with a configurable delay, the PUT
// callback, computed similarity and real PDF reports, and fault switches. In-process or alone (cli.ts).
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxApp, type SandboxFaults } from './app.js';

export type { SandboxFaults } from './app.js';

export interface SandboxUser {
  email: string;
  password: string;
  name?: string;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Analysis time after an upload (default 2000 ms). */
  delayMs?: number;
  callbackUrl?: string;
  /** Default 100 MB, the real service's limit. */
  maxUploadBytes?: number;
  users?: SandboxUser[];
  tokenTtlSeconds?: number;
  faults?: SandboxFaults;
  logger?: (line: string) => void;
}

export interface Sandbox {
  url: string;
  users: SandboxUser[];
  setFaults(faults: SandboxFaults): void;
  stats(): { uploads: number; callbacksSent: number; papers: number; requests: number };
  close(): Promise<void>;
}

export const DEMO_USER: SandboxUser = { email: 'demo@example.edu', password: 'demo-password', name: 'Demo account' };

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const uploadDir = mkdtempSync(join(tmpdir(), 'checker-sandbox-'));
  const users = options.users ?? [DEMO_USER];
  let url = '';
  const runtime = createSandboxApp({
    delayMs: options.delayMs ?? 2000,
    callbackUrl: options.callbackUrl ?? null,
    maxUploadBytes: options.maxUploadBytes ?? 100 * 1024 * 1024,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 36_000,
    users,
    logger: options.logger ?? (() => undefined),
    uploadDir,
    publicUrl: () => url,
  });
  runtime.faults.current = options.faults ?? {};
  const server: Server = runtime.app.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  url = `http://${options.host ?? '127.0.0.1'}:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    users,
    setFaults: (faults) => void (runtime.faults.current = faults),
    stats: () => ({ ...runtime.stats, papers: runtime.store.papers.size }),
    async close() {
      for (const timer of runtime.pendingTimers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}
