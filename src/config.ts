// Every setting of the tool comes from the environment, parsed here once. Nothing else reads process.env.
// Two steps: `parseConfig` reads the environment and changes nothing (the type `Settings` is inferred from its
// schema); `provideSecrets` then reads, or outside production generates once, the secrets kept in DATA_DIR.
// `loadConfig` is both, for start-up.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { parseCidr } from './lti/platform-http.js';
import { isLoopbackName, LOOPBACK_HOSTS } from './loopback.js';

export class ConfigError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`Configuration error in ${variable}: ${detail}`);
    this.name = 'ConfigError';
  }
}

const MIN_KEY_LENGTH = 32;
const KEY_FILE = 'encryption.key';
const CALLBACK_FILE = 'callback.secret';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const postgresUrl = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
    } catch {
      return false;
    }
  },
  { message: 'must be a URL like postgres://user:password@host:5432/database' },
);

const environment = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('development')),
  HOST: optionalString,
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  PUBLIC_URL: optionalString,
  DATABASE_URL: z.preprocess(emptyToUndefined, postgresUrl.optional()),
  DATABASE_POOL_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(200).default(10)),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  ENCRYPTION_KEY: z.preprocess(emptyToUndefined, z.string().min(MIN_KEY_LENGTH, `must be at least ${MIN_KEY_LENGTH} characters long`).optional()),
  ROLE: z.preprocess(emptyToUndefined, z.enum(['all', 'web', 'worker']).default('all')),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  SHUTDOWN_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(600_000).default(10_000)),
  DYNAMIC_REGISTRATION: z.preprocess(emptyToUndefined, z.enum(['open', 'approve', 'off']).optional()),
  TOOL_NAME: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(100).default('Originality check')),
  CHECKER_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  CHECKER_USERNAME: optionalString,
  CHECKER_PASSWORD: optionalString,
  CHECKER_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(600_000).default(30_000)),
  ASSET_DOWNLOAD_TIMEOUT_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3600).default(120)),
  ASSET_DOWNLOAD_MIN_KB_PER_SECOND: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(100_000).default(4)),
  ASSET_DOWNLOAD_RATE_WINDOW_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(0.5).max(3600).default(15)),
  CALLBACK_SECRET: z.preprocess(emptyToUndefined, z.string().regex(/^[A-Za-z0-9_-]{24,128}$/, 'must be 24 to 128 letters, digits, - or _').optional()),
  SANDBOX_DELAY_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(3_600_000).default(5000)),
  JOB_POLLING_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(0.5).max(60).default(2)),
  JOB_RETRY_DELAY_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3600).default(30)),
  JOB_RETRY_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(100).default(12)),
  JOB_EXPIRE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(5).max(3600).default(300)),
  JOB_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(50).default(4)),
  REGISTRATIONS_PER_ADDRESS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(5)),
  DEV_PLATFORM: z.preprocess(emptyToUndefined, z.enum(['on', 'off', 'loopback']).optional()),
  ASSET_PROCESSOR: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('off')),
  ASSET_PROCESSOR_EULA: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('off')),
  /** The terms themselves (plain text), or the http(s) address of the page that has them. */
  ASSET_PROCESSOR_EULA_TERMS: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(20_000).optional()),
  CONCURRENT_LAUNCHES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).optional()),
  CONCURRENT_UPLOADS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).optional()),
  CONCURRENT_CALLBACKS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).optional()),
  CONCURRENT_PAGES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).optional()),
  CONCURRENT_NOTICES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).optional()),
  HTTP_HEADERS_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(600_000).default(20_000)),
  HTTP_REQUEST_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(3_600_000).default(300_000)),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(600_000).default(5000)),
  UPLOAD_IDLE_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(600_000).default(30_000)),
  ADMIN_TOKEN: z.preprocess(emptyToUndefined, z.string().min(24, 'must be at least 24 characters').max(256).optional()),
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().regex(/^[\x21-\x7e]{24,256}$/, 'must be 24 to 256 printable characters without spaces').optional()),
  // `none`, or CIDRs separated by commas; the rules they relax are in src/lti/platform-http.ts.
  PLATFORM_PRIVATE_NETWORKS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((value) => (value.trim() === 'none' ? [] : value.split(',').map((cidr) => cidr.trim())))
      .refine(
        (list) => list.every((cidr) => parseCidr(cidr) !== null),
        'must be `none` or networks in CIDR form separated by commas, e.g. 10.20.0.0/16,fd00:1::/64',
      )
      .optional(),
  ),
  POLL_SCHEDULE_SECONDS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d+(,\d+)*$/, 'must be a comma-separated list of whole seconds, e.g. 60,120,300,600,1800')
      .transform((value) => value.split(',').map(Number))
      .refine((list) => list.every((n) => n >= 1), 'each interval must be at least 1 second')
      .optional(),
  ),
});

