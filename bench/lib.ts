// What every benchmark needs: the scale, load at a fixed rate or at full speed, percentiles, resident memory of a
// process, child processes that announce themselves, and the rows of the table.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { createTestDatabase } from '../test/support/db.js';

/** BENCH_SCALE=0.1 runs a tenth of the issue's figures (counts and the surge's window), for a quick look. */
export const SCALE = Number(process.env.BENCH_SCALE ?? 1);
if (!(SCALE > 0 && SCALE <= 10)) throw new RangeError('BENCH_SCALE must be a number above 0 and at most 10.');

export const scaled = (count: number, min = 1): number => Math.max(min, Math.round(count * SCALE));

export const root = fileURLToPath(new URL('..', import.meta.url));

export interface Row {
  what: string;
  figure: string;
  anchor?: string;
  ratio?: string;
  goal?: string;
  /** What one operation cost the tool: SQL statements, commits, CPU ms (beside the anchor's CPU ms). */
  cost?: Cost;
}

export interface Cost {
  statements: number;
  commits: number;
  cpuMs: number;
  /** HTTP answers the process finished, and the writes it handed to their sockets (each a system call). */
  answers?: number;
  serverWrites?: number;
  /** Writes to the process's own connections: the database, the LMS's and the service's addresses. */
  otherWrites?: number;
  /** Milliseconds inside those writes (BENCH_WRITE_TIMES=1): the wall clock, and the process's CPU meanwhile. */
  writeWallMs?: number;
  writeCpuMs?: number;
  anchorCpuMs?: number;
  /** Whose CPU that is: "bare route" unless named. */
  anchorName?: string;
}

/** What bench/meter.mjs answers: a metered process's counters. */
export interface MeterReading {
  statements: number;
  commits: number;
  /** User and system CPU of the process, in milliseconds. */
  cpuMs: number;
  /** HTTP answers finished; writes to the sockets of its HTTP servers; writes to its other sockets. */
  answers: number;
  serverWrites: number;
  otherWrites: number;
  /** Milliseconds inside the socket writes, when timed: the wall clock, and the process's CPU (all its threads). */
  writeWallMs: number;
  writeCpuMs: number;
  /** Statements by their first 120 characters, most frequent first; with ?texts=1 (?reset=1 starts afresh). */
  texts?: Array<[string, number]>;
}

/** The Node options and environment that load bench/meter.mjs into a process, serving on its own socket. */
export function metered(name: string): { env: Record<string, string>; meter: Meter } {
  const socket = join(tmpdir(), `olti-meter-${process.pid}-${name}-${Date.now()}.sock`);
  // Only the meter: the process's own command says whether it runs through tsx (bench/meter.mjs needs no loader).
  const options = `--import ${join(root, 'bench/meter.mjs')}`;
  return { env: { BENCH_METER_SOCKET: socket, NODE_OPTIONS: options }, meter: new Meter(socket) };
}

/** Reads a metered process's counters. */
export class Meter {
  readonly #dispatcher: Agent;

  constructor(readonly socket: string) {
    this.#dispatcher = new Agent({ connect: { socketPath: socket } });
  }

