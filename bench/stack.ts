// A whole installation for a benchmark: the tool as its own process (`node --import tsx src/main.ts`) on a fresh
// PostgreSQL database or embedded PGlite, the sandbox in this process standing in for the checking service, and
// the dev platform in a third process, registered through the CLI. An instructor has placed the essay and
// saved its settings; students launch and submit over HTTP, as browsers would.
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { FormData, request } from 'undici';
import { launch } from '../src/devplatform/agent.js';
import { DEMO_USER, startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/index.js';
import { createTestDatabase, type TestDatabase } from '../test/support/db.js';
import { registerWithCli } from '../test/support/platform.js';
import { startToolProcess, type ToolEntry, type ToolProcess } from '../test/support/process.js';
import { freePort } from '../test/support/tool.js';
import { closedLoop, failures, metered, startChild, type Child, type Meter } from './lib.js';
import {
  USER_PLACEHOLDER,
  type AssetReportSummary,
  type GradeSummary,
  type NoticeSent,
  type PlatformInfo,
} from './platform-process.js';

export interface StackOptions {
  backend: 'postgres' | 'pglite';
  role: 'all' | 'web';
  /** Students the platform knows: student-1 … student-N. */
  students: number;
  sandbox?: Omit<SandboxOptions, 'callbackUrl'>;
  /** More of the tool's environment (job timing, poll schedule, log level). */
  env?: Record<string, string>;
  /**
   * Admission limits as high as this (UNLIMITED: every request of the load), so that the benchmark measures how
   * fast the tool works and how its queue grows past that, rather than how it refuses (bench/overload.ts measures
   * the default limits).
   */
  admit?: number;
  /** The LMS the platform plays: the dev platform's default, or Moodle with this repository's plugins. */
  lms?: 'moodle';
  /** PostgreSQL: the jobs run in a ROLE=worker process of their own, so that the metered process is the web side. */
  separateWorker?: boolean;
}

/**
 * The tool runs built (dist/, as `npm start` and a production deployment run it; bench/run.ts builds it first), or
 * from its sources through tsx with BENCH_TOOL_ENTRY=source.
 */
const ENTRY: ToolEntry = process.env.BENCH_TOOL_ENTRY === 'source' ? 'source' : 'built';

/** Admission limits no benchmark's load reaches. */
export const UNLIMITED = 10_000;

export interface RemotePlatform {
  loginInitiationUrl(options: { userId: string }): string;
  grades(): Promise<GradeSummary>;
  /** The instructor attaches the tool to the LMS's own assignment as its Asset Processor (ASSET_PROCESSOR=on). */
  attach(activity: { id: string; title: string }): Promise<void>;
  /** Moodle: the teacher switches the check on in the assignment's own form; the first notice attaches the tool. */
  switchOn(activity: { id: string }): Promise<void>;
  /** A student's file submitted to that assignment; the platform sends its notice and times the tool's answer. */
  submitToActivity(submission: {
    activityId: string;
    userId: string;
    filename: string;
    text: string;
  }): Promise<NoticeSent>;
  /** A submission's notice sent again: the same submission and assets, a new notice id. */
  resend(submissionId: string): Promise<NoticeSent>;
  assetReports(): Promise<AssetReportSummary>;
  /** The dev platform's faults (its Asset Service failing, say), as a test switches them. */
  setFaults(faults: Record<string, unknown>): Promise<void>;
  /** When each asset's first report of each progress arrived (ms since the epoch), by asset id. */
  reportTimes(): Promise<Record<string, Record<string, number>>>;
}

export interface Receipt {
  submissionId: string;
  state: string;
}

export interface Stack {
  url: string;
  tool: ToolProcess;
  /** With `separateWorker`: the ROLE=worker process. */
  worker: ToolProcess | null;
  sandbox: Sandbox;
  platform: RemotePlatform;
  callbackUrl: string;
  /** The essay's path in the tool, e.g. /assignments/<id>. */
  assignmentPath: string;
  /** PostgreSQL only: a pool on the tool's database, to read what happened. */
  pool: pg.Pool | null;
  /** The tool's DATA_DIR (the embedded database lives in it). */
  dataDir: string;
  /** The tool process's counters: SQL statements, commits, CPU time (bench/meter.mjs). */
  meter: Meter;
  launchStudents(first: number, count: number, concurrency?: number): Promise<string[]>;
  submit(ltik: string, fileName: string, content: string | Buffer): Promise<Receipt>;
  close(): Promise<void>;
}

/** Changes an instructor makes to the essay's settings: student-paper comparison off, so that the sandbox does not
 * compare every paper with every earlier one (its cost, not the tool's), plain text allowed, as many attempts as
 * the form allows, each kept at the service (a student's next paper deletes none of theirs there, as before the
 * setting existed, so the figures stay comparable). `false` unticks a box. */
const SETTINGS: Record<string, string | false> = {
  studentPapers: false,
  institutionRepository: false,
  allowedFileTypes: 'txt',
  resubmission: 'any-time',
  maxAttempts: '50',
  earlierAttempts: 'keep',
};

/** The fields a browser would send for the page's first form as it stands: ticked boxes, chosen options, texts. */
function formValues(html: string): URLSearchParams {
  const form = html.slice(html.indexOf('<form'), html.indexOf('</form>'));
  const decode = (text: string) =>
    text
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const attributes = (tag: string) =>
    Object.fromEntries([...tag.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map((m) => [m[1]!, decode(m[2] ?? '')]));
  const values = new URLSearchParams();
  for (const [tag] of form.matchAll(/<input[^>]*>/g)) {
    const a = attributes(tag);
    if (!a.name || ((a.type === 'checkbox' || a.type === 'radio') && !('checked' in a))) continue;
    values.append(a.name, 'value' in a ? a.value! : a.type === 'checkbox' ? 'on' : '');
  }
  for (const [, tag, options] of form.matchAll(/(<select[^>]*>)([\s\S]*?)<\/select>/g)) {
    const chosen = [...options!.matchAll(/<option[^>]*>/g)]
      .map(([option]) => attributes(option))
      .find((o) => 'selected' in o);
    if (chosen) values.append(attributes(tag!).name!, chosen.value!);
  }
  for (const [, tag, text] of form.matchAll(/(<textarea[^>]*>)([\s\S]*?)<\/textarea>/g))
    values.append(attributes(tag!).name!, decode(text!));
  return values;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const cleanups: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    let database: TestDatabase | null = null;
    let dataDir: string;
    if (options.backend === 'postgres') {
      database = await createTestDatabase();
      const created = database;
      cleanups.push(() => created.drop());
      dataDir = created.dataDir;
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'olti-bench-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      dataDir = dir;
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const secret = randomBytes(18).toString('hex');
    const callbackUrl = `${url}/checker/callback/${secret}`;
    const sandbox = await startSandbox({ ...options.sandbox, callbackUrl });
    cleanups.push(() => sandbox.close());

    const toolMeter = metered('tool');
    const base = {
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: randomBytes(24).toString('hex'),
      ...(database?.url ? { DATABASE_URL: database.url } : {}),
    };
    const shared = {
      ...base,
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      CALLBACK_SECRET: secret,
      CHECKER_URL: sandbox.url,
      CHECKER_USERNAME: DEMO_USER.email,
      CHECKER_PASSWORD: DEMO_USER.password,
      ...options.env,
    };
    let worker: ToolProcess | null = null;
    if (options.separateWorker) {
      const started = await startToolProcess({ ...shared, ROLE: 'worker' }, { entry: ENTRY });
      cleanups.push(() => started.stop());
      worker = started;
    }
    const tool = await startToolProcess(
      {
        ...shared,
        PORT: String(port),
        ROLE: options.separateWorker ? 'web' : options.role,
        ...(options.admit
          ? Object.fromEntries(
              ['CONCURRENT_LAUNCHES', 'CONCURRENT_UPLOADS', 'CONCURRENT_CALLBACKS', 'CONCURRENT_PAGES'].map((name) => [
                name,
                String(options.admit),
              ]),
            )
          : {}),
        BENCH_METER_SOCKET: toolMeter.env.BENCH_METER_SOCKET!,
        // BENCH_TOOL_NODE_OPTIONS: more Node options for the tool's process (a smaller heap, say).
        NODE_OPTIONS: `${toolMeter.env.NODE_OPTIONS} ${process.env.BENCH_TOOL_NODE_OPTIONS ?? ''}`.trim(),
      },
      { entry: ENTRY },
    );
    cleanups.push(async () => {
      await tool.stop();
      // BENCH_TOOL_LOG=FILE keeps what the tool's process logged (each stack appends its own).
      if (process.env.BENCH_TOOL_LOG) appendFileSync(process.env.BENCH_TOOL_LOG, tool.output());
    });

    const platformChild: Child<PlatformInfo> = await startChild<PlatformInfo>('platform-process.ts', [
      url,
      String(options.students),
      ...(options.lms ? [options.lms] : []),
    ]);
    cleanups.push(() => platformChild.stop());
    const info = platformChild.info;
    await registerWithCli(base, info.registration);
    const control = async <T>(path: string, body?: unknown): Promise<T> => {
      const answer = await request(
        `${info.controlUrl}/${path}`,
        body === undefined
          ? {}
          : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
      );
      const json = (await answer.body.json()) as T & { error?: string };
      if (answer.statusCode !== 200)
        throw new Error(`the platform's /control/${path} answered ${answer.statusCode}: ${json.error}`);
      return json;
    };
    const platform: RemotePlatform = {
      loginInitiationUrl: ({ userId }) => info.loginTemplate.replace(USER_PLACEHOLDER, encodeURIComponent(userId)),
      grades: () => control<GradeSummary>('grades'),
      attach: async (activity) => void (await control('attach', activity)),
      switchOn: async (activity) => void (await control('switch-on', activity)),
      submitToActivity: (submission) => control<NoticeSent>('submit', submission),
      resend: (submissionId) => control<NoticeSent>('resend', { submissionId }),
      assetReports: () => control<AssetReportSummary>('asset-reports'),
      setFaults: async (faults) => void (await control('faults', faults)),
      reportTimes: () => control<Record<string, Record<string, number>>>('report-times'),
    };

    const instructor = await launch(platform, { userId: 'instructor-1' });
    if (instructor.status !== 200 || !instructor.ltik)
      throw new Error(`The instructor's launch failed (${instructor.status})`);
    const assignmentPath = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');
    const settingsPage = await request(`${url}${assignmentPath}/settings?ltik=${encodeURIComponent(instructor.ltik)}`);
    const form = formValues(await settingsPage.body.text());
    for (const [name, value] of Object.entries(SETTINGS)) {
      form.delete(name);
      if (value !== false) form.append(name, value);
    }
    const saved = await request(`${url}${assignmentPath}/settings`, {
      method: 'POST',
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const page = await saved.body.text();
    if (saved.statusCode !== 303)
      throw new Error(
        `Saving the settings answered ${saved.statusCode}: ${page
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .slice(0, 600)}`,
      );

    const pool = database?.url ? new pg.Pool({ connectionString: database.url, max: 2 }) : null;
    if (pool) cleanups.splice(1, 0, () => pool.end());

    return {
      url,
      tool,
      worker,
      sandbox,
      platform,
      callbackUrl,
      assignmentPath,
      pool,
      dataDir,
      meter: toolMeter.meter,
      async launchStudents(first, count, concurrency = 20) {
        const ltiks: string[] = new Array(count);
        const result = await closedLoop(count, concurrency, async (i) => {
          const launched = await launch(platform, { userId: `student-${first + i}` });
          if (launched.status !== 200 || !launched.ltik) throw new Error(`launch answered ${launched.status}`);
          ltiks[i] = launched.ltik;
        });
        if (result.failed > 0) throw new Error(`Student launches failed${failures(result)}`);
        return ltiks;
      },
      async submit(ltik, fileName, content) {
        const body = new FormData();
        body.append('file', new Blob([content]), fileName);
        const response = await request(`${url}${assignmentPath}/submissions`, {
          method: 'POST',
          body,
          headers: { authorization: `Bearer ${ltik}`, accept: 'application/json' },
        });
        const answer = (await response.body.json()) as Receipt & { error?: string };
        if (response.statusCode !== 201)
          throw new Error(`submission answered ${response.statusCode}: ${answer.error ?? JSON.stringify(answer)}`);
        return answer;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A short essay of its own for each student: distinct text, about 1.5 KB. */
export function essay(n: number): string {
  return Array.from(
    { length: 20 },
    (_, i) => `Student ${n} writes sentence ${i} on topic ${(n * 31 + i * 7) % 997} with evidence ${n * i}.`,
  ).join(' ');
}