/** Variables whose value never appears in a message: secrets, and a URL that may hold a password. */
const HIDDEN = new Set(['DATABASE_URL', 'ENCRYPTION_KEY', 'CHECKER_PASSWORD', 'CALLBACK_SECRET', 'ADMIN_TOKEN', 'METRICS_TOKEN']);

/** What to do about a refused secret. */
const HINTS: Record<string, string> = {
  ENCRYPTION_KEY: 'generate one with: openssl rand -hex 32',
  CALLBACK_SECRET: 'generate one with: openssl rand -hex 24',
};

/** Turns zod's first complaint into one sentence that names the variable. */
function describeIssue(issue: z.core.$ZodIssue, env: Record<string, string | undefined>): ConfigError {
  const variable = String(issue.path[0] ?? 'environment');
  const given = env[variable];
  const hint = HINTS[variable] ? `; ${HINTS[variable]}` : '';
  if (given === undefined || given === '') return new ConfigError(variable, `${issue.message}${hint}`);
  const shown = HIDDEN.has(variable) ? `${given.length} characters, not shown` : JSON.stringify(given);
  return new ConfigError(variable, `${issue.message} (given ${shown})${hint}.`);
}

type Refuse = (variable: string, message: string) => never;
/** Stops the parse at a setting that is wrong given the others: zod passes an error thrown in a transform on. */
const refuse: Refuse = (variable, message) => {
  throw new ConfigError(variable, message);
};

