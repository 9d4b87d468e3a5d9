// A stand-in for the checking service (reference/checker-api.md), for local use, the demo and the tests: every
// endpoint of both families, JWT logins that expire, asynchronous analysis with a configurable delay, the PUT
// callback, computed similarity, real PDF reports, and fault switches. In-process (startSandbox) or alone (cli.ts).
// Its data lives in memory, or (dataDir) also on disk, where a restart finds it (journal.ts).
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxApp, type SandboxApp } from './app.js';
import type { SandboxFaults, SandboxUser } from './context.js';
import { checkFaults } from './faults.js';
import { openJournal, type Journal } from './journal.js';

export { createSandboxApp, type SandboxApp } from './app.js';
export type { SandboxConfig, SandboxFaults, SandboxUser } from './context.js';

export interface SandboxOptions {
  /** 0 or absent: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Analysis time after an upload (default 2000 ms; the real service takes 10 to 15 minutes). */
  delayMs?: number;
  /** PUT callback target for every account; absent: no callbacks. */
  callbackUrl?: string;
  /** Default 100 MB, the real service's limit. */
  maxUploadBytes?: number;
  /** Default: the demo user alone. */
  users?: SandboxUser[];
  /** JWT lifetime (default 36000 s, the 10 h of a legacy example). */
  tokenTtlSeconds?: number;
  /** Offset of the zone-less timestamps from UTC (default 330, India Standard Time). */
  utcOffsetMinutes?: number;
  faults?: SandboxFaults;
  /** Where its lines go: routine events (a paper analysed) are 'info', problems (the default) 'warn'. */
  logger?: (line: string, level?: 'info' | 'warn') => void;
  /**
   * A folder to keep its folders, papers, results, id counters and waiting uploads in, so that a sandbox started
   * again on it goes on where the last one stopped (after resume()). Absent: in memory, gone at close.
   */
  dataDir?: string;
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The accounts it knows (with their passwords: for the caller's own use, never to log). */
  users: SandboxUser[];
  /** Replaces the fault switches at run time. */
  setFaults(faults: SandboxFaults): void;
  stats(): { uploads: number; callbacksSent: number; papers: number; requests: number };
  /** The login tokens it has handed out (for tests that look for them where they must not be). */
  issuedTokens(): string[];
  /** With dataDir: what it found there at start (null: started empty, or in memory). */
  restored: { folders: number; papers: number; skippedLines: number } | null;
  /**
   * With dataDir: starts what was left waiting at the last stop, the analyses of papers still pending and the
   * callbacks not yet delivered; call it once the callback URL answers. Nothing to do without dataDir.
   */
  resume(): { waiting: number; toAnnounce: number };
  close(): Promise<void>;
}

export const DEMO_USER: SandboxUser = { email: 'demo@example.edu', password: 'demo-password', name: 'Demo account' };

const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

function checkOptions(options: SandboxOptions): void {
  const whole = (name: keyof SandboxOptions, min: number) => {
    const value = options[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isInteger(value) && value >= min))
      throw new RangeError(`${name} must be a whole number of at least ${min}.`);
  };
  whole('port', 0);
  whole('delayMs', 0);
  whole('maxUploadBytes', 1);
  whole('tokenTtlSeconds', 1);
  if (options.callbackUrl !== undefined && !URL.canParse(options.callbackUrl))
    throw new RangeError('callbackUrl must be an absolute URL.');
  if (options.users && (options.users.length === 0 || options.users.some((u) => !u.email || !u.password)))
    throw new RangeError('users must name at least one user, each with an email and a password.');
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptions(options);
  const host = options.host ?? '127.0.0.1';
  const users = options.users ?? [DEMO_USER];
  const journal: Journal | null = options.dataDir ? openJournal(options.dataDir) : null;
  const uploadDir = journal ? journal.uploadDir : await mkdtemp(join(tmpdir(), 'checker-sandbox-'));
  // The uploads of a sandbox with a journal stay for the next start; a temporary folder goes with the sandbox.
  const removeUploads = () => (journal ? Promise.resolve() : rm(uploadDir, { recursive: true, force: true }));
  let url = '';
  let sandbox: SandboxApp;
  try {
    sandbox = createSandboxApp(
      {
        delayMs: options.delayMs ?? 2000,
        callbackUrl: options.callbackUrl ?? null,
        maxUploadBytes: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
        tokenTtlSeconds: options.tokenTtlSeconds ?? 36_000,
        users,
        utcOffsetMinutes: options.utcOffsetMinutes ?? 330,
        logger: options.logger ?? (() => undefined),
        uploadDir,
        journal,
        publicUrl: () => url,
      },
      checkFaults(options.faults ?? {}),
    );
  } catch (error) {
    journal?.close();
    await removeUploads();
    throw error;
  }
  const server: Server = sandbox.app.listen(options.port ?? 0, host);
  try {
    await once(server, 'listening');
  } catch (error) {
    journal?.close();
    await removeUploads();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const { context } = sandbox;
  const restored = journal?.found
    ? { folders: context.store.folders.size, papers: context.store.papers.size, skippedLines: journal.unreadable }
    : null;
  return {
    url,
    users,
    setFaults: (faults) => void (context.faults.current = checkFaults(faults)),
    stats: () => ({ ...context.stats, papers: context.store.papers.size }),
    issuedTokens: () => [...context.issuedTokens],
    restored,
    resume: () => sandbox.resume(),
    async close() {
      sandbox.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      journal?.close();
      await removeUploads();
    },
  };
}