  /** The counters; `texts` adds the statements counted since the last `reset`. */
  async read(options: { texts?: boolean; reset?: boolean } = {}): Promise<MeterReading> {
    return (await this.#ask(
      [options.texts ? 'texts=1' : '', options.reset ? 'reset=1' : ''].filter(Boolean).join('&'),
    )) as MeterReading;
  }

  async #ask(query: string): Promise<unknown> {
    const answer = await request(`http://meter/?${query}`, { dispatcher: this.#dispatcher });
    return answer.body.json();
  }

  /**
   * Runs `phase` and divides what the process spent meanwhile by the operations it completed. BENCH_STATEMENTS=1
   * prints the statements of the phase, with how many each operation sent, to stderr; BENCH_PROFILE_DIR=DIR
   * writes a CPU profile of the process over the phase to DIR/<name>.cpuprofile; BENCH_WRITE_TIMES=1 times the
   * process's socket writes (the wall clock and CPU inside them).
   */
  async costOf<T extends { done: number }>(
    phase: () => Promise<T>,
    name = 'phase',
  ): Promise<{ result: T; cost: Cost }> {
    const listing = Boolean(process.env.BENCH_STATEMENTS);
    const profileDir = process.env.BENCH_PROFILE_DIR;
    if (profileDir) await this.#ask('profile=start');
    if (process.env.BENCH_WRITE_TIMES) await this.#ask('time-writes=1');
    const before = await this.read({ reset: listing });
    const result = await phase();
    const after = await this.read({ texts: listing });
    if (profileDir) {
      mkdirSync(profileDir, { recursive: true });
      writeFileSync(join(profileDir, `${name}.cpuprofile`), JSON.stringify(await this.#ask('profile=stop')));
    }
    for (const [text, n] of after.texts ?? [])
      process.stderr.write(`${(n / Math.max(1, result.done)).toFixed(2).padStart(7)}  ${text}\n`);
    const per = (a: number, b: number) => (result.done > 0 ? (a - b) / result.done : Number.NaN);
    return {
      result,
      cost: {
        statements: per(after.statements, before.statements),
        commits: per(after.commits, before.commits),
        cpuMs: per(after.cpuMs, before.cpuMs),
        answers: per(after.answers, before.answers),
        serverWrites: per(after.serverWrites, before.serverWrites),
        otherWrites: per(after.otherWrites, before.otherWrites),
        writeWallMs: per(after.writeWallMs, before.writeWallMs),
        writeCpuMs: per(after.writeCpuMs, before.writeCpuMs),
      },
    };
  }
}

/** The three cost columns of a row. */
export function costCells(cost: Cost | undefined): [string, string, string] {
  if (!cost) return ['', '', ''];
  const cpu = `${cost.cpuMs.toFixed(1)}${cost.anchorCpuMs !== undefined ? ` (${cost.anchorName ?? 'bare route'} ${cost.anchorCpuMs.toFixed(1)})` : ''}`;
  return [cost.statements.toFixed(1), cost.commits.toFixed(1), cpu];
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
export const perSecond = (value: number) => `${value.toFixed(0)}/s`;
export const ratio = (value: number) => `${value.toFixed(2)}`;

export interface LoadResult {
  done: number;
  failed: number;
  seconds: number;
  /** Milliseconds from the moment each operation was due to its end. */
  latencies: number[];
  /** The first failure's message, to show what went wrong. */
  firstError: string | null;
}

async function measured(op: () => Promise<void>, due: number, result: LoadResult): Promise<void> {
  try {
    await op();
    result.done += 1;
    result.latencies.push(performance.now() - due);
  } catch (error) {
    result.failed += 1;
    result.firstError ??= error instanceof Error ? error.message : String(error);
  }
}

/** `count` operations by `concurrency` workers, each starting the next as soon as its last one ends. */
export async function closedLoop(
  count: number,
  concurrency: number,
  op: (i: number) => Promise<void>,
): Promise<LoadResult> {
  const result: LoadResult = { done: 0, failed: 0, seconds: 0, latencies: [], firstError: null };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (let i = next++; i < count; i = next++) await measured(() => op(i), performance.now(), result);
    }),
  );
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/**
 * `count` operations started at a fixed rate whatever the answers do (an open loop), so a slow answer shows in
 * the latency of those queued behind it rather than lowering the rate.
 */
export async function fixedRate(count: number, rate: number, op: (i: number) => Promise<void>): Promise<LoadResult> {
  const result: LoadResult = { done: 0, failed: 0, seconds: 0, latencies: [], firstError: null };
  const started = performance.now();
  const running: Array<Promise<void>> = [];
  for (let i = 0; i < count; i += 1) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    running.push(measured(() => op(i), due, result));
  }
  await Promise.all(running);
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/** Failures are part of the figure, never hidden. */
export function failures(result: LoadResult): string {
  return result.failed === 0 ? '' : ` (${result.failed} failed: ${result.firstError})`;
}

/** Resident memory of a process in MB, from /proc. */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS'));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) / 1024;
}

/** Samples a process's resident memory until stopped; gives the highest value seen. */
export function rssPeak(pid: number, everyMs = 100): { stop(): number } {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // the process has gone; keep what was seen
    }
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 250,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(everyMs);
  }
}

export interface Child<T> {
  child: ChildProcess;
  info: T;
  stop(): Promise<void>;
}