/** PUBLIC_URL as the tool writes it into links (no trailing slash), or the local default outside production. */
function publicUrlOf(raw: string | undefined, production: boolean, port: number, refuse: Refuse): string {
  if (raw === undefined) {
    if (production) refuse('PUBLIC_URL', 'is required in production (the https address of the tool).');
    return `http://localhost:${port}`;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('PUBLIC_URL', 'must be an absolute URL such as https://lti.example.edu');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') refuse('PUBLIC_URL', 'must start with https://');
  if (url.search || url.hash) refuse('PUBLIC_URL', 'must not carry a query string or fragment.');
  if (production && url.protocol !== 'https:') refuse('PUBLIC_URL', 'must use https in production: LMS platforms only launch tools over HTTPS.');
  return url.toString().replace(/\/+$/, '');
}

/** HOST as given (`localhost` meaning both loopback addresses), or the default for the environment. */
function listenHostsFor(host: string | undefined, production: boolean): string[] {
  if (host === undefined) return production ? ['0.0.0.0'] : [...LOOPBACK_HOSTS];
  if (host.toLowerCase() === 'localhost') return [...LOOPBACK_HOSTS];
  return [host];
}

/** ASSET_PROCESSOR_EULA=on with its terms: a text, or the address of a page (an http(s) URL and nothing else). */
function assetProcessorEulaOf(values: { ASSET_PROCESSOR: 'on' | 'off'; ASSET_PROCESSOR_EULA: 'on' | 'off'; ASSET_PROCESSOR_EULA_TERMS?: string | undefined }, refuse: Refuse): { text: string } | { url: string } | null {
  if (values.ASSET_PROCESSOR_EULA === 'off') return null;
  if (values.ASSET_PROCESSOR === 'off') refuse('ASSET_PROCESSOR_EULA', 'needs ASSET_PROCESSOR=on: the terms are the Asset Processor\'s.');
  const terms = values.ASSET_PROCESSOR_EULA_TERMS;
  if (terms === undefined) return refuse('ASSET_PROCESSOR_EULA_TERMS', 'is required with ASSET_PROCESSOR_EULA=on: the terms as text, or the https address of the page that has them.');
  return /^https?:\/\/\S+$/.test(terms) && URL.canParse(terms) ? { url: terms } : { text: terms };
}

/** The environment's variables checked together, as the settings the rest of the tool reads. */
const settingsSchema = environment.transform((values) => {
  const production = values.NODE_ENV === 'production';
  const publicUrl = publicUrlOf(values.PUBLIC_URL, production, values.PORT, refuse);
  if (values.ROLE !== 'all' && values.DATABASE_URL === undefined) {
    refuse('DATABASE_URL', `is required with ROLE=${values.ROLE}: separate web and worker processes share one PostgreSQL database (the embedded database serves a single process).`);
  }
  if (production && values.ENCRYPTION_KEY === undefined) refuse('ENCRYPTION_KEY', `is required in production; ${HINTS.ENCRYPTION_KEY}`);
  if (production && values.CALLBACK_SECRET === undefined) refuse('CALLBACK_SECRET', `is required in production; ${HINTS.CALLBACK_SECRET}`);
  if (values.CHECKER_URL && (!values.CHECKER_USERNAME || !values.CHECKER_PASSWORD)) {
    refuse(values.CHECKER_USERNAME ? 'CHECKER_PASSWORD' : 'CHECKER_USERNAME', 'is required when CHECKER_URL is set (the default service account).');
  }
  if (values.ROLE !== 'all' && !values.CHECKER_URL) {
    refuse('CHECKER_URL', `is required with ROLE=${values.ROLE}: separate processes must share one checking service (an in-process sandbox belongs to one process; run \`npm run sandbox\` and point CHECKER_URL at it).`);
  }
  if (production && !values.CHECKER_URL) refuse('CHECKER_URL', 'is required in production: the address of the checking service (the sandbox is for trying the tool).');
  if (values.HTTP_HEADERS_TIMEOUT_MS > values.HTTP_REQUEST_TIMEOUT_MS) {
    refuse('HTTP_HEADERS_TIMEOUT_MS', `must not exceed HTTP_REQUEST_TIMEOUT_MS (${values.HTTP_REQUEST_TIMEOUT_MS}): the headers are part of the request.`);
  }
  const listenHosts = listenHostsFor(values.HOST, production);
  // Behind a reverse proxy on the same machine the tool listens on loopback, yet the world reaches it through
  // PUBLIC_URL: only when both name this machine is the instance private.
  const loopbackOnly = !production && listenHosts.every(isLoopbackName) && isLoopbackName(new URL(publicUrl).hostname.replace(/^\[|\]$/g, ''));
  // Every in-flight request may hold a database connection; a few per connection keep it busy without a queue
  // long enough to push p99 past seconds. Uploads and pages spend most of their time on the network, so more.
  const pool = values.DATABASE_POOL_SIZE;
  return {
    nodeEnv: values.NODE_ENV,
    production,
    /** The addresses the HTTP server listens on: HOST, or else loopback (127.0.0.1 and ::1) outside production and
     * every interface in production. */
    listenHosts,
    /** Nobody off this machine can reach the tool: it listens on loopback only and PUBLIC_URL names this machine. */
    loopbackOnly,
    port: values.PORT,
    /** The address people and platforms use to reach the tool, without a trailing slash. */
    publicUrl,
    /** PostgreSQL connection string; null means the embedded PGlite database in dataDir. */
    databaseUrl: values.DATABASE_URL ?? null,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    dataDir: resolve(values.DATA_DIR),
    role: values.ROLE,
    logLevel: values.LOG_LEVEL,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    /** open: platforms registered dynamically can launch at once; approve: an administrator switches them on; off.
     * 'open' lets anyone who reaches /lti/register add a platform that can launch at once: only for a private instance. */
    dynamicRegistration: values.DYNAMIC_REGISTRATION ?? (loopbackOnly ? 'open' : 'approve'),
    /** Dynamic registrations one source address may start in ten minutes (each makes the tool call the LMS it names). */
    registrationsPerAddress: values.REGISTRATIONS_PER_ADDRESS,
    /** The dev platform at /dev: 'loopback' answers clients on this machine only, 'on' anyone, 'off' is not mounted
     * (always 'off' in production, whatever DEV_PLATFORM says). */
    devPlatform: production ? 'off' : (values.DEV_PLATFORM ?? 'loopback'),
    /** DEV_PLATFORM as given, so start-up can say when production ignored it. */
    devPlatformRequested: values.DEV_PLATFORM ?? null,
    /** The tool offers itself to LMSs as an LTI Asset Processor: registration asks for its placement, messages and
     * scopes, and a deep-linking launch that accepts a processor attaches one. Off: neither. */
    assetProcessor: values.ASSET_PROCESSOR === 'on',
    /** The Asset Processor's terms (EULA), which each user accepts once per deployment before their files are
     * checked (src/assetprocessor/eula.ts); null: the tool has none, and registration does not ask for the EULA. */
    assetProcessorEula: assetProcessorEulaOf(values, refuse),
    /** The deadline of one download of an LMS's file (its token included); a download past it is tried again later. */
    assetDownloadTimeoutMs: values.ASSET_DOWNLOAD_TIMEOUT_SECONDS * 1000,
    /** A download is cut off when fewer than this many bytes arrived in the last window (null: never; the deadline
     * still holds): an LMS that trickles its files holds one of the places every LMS's files share. */
    assetDownloadMinRate:
      values.ASSET_DOWNLOAD_MIN_KB_PER_SECOND === 0
        ? null
        : { bytes: Math.round(values.ASSET_DOWNLOAD_MIN_KB_PER_SECOND * 1024 * values.ASSET_DOWNLOAD_RATE_WINDOW_SECONDS), windowMs: values.ASSET_DOWNLOAD_RATE_WINDOW_SECONDS * 1000 },
    /** Requests of each class one process works on at once; the excess is answered 503 at once (src/web/admission.ts). */
    admission: {
      launch: values.CONCURRENT_LAUNCHES ?? 2 * pool,
      upload: values.CONCURRENT_UPLOADS ?? 4 * pool,
      callback: values.CONCURRENT_CALLBACKS ?? 4 * pool,
      pages: values.CONCURRENT_PAGES ?? 4 * pool,
      // Canvas never sends a refused notice again, so this class is sized for the largest burst rather than for the
      // pool: a notice holds a connection for one short transaction, and 16 per pool connection wait at most a few
      // hundred milliseconds for one (docs/operations.md says how to size it).
      notices: values.CONCURRENT_NOTICES ?? Math.max(64, 16 * pool),
    },
    /** HTTP server limits against slow clients: whole headers, whole request, idle keep-alive, and an upload's body
     * sending nothing. */
    http: {
      headersTimeoutMs: values.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: values.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: values.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      uploadIdleTimeoutMs: values.UPLOAD_IDLE_TIMEOUT_MS,
    },
    /** The tool's name as LMS administrators and instructors see it. */
    toolName: values.TOOL_NAME,
    /** The default service account; null URL: the sandbox runs in-process and stands in for the service. */
    checker: { url: values.CHECKER_URL ?? null, username: values.CHECKER_USERNAME ?? null, password: values.CHECKER_PASSWORD ?? null },
    /** How long a call to the checking service may wait for its answer's headers, and then between its body's bytes. */
    checkerTimeoutMs: values.CHECKER_TIMEOUT_MS,
    /** Seconds between polls of a paper still being analysed; the last value repeats. */
    pollScheduleSeconds: values.POLL_SCHEDULE_SECONDS ?? [60, 120, 300, 600, 1800],
    /** Opens the admin page without an LMS launch (bootstrap); null: only platform administrators. */
    adminToken: values.ADMIN_TOKEN ?? null,
    /** Opens /metrics to scrapers off this machine that send it as a bearer token; null: this machine only. */
    metricsToken: values.METRICS_TOKEN ?? null,
    /** How long the in-process sandbox takes to analyse a paper (the real service: 10 to 15 minutes). */
    sandboxDelayMs: values.SANDBOX_DELAY_MS,
    /** Private networks (CIDRs) platforms may be reached in; the rest of private address space is refused.
     * A private instance talks to platforms on loopback (the dev platform at http://localhost:PORT/dev, the tests'
     * on 127.0.0.1). Once strangers can reach the tool (production, or a HOST or PUBLIC_URL off this machine), a
     * loopback address named by a platform is an attack on the tool's host: nothing is allowed there unless the
     * administrator lists it. */
    platformPrivateNetworks: values.PLATFORM_PRIVATE_NETWORKS ?? (loopbackOnly ? ['127.0.0.0/8', '::1/128'] : []),
    jobs: { pollingIntervalSeconds: values.JOB_POLLING_SECONDS, retryDelaySeconds: values.JOB_RETRY_DELAY_SECONDS, retryLimit: values.JOB_RETRY_LIMIT, expireSeconds: values.JOB_EXPIRE_SECONDS, concurrency: values.JOB_CONCURRENCY },
    /** The secrets as the environment gave them (null: kept in DATA_DIR, see provideSecrets). */
    givenSecrets: { encryptionKey: values.ENCRYPTION_KEY ?? null, callbackSecret: values.CALLBACK_SECRET ?? null },
  };
});

/** The tool's settings, without the secrets kept in DATA_DIR. */
export type Settings = z.output<typeof settingsSchema>;

/** Reads the environment; writes nothing. Throws a ConfigError naming the first variable that is wrong. */
export function parseConfig(env: Record<string, string | undefined> = process.env): Settings {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) throw describeIssue(parsed.error.issues[0]!, env);
  return parsed.data;
}

