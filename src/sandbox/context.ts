// What every part of a running sandbox shares: its settings, its data, the fault switches, the counters, and the
// timers that close() must stop.
import type { RequestHandler } from 'express';
import type { Journal } from './journal.js';
import type { SandboxStore } from './store.js';
import type { Clock } from './time.js';

export interface SandboxUser {
  email: string;
  password: string;
  name?: string;
}

export interface SandboxFaults {
  /** Fraction 0..1 of requests answered 429 with Retry-After. */
  rateLimit?: { ratio: number; retryAfterSeconds?: number };
  /** Every request answered 503. */
  outage?: boolean;
  /** Every answer delayed by this many ms. */
  slowMs?: number;
  /** duplicate: each callback sent twice; drop: none sent. */
  callbacks?: 'normal' | 'duplicate' | 'drop';
  /** Extra delay before a callback. */
  callbackDelayMs?: number;
  /**
   * The answer to an upload held back this long after the paper is stored and its analysis started (a slow
   * gateway): the callback can arrive first, and past the client's timeout the answer is lost.
   */
  uploadAnswerDelayMs?: number;
  /**
   * The answer to an upload replaced by this status after the paper is stored (a gateway in front of the service
   * answering 502 or 504 for a request the service did take).
   */
  uploadAnswerStatus?: 500 | 502 | 503 | 504;
  /**
   * An upload held this long before the service reads it (a large file over a slow link): the paper is not at
   * the service while it is held; other requests are answered as usual.
   */
  uploadHoldMs?: number;
  /**
   * Every upload refused (422) with this message, as the service refuses a file it cannot take: the tool shows
   * the service's words to the student and the instructor, so tests put in them what a service might say.
   */
  uploadRefusal?: string;
}

export interface SandboxConfig {
  delayMs: number;
  callbackUrl: string | null;
  maxUploadBytes: number;
  tokenTtlSeconds: number;
  users: SandboxUser[];
  /** Offset of the service's zone-less timestamps from UTC (default +05:30, India Standard Time). */
  utcOffsetMinutes: number;
  logger: (line: string, level?: 'info' | 'warn') => void;
  /** Where uploads are kept until their analysis has read them. */
  uploadDir: string;
  /** Where its data is kept across restarts (journal.ts); absent or null: in memory only. */
  journal?: Journal | null;
  /** The base URL, known only once the server listens; used in links and callbacks. */
  publicUrl: () => string;
}

export interface SandboxStats {
  uploads: number;
  callbacksSent: number;
  requests: number;
}

/** Timers and outgoing requests that must not outlive the sandbox. */
export class Timers {
  readonly #pending = new Set<NodeJS.Timeout>();
  readonly #stopped = new AbortController();

  get signal(): AbortSignal {
    return this.#stopped.signal;
  }

  later(ms: number, work: () => void): void {
    if (this.#stopped.signal.aborted) return;
    const timer = setTimeout(() => {
      this.#pending.delete(timer);
      work();
    }, ms);
    this.#pending.add(timer);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.later(ms, resolve));
  }

  stop(): void {
    this.#stopped.abort();
    for (const timer of this.#pending) clearTimeout(timer);
    this.#pending.clear();
  }
}

export interface SandboxContext {
  config: SandboxConfig;
  store: SandboxStore;
  clock: Clock;
  faults: { current: SandboxFaults };
  stats: SandboxStats;
  /** Every login token handed out, so that a test can search the tool's logs for them. */
  issuedTokens: string[];
  timers: Timers;
}

/** What the routes of a family take from the assembly: the token check, the JSON body parser, the upload. */
export interface RouteHandlers {
  guard: RequestHandler;
  json: RequestHandler;
  upload: RequestHandler;
}