/** Runs bench/<script> in its own process; it prints one line `READY <json>` once it serves. */
export async function startChild<T>(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Child<T>> {
  const child = spawn(process.execPath, ['--import', 'tsx', `${root}bench/${script}`, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const info = await new Promise<T>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve(JSON.parse(line.slice(6)) as T);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  return {
    child,
    info,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Runs `work` beside the bare anchor server (bench/bare-server.ts), metered, and stops it whatever happens; `env`
 * adds to its environment (BARE_AUTH_URL).
 */
export async function withBareServer<R>(
  work: (bare: { url: string; meter: Meter }) => Promise<R>,
  env: Record<string, string> = {},
): Promise<R> {
  const { env: meterEnv, meter } = metered('bare');
  return withChild<{ url: string }, R>('bare-server.ts', (bare) => work({ url: bare.info.url, meter }), {
    ...env,
    BENCH_METER_SOCKET: meterEnv.BENCH_METER_SOCKET!,
  });
}

/**
 * Runs `work` beside the same-work anchors (bench/same-work-server.ts), metered, on a fresh database of the
 * PostgreSQL server the tool uses, and stops it and drops the database whatever happens.
 */
export async function withSameWorkServer<R>(work: (anchor: { url: string; meter: Meter }) => Promise<R>): Promise<R> {
  const database = await createTestDatabase();
  if (!database.url) throw new Error('The same-work anchors need PostgreSQL (TEST_DB=postgres, the default).');
  const { env, meter } = metered('same-work');
  try {
    return await withChild<{ url: string }, R>(
      'same-work-server.ts',
      (anchor) => work({ url: anchor.info.url, meter }),
      { BENCH_METER_SOCKET: env.BENCH_METER_SOCKET!, DATABASE_URL: database.url },
    );
  } finally {
    await database.drop();
  }
}

/** Runs `work` beside bench/<script> in its own process, and stops that process whatever happens. */
export async function withChild<T, R>(
  script: string,
  work: (child: Child<T>) => Promise<R>,
  env: Record<string, string> = {},
): Promise<R> {
  const started = await startChild<T>(script, [], env);
  try {
    return await work(started);
  } finally {
    await started.stop();
  }
}

export interface Comparison {
  throughput: LoadResult;
  paced: LoadResult;
  /** What one operation of the throughput phase cost the metered process. */
  cost: Cost;
}

/**
 * A short warm-up, then `count` operations as fast as `concurrency` clients go (their cost read from the
 * process's meter), then `count` at a fixed rate.
 */
export async function throughputAndLatency(
  one: (i: number) => Promise<void>,
  options: { count: number; concurrency: number; rate: number; name: string },
  meter: Meter,
): Promise<Comparison> {
  await closedLoop(Math.max(20, Math.round(options.count / 10)), 10, one);
  const { result: throughput, cost } = await meter.costOf(
    () => closedLoop(options.count, options.concurrency, one),
    options.name,
  );
  const paced = await fixedRate(options.count, options.rate, one);
  return { throughput, paced, cost };
}

/** An anchor beside the tool: its name in the table ("bare route", "same work"), and the ratio the tool should reach. */
export interface AnchorRun {
  name: string;
  result: Comparison;
  goal?: string;
}

const both = (r: LoadResult) => `${ms(percentile(r.latencies, 50))} / ${ms(percentile(r.latencies, 99))}${failures(r)}`;

/**
 * Per anchor, two rows: throughput (with the cost columns, the anchor's CPU beside the tool's), and p50 / p99 at
 * the fixed rate; the ratio of a latency row is the tool's p99 over the anchor's.
 */
export function comparisonRows(
  label: { throughput: string; rate: number; unit: string },
  tool: Comparison,
  anchors: AnchorRun[],
  goals: { p99?: string } = {},
): Row[] {
  const rate = (r: LoadResult) => r.done / r.seconds;
  const p99 = (r: LoadResult) => percentile(r.latencies, 99);
  return [
    ...anchors.map(({ name, result, goal }): Row => ({
      what: `${label.throughput}, beside the ${name}`,
      figure: `${perSecond(rate(tool.throughput))}${failures(tool.throughput)}`,
      anchor: `${perSecond(rate(result.throughput))}${failures(result.throughput)}`,
      ratio: ratio(rate(tool.throughput) / rate(result.throughput)),
      ...(goal ? { goal } : {}),
      cost: { ...tool.cost, anchorCpuMs: result.cost.cpuMs, anchorName: name },
    })),
    ...anchors.map(({ name, result }): Row => ({
      what: `${label.unit} latency p50 / p99 at ${label.rate}/s, beside the ${name}`,
      figure: both(tool.paced),
      anchor: both(result.paced),
      ratio: ratio(p99(tool.paced) / p99(result.paced)),
      ...(goals.p99 ? { goal: goals.p99 } : {}),
    })),
  ];
}

/**
 * Latency at half the rate the tool sustained (`sustained`, its throughput phase; so neither side queues): p50 and p99 of the tool, then of each
 * anchor at the same rate, for ten seconds (scaled); a row per anchor.
 */
export async function halfLoadRows(
  unit: string,
  sustained: LoadResult,
  toolOne: (i: number) => Promise<void>,
  anchors: Array<{ name: string; one: (i: number) => Promise<void> }>,
  goal?: string,
): Promise<Row[]> {
  const rate = Math.max(1, Math.floor(sustained.done / sustained.seconds / 2));
  const count = Math.max(50, Math.round(rate * 10 * SCALE));
  const mine = await fixedRate(count, rate, toolOne);
  const rows: Row[] = [];
  for (const anchor of anchors) {
    const theirs = await fixedRate(count, rate, anchor.one);
    rows.push({
      what: `${unit} latency p50 / p99 at ${rate}/s (half the throughput), beside the ${anchor.name}`,
      figure: both(mine),
      anchor: both(theirs),
      ratio: ratio(percentile(mine.latencies, 99) / percentile(theirs.latencies, 99)),
      ...(goal ? { goal } : {}),
    });
  }
  return rows;
}