/** A secret from the environment, or else (outside production) the one generated once into DATA_DIR. */
function keptSecret(dataDir: string, fileName: string, bytes: number): { value: string; generated: boolean } {
  const file = join(dataDir, fileName);
  if (existsSync(file)) return { value: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const value = randomBytes(bytes).toString('hex');
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { value, generated: true };
}

/**
 * The start-up step that completes the settings with their secrets: the encryption key and the callback secret
 * from the environment, or else (outside production; parseConfig has refused production without them) the ones
 * kept in DATA_DIR, generated there on the first start.
 */
export function provideSecrets(settings: Settings) {
  const { givenSecrets, ...rest } = settings;
  let encryptionKey = givenSecrets.encryptionKey;
  let encryptionKeySource: 'environment' | 'generated' | 'data-dir' = 'environment';
  if (encryptionKey === null) {
    const kept = keptSecret(settings.dataDir, KEY_FILE, 32);
    if (kept.value.length < MIN_KEY_LENGTH) {
      throw new ConfigError('ENCRYPTION_KEY', `the key stored in ${join(settings.dataDir, KEY_FILE)} is too short; remove the file to generate a new one.`);
    }
    encryptionKey = kept.value;
    encryptionKeySource = kept.generated ? 'generated' : 'data-dir';
  }
  const callbackSecret = givenSecrets.callbackSecret ?? keptSecret(settings.dataDir, CALLBACK_FILE, 24).value;
  return {
    ...rest,
    encryptionKey,
    /** Where the key came from, so start-up can say so (never the key itself). */
    encryptionKeySource,
    /** The secret path segment of the callback URL given to the service operator. */
    callbackSecret,
  };
}

/** Every setting of the tool, secrets included. */
export type Config = ReturnType<typeof provideSecrets>;
export type Role = Config['role'];

/** Start-up's reading of the configuration: the environment parsed, then the secrets provided. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return provideSecrets(parseConfig(env));
}
