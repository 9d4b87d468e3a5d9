// Every setting of the tool comes from the environment, parsed here once. Nothing else reads process.env.
// Two steps: `parseConfig` reads the environment and changes nothing (the type `Settings` is inferred from its
// schema); `provideSecrets` then reads, or outside production generates once, the secrets kept in DATA_DIR.
// `loadConfig` is both, for start-up.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { plain, readSchema } from './words.js';
import { parseCidr } from './cidr.js';
import { isLoopbackName, LOOPBACK_HOSTS } from './loopback.js';
import { nearMiss } from './near-miss.js';

/** One setting that is wrong, in a sentence that begins with its name and says what it must be. */
export interface ConfigProblem {
  variable: string;
  sentence: string;
}

/** Every setting that is wrong, found at once: a start lists them all rather than one per restart. */
export class ConfigError extends Error {
  /** The first setting named. */
  readonly variable: string;
  constructor(readonly problems: ConfigProblem[]) {
    super(
      problems.length === 1
        ? problems[0]!.sentence
        : `${problems.length} settings need attention:\n${problems.map((problem) => `  - ${problem.sentence}`).join('\n')}`,
    );
    this.variable = problems[0]!.variable;
    this.name = 'ConfigError';
  }
}

const MIN_KEY_LENGTH = 32;
const KEY_FILE = 'encryption.key';
const CALLBACK_FILE = 'callback.secret';

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** Defaults that depend on other settings, named once for the settings and for their description. */
const DEFAULT_POLL_SCHEDULE_SECONDS = [60, 120, 300, 600, 1800];
const LOOPBACK_NETWORKS = ['127.0.0.0/8', '::1/128'];
/** `none`, or networks in CIDR form separated by commas (PLATFORM_PRIVATE_NETWORKS, TRUSTED_PROXIES). */
const networks = (example: string) =>
  z
    .string()
    .transform((value) => (value.trim() === 'none' ? [] : value.split(',').map((cidr) => cidr.trim())))
    .refine(
      (list) => list.every((cidr) => parseCidr(cidr) !== null),
      `must be \`none\` or networks in CIDR form separated by commas, e.g. ${example}`,
    )
    .optional();

/** Requests of each class in flight per database connection (see `admission` below). */
const ADMISSION_PER_CONNECTION = { launch: 2, upload: 4, callback: 4, pages: 4, notices: 16 };

const postgresUrl = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
    } catch {
      return false;
    }
  },
  { message: 'must be a PostgreSQL address' },
);

/**
 * What docs/configuration.md says of a setting, kept beside its schema; scripts/config-doc.ts writes the page from
 * these and from the schema's own default and limits (`npm run docs:config`, checked by test/config/config-doc.unit.test.ts).
 */
export interface SettingDoc {
  /** What the setting does, in markdown. */
  description: string;
  /** The default in words, only where the schema has none because it follows from other settings. */
  default?: string;
  /** The values taken, in words, only where the schema's limits (choices, range, length) do not say it all. */
  values?: string;
}
export const settingDocs = z.registry<SettingDoc>();

/** A variable of the environment (empty counts as unset), with what docs/configuration.md says of it. */
function setting<T extends z.ZodType>(schema: T, doc: SettingDoc) {
  const variable = z.preprocess(emptyToUndefined, schema);
  settingDocs.add(variable as z.ZodType, doc);
  return variable;
}

/** Every environment variable the tool reads, each with its description for docs/configuration.md. */
export const environment = z.object({
  NODE_ENV: setting(z.enum(['development', 'production', 'test']).default('development'), {
    description:
      '`production` requires `PUBLIC_URL` over https, `DATABASE_URL`, `ENCRYPTION_KEY`, `CALLBACK_SECRET` and `CHECKER_URL` with its account, lists every one missing or wrong at once, and never mounts the dev platform',
  }),
  HOST: setting(z.string().optional(), {
    description:
      'the address the HTTP server listens on; `localhost` means both loopback addresses. Set it (`0.0.0.0`, or an address of the machine) to serve other machines: dynamic registration then waits for approval, and `/dev` still answers this machine only unless `DEV_PLATFORM=on`',
    default: '`127.0.0.1` and `::1` (`0.0.0.0` in production)',
    values: 'an address of this machine, `0.0.0.0` or `localhost`',
  }),
  PORT: setting(z.coerce.number().int().min(0).max(65535).default(3000), {
    description: 'HTTP port (`0` picks a free one); each web process of an installation on one machine has its own',
    values: 'a port number from 1 to 65535, or 0 for any free one',
  }),
  PUBLIC_URL: setting(z.string().optional(), {
    description:
      'the address platforms and browsers use to reach the tool; the tool writes it into every link and address it gives out',
    default: '`http://localhost:$PORT` (required in production)',
    values: 'an absolute `https://` URL (or `http://` outside production) without query string or fragment',
  }),
  DATABASE_URL: setting(postgresUrl.optional(), {
    description:
      'the PostgreSQL database (15 or later); required with `ROLE=web` or `worker`. The embedded database is for trying the tool and for small single-process installs: it is one PostgreSQL backend inside the process and is not crash-durable',
    default: 'none: the embedded PGlite database in `DATA_DIR` (refused in production)',
    values: 'a PostgreSQL address such as `postgres://user:password@host:5432/database`',
  }),
  DATABASE_POOL_SIZE: setting(z.coerce.number().int().min(1).max(200).default(10), {
    description: 'database connections per process; the `CONCURRENT_*` limits follow it',
  }),
  DATA_DIR: setting(z.string().default('./data'), {
    description:
      "the embedded database, the generated encryption key and callback secret, and the in-process sandbox's folders and papers (`sandbox/`, one process at a time: a second without `CHECKER_URL` is refused). Received files wait in the database, so processes on PostgreSQL need no shared folder: each has its own ([Several processes](operations.md#several-processes))",
    values: 'a folder',
  }),
  ENCRYPTION_KEY: setting(
    z.string().min(MIN_KEY_LENGTH, `must be at least ${MIN_KEY_LENGTH} characters long`).optional(),
    {
      description:
        "encrypts the tool's private keys and the service passwords at rest, and signs sessions; generate one with `openssl rand -hex 32`. The same value in every process. Without it the key generated into `DATA_DIR` must be kept with the data",
      default: 'generated into `DATA_DIR/encryption.key` outside production (required in production)',
    },
  ),
  ROLE: setting(z.enum(['all', 'web', 'worker']).default('all'), {
    description:
      '`web` (HTTP), `worker` (background jobs; serves `/healthz`, `/readyz` and `/metrics` only) or `all` (both, one process); `web` and `worker` need `DATABASE_URL` and `CHECKER_URL`',
  }),
  LOG_LEVEL: setting(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'), {
    description: 'the least severe level written to the log (JSON lines on standard output)',
  }),
  SHUTDOWN_TIMEOUT_MS: setting(z.coerce.number().int().min(0).max(600_000).default(10_000), {
    description: 'how long SIGTERM waits for requests in flight (and a worker for its running jobs)',
  }),
  DYNAMIC_REGISTRATION: setting(z.enum(['open', 'approve', 'off']).optional(), {
    description:
      '`open`: an LMS that registers itself at `/lti/register` can launch at once (only for a private instance: anyone who reaches the address could add a platform); `approve`: the registration waits until an administrator switches it on (`npm run cli -- platform activate ID` or `/admin`); `off`: `/lti/register` registers nothing',
    default:
      '`open` when the tool is private (it listens on loopback only and `PUBLIC_URL` names this machine), `approve` otherwise and in production',
  }),
  TOOL_NAME: setting(z.string().trim().min(1).max(100).default('Originality check'), {
    description: "the tool's name as LMS administrators and instructors see it",
  }),
  CHECKER_URL: setting(z.string().url().optional(), {
    description:
      'base address of the checking service; required in production and with `ROLE=web` or `worker` (run `npm run sandbox` and point it there to try several processes)',
    default: 'none: the sandbox runs in-process and stands in for the service',
    values: 'a full address such as `https://checker.example.com`',
  }),
  CHECKER_USERNAME: setting(z.string().optional(), {
    description:
      "the default service account's user name, used by every platform that has no account of its own; required when `CHECKER_URL` is set",
  }),
  CHECKER_PASSWORD: setting(z.string().optional(), {
    description: "the default service account's password; required when `CHECKER_URL` is set",
  }),
  CHECKER_TIMEOUT_MS: setting(z.coerce.number().int().min(100).max(600_000).default(30_000), {
    description:
      "how long a call to the checking service waits for its answer's headers, and then between parts of its body, before it counts as lost",
  }),
  ASSET_DOWNLOAD_TIMEOUT_SECONDS: setting(z.coerce.number().int().min(1).max(3600).default(120), {
    description:
      "(`ASSET_PROCESSOR=on` only) how long one download of an LMS's file may take, its token included, before it counts as failed and is tried again (at most 4 tries, all within `ASSET_DOWNLOAD_GIVE_UP_SECONDS`)",
  }),
  ASSET_DOWNLOAD_GIVE_UP_SECONDS: setting(z.coerce.number().int().min(10).max(86_400).default(600), {
    description:
      '(`ASSET_PROCESSOR=on` only) every try to download one LMS file ends within this time of the first; then the LMS is told `Failed` / `DOWNLOAD_FAILED`, and SpeedGrader offers "Resubmit all files"',
  }),
  ASSET_DOWNLOAD_MIN_KB_PER_SECOND: setting(z.coerce.number().min(0).max(100_000).default(4), {
    description:
      "(`ASSET_PROCESSOR=on` only) a download of an LMS's file is cut off (and tried again later) when less than this arrived, on average, over the last `ASSET_DOWNLOAD_RATE_WINDOW_SECONDS`: an LMS that trickles its files would otherwise hold places every LMS's files share; 0: no floor (the deadline still holds)",
  }),
  ASSET_DOWNLOAD_RATE_WINDOW_SECONDS: setting(z.coerce.number().min(0.5).max(3600).default(15), {
    description: '(`ASSET_PROCESSOR=on` only) the window over which `ASSET_DOWNLOAD_MIN_KB_PER_SECOND` is measured',
  }),
  CALLBACK_SECRET: setting(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{24,128}$/, 'must be 24 to 128 letters, digits, - or _')
      .optional(),
    {
      description:
        'the secret part of the address the service calls back at, `PUBLIC_URL/checker/callback/<secret>`; generate one with `openssl rand -hex 24`. The same value in every process',
      default: 'generated into `DATA_DIR/callback.secret` outside production (required in production)',
      values: '24 to 128 letters, digits, `-` or `_`',
    },
  ),
  SANDBOX_DELAY_MS: setting(z.coerce.number().int().min(0).max(3_600_000).default(5000), {
    description:
      'how long the in-process sandbox takes to analyse a paper (only without `CHECKER_URL`; the real service takes 10 to 15 minutes)',
  }),
  JOB_POLLING_SECONDS: setting(z.coerce.number().min(0.5).max(60).default(2), {
    description: 'how often an idle worker asks for jobs',
  }),
  JOB_RETRY_DELAY_SECONDS: setting(z.coerce.number().int().min(1).max(3600).default(30), {
    description: 'the first retry delay of a failing job, doubling each time',
  }),
  JOB_RETRY_LIMIT: setting(z.coerce.number().int().min(0).max(100).default(12), {
    description: 'how many retries a failing job gets before it shows as failed on `/admin`, with a retry button',
  }),
  JOB_EXPIRE_SECONDS: setting(z.coerce.number().int().min(5).max(3600).default(300), {
    description:
      "a job running longer than this is taken to belong to a dead worker and handed to another (checked every minute at most); the waits a rate-limited job spends on the service's `Retry-After` stay under a fifth of it. Give every process of an installation the same `JOB_*` values: the queues take them from the process that started last",
  }),
  JOB_CONCURRENCY: setting(z.coerce.number().int().min(1).max(50).default(4), {
    description:
      'jobs of each kind one process runs at once (uploads, polls, results, grade posts); uploads, result read-backs and grade posts go past it, one more with each run their service accepts, up to 32 (8 on the embedded database), and a quarter fewer when it answers 429 or 503 with `Retry-After`',
  }),
  REGISTRATIONS_PER_ADDRESS: setting(z.coerce.number().int().min(1).max(10_000).default(5), {
    description:
      "dynamic registrations one source address may start in ten minutes (each makes the tool call the LMS it names); one more is answered 429 with a sentence. Behind a reverse proxy every caller shares the proxy's address",
  }),
  DEV_PLATFORM: setting(z.enum(['on', 'off', 'loopback']).optional(), {
    description:
      "the dev platform at `/dev` (an LTI 1.3 platform emulator with a demo course): `loopback` answers browsers on this machine only; `on` opens it to anyone who reaches the tool (one warning at start when `HOST` is not loopback: whoever opens it acts as the demo LMS's administrator); `off` does not mount it. Production never mounts it, whatever this says",
    default: '`loopback` (`off` in production)',
  }),
  ASSET_PROCESSOR: setting(z.enum(['on', 'off']).default('off'), {
    description:
      "`on` offers the tool as the LMS's LTI Asset Processor (Canvas: Document Processor): dynamic registration asks for its placement, launches and scopes, the CLI lists them for a key made by hand, and a deep-linking launch that accepts `ltiAssetProcessor` attaches it. The LMS's notices are verified and kept, each file is downloaded and checked like a paper sent on the tool's page, and asset reports go back to the LMS beside the submission (no gradebook score for these assignments). `off`: none of these; such a launch gets the ordinary assignment picker",
  }),
  ASSET_PROCESSOR_EULA: setting(z.enum(['on', 'off']).default('off'), {
    description:
      "`on` (with `ASSET_PROCESSOR=on`): the Asset Processor has terms each user accepts once per deployment in the LMS's EULA launch; `ASSET_PROCESSOR_EULA_TERMS` is then required",
  }),
  ASSET_PROCESSOR_EULA_TERMS: setting(z.string().trim().min(1).max(20_000).optional(), {
    description:
      'the terms themselves (plain text), or the http(s) address of the page that has them; required with `ASSET_PROCESSOR_EULA=on`',
  }),
  CONCURRENT_LAUNCHES: setting(z.coerce.number().int().min(1).max(10_000).optional(), {
    description:
      "launches (`/lti/login` and `/lti/launch`) one web process works on at once. One more is answered at once with 503, `Retry-After: 2` and a sentence: JSON to a client that prefers JSON or is a script's request (`Sec-Fetch-Dest: empty`, `X-Requested-With`), a short page otherwise. `/healthz`, `/readyz`, `/lti/keys`, static files and `/dev` are never limited",
    default: `${ADMISSION_PER_CONNECTION.launch} × \`DATABASE_POOL_SIZE\``,
  }),
  CONCURRENT_UPLOADS: setting(z.coerce.number().int().min(1).max(10_000).optional(), {
    description:
      "uploads (a submission's POST) one web process works on at once; one more is answered as for `CONCURRENT_LAUNCHES`",
    default: `${ADMISSION_PER_CONNECTION.upload} × \`DATABASE_POOL_SIZE\``,
  }),
  CONCURRENT_CALLBACKS: setting(z.coerce.number().int().min(1).max(10_000).optional(), {
    description:
      "the checking service's callbacks one web process works on at once; one more is answered as for `CONCURRENT_LAUNCHES`",
    default: `${ADMISSION_PER_CONNECTION.callback} × \`DATABASE_POOL_SIZE\``,
  }),
  CONCURRENT_PAGES: setting(z.coerce.number().int().min(1).max(10_000).optional(), {
    description:
      "pages (every page, form (the Asset Processor's EULA and attach forms included), report and CSV behind a session) one web process works on at once; one more is answered as for `CONCURRENT_LAUNCHES`",
    default: `${ADMISSION_PER_CONNECTION.pages} × \`DATABASE_POOL_SIZE\``,
  }),
  CONCURRENT_NOTICES: setting(z.coerce.number().int().min(1).max(10_000).optional(), {
    description:
      '(`ASSET_PROCESSOR=on` only) LMS notice deliveries one web process works on at once; one more is answered 503 as for `CONCURRENT_LAUNCHES`. Canvas never sends a refused notice again, so the class is sized for the largest burst rather than for the pool ([Operations](operations.md))',
    default: `the larger of 64 and ${ADMISSION_PER_CONNECTION.notices} × \`DATABASE_POOL_SIZE\``,
  }),
  HTTP_HEADERS_TIMEOUT_MS: setting(z.coerce.number().int().min(1000).max(600_000).default(20_000), {
    description:
      'a request whose headers take longer is cut, so slow clients cannot hold sockets; at most `HTTP_REQUEST_TIMEOUT_MS`',
  }),
  HTTP_REQUEST_TIMEOUT_MS: setting(z.coerce.number().int().min(1000).max(3_600_000).default(300_000), {
    description: 'a whole request (an upload included) that takes longer is cut',
  }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: setting(z.coerce.number().int().min(1000).max(600_000).default(5000), {
    description:
      "an idle keep-alive connection is closed after this; behind a load balancer, set it above the balancer's idle timeout",
  }),
  UPLOAD_IDLE_TIMEOUT_MS: setting(z.coerce.number().int().min(1000).max(600_000).default(30_000), {
    description: 'an upload that sends nothing for this long is cut off (408); nothing of it is kept',
  }),
  UPLOADS_PER_PERSON: setting(z.coerce.number().int().min(1).max(100).default(2), {
    description:
      "uploads one person may have in flight at once in one web process (a second tab, not a flood); one more is answered as for `CONCURRENT_LAUNCHES`. One platform's uploads hold at most half of `CONCURRENT_UPLOADS`",
  }),
  UPLOAD_MIN_KB_PER_SECOND: setting(z.coerce.number().min(0).max(100_000).default(2), {
    description:
      "an upload is cut off (408, with a sentence; nothing of it is kept) when less than this arrived, on average, over the last `UPLOAD_RATE_WINDOW_SECONDS`: a byte now and then keeps `UPLOAD_IDLE_TIMEOUT_MS` from ending it, and a few trickling uploads would otherwise hold the places every school's uploads share (`CONCURRENT_UPLOADS`, `UPLOADS_PER_PERSON`); 0: no floor",
  }),
  UPLOAD_RATE_WINDOW_SECONDS: setting(z.coerce.number().min(0.5).max(3600).default(20), {
    description: 'the window over which `UPLOAD_MIN_KB_PER_SECOND` is measured',
  }),
  ADMIN_TOKEN: setting(z.string().min(24, 'must be at least 24 characters').max(256).optional(), {
    description:
      "opens `/admin` for the whole installation without an LMS launch (a platform's administrators reach it from a launch, for their own platform)",
    default: 'none: only platform administrators, from a launch',
  }),
  METRICS_TOKEN: setting(
    z
      .string()
      .regex(/^[\x21-\x7e]{24,256}$/, 'must be 24 to 256 printable characters without spaces')
      .optional(),
    {
      description:
        'a scraper elsewhere reads `/metrics` by sending it as `Authorization: Bearer <token>` ([Monitoring](operations.md#monitoring))',
      default: 'none: `/metrics` answers this machine only',
      values: '24 to 256 printable characters without spaces',
    },
  ),
  TRUSTED_PROXIES: setting(networks('127.0.0.1/32,10.0.0.0/8'), {
    description:
      "the reverse proxies in front of the tool (nginx on the same machine: `127.0.0.1/32,::1/128`). A request from one of them is counted, by the `/admin` token's throttle and the limit of dynamic registrations per address, against the first address in its `X-Forwarded-For` that is not a trusted proxy, read from the right; without it every request behind a proxy counts as the proxy's, so one stranger's wrong tokens would hold the administrator's too",
    default: "`none`: the address a request comes from is its socket's peer",
    values: '`none`, or networks in CIDR form separated by commas',
  }),
  // `none`, or CIDRs separated by commas; the rules they relax are in src/lti/platform-http.ts.
  PLATFORM_PRIVATE_NETWORKS: setting(networks('10.20.0.0/16,fd00:1::/64'), {
    description:
      "private networks in which the tool may reach a platform's URLs: its configuration and registration endpoint (dynamic registration), keys, token, AGS and NRPS URLs. Every other loopback, link-local (169.254.0.0/16 and metadata services, fe80::/10), private (10/8, 172.16/12, 192.168/16, fc00::/7), CGNAT (100.64/10) and reserved address, IPv4-mapped IPv6 forms included, is refused. A Moodle on the school's own network: e.g. `10.20.0.0/16`. Loopback is allowed on a private instance so the dev platform at `http://localhost:PORT/dev` and the tests work; once strangers can reach the tool, a platform URL on loopback is an attack on the tool's host, so it needs listing",
    default: `\`${LOOPBACK_NETWORKS.join(',')}\` on a private instance (outside production, listening on loopback with a loopback \`PUBLIC_URL\`), \`none\` otherwise`,
    values: '`none`, or networks in CIDR form separated by commas, e.g. `10.20.0.0/16,fd00:1::/64`',
  }),
  POLL_SCHEDULE_SECONDS: setting(
    z
      .string()
      .regex(/^\d+(,\d+)*$/, 'must be a comma-separated list of whole seconds, e.g. 60,120,300,600,1800')
      .transform((value) => value.split(',').map(Number))
      .refine((list) => list.every((n) => n >= 1), 'each interval must be at least 1 second')
      .optional(),
    {
      description:
        "waits between polls of a paper still being analysed (in case the service's callback never comes); the last one repeats",
      default: `\`${DEFAULT_POLL_SCHEDULE_SECONDS.join(',')}\``,
      values: 'whole seconds, at least 1 each, separated by commas',
    },
  ),
});

/** Variables whose value never appears in a message: secrets, and a URL that may hold a password. */
export const HIDDEN = new Set([
  'DATABASE_URL',
  'ENCRYPTION_KEY',
  'CHECKER_PASSWORD',
  'CALLBACK_SECRET',
  'ADMIN_TOKEN',
  'METRICS_TOKEN',
]);

/** What to do about a refused secret. */
const HINTS: Record<string, string> = {
  ENCRYPTION_KEY: 'generate one with: openssl rand -hex 32',
  CALLBACK_SECRET: 'generate one with: openssl rand -hex 24',
};

/** A value as a message may show it: a secret's length only, and a long value cut short. */
function shown(variable: string, given: unknown): string {
  const text = String(given);
  if (HIDDEN.has(variable)) return `${text.length} characters long, not shown`;
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/**
 * The sentence for a setting that is wrong: its name, then `detail` ("must be …", "is required …"); a value that
 * is there but wrong is shown after it ("; it is abc"), then what to do about a secret.
 */
function problemOf(variable: string, detail: string, given?: unknown): ConfigProblem {
  const value =
    given !== undefined && given !== '' && detail.startsWith('must') ? `; it is ${shown(variable, given)}` : '';
  const hint = HINTS[variable] ? ` (${HINTS[variable]})` : '';
  return { variable, sentence: `${variable} ${detail.replace(/\.$/, '')}${value}${hint}.` };
}

/** A value zod refused, in the words docs/configuration.md uses for the setting (never zod's own). */
function describeIssue(issue: z.core.$ZodIssue, env: Record<string, string | undefined>): ConfigProblem {
  const variable = String(issue.path[0] ?? 'environment');
  const schema = environment.shape[variable as keyof typeof environment.shape] as z.ZodType | undefined;
  const words = schema && (settingDocs.get(schema)?.values ?? readSchema(schema, 'plain').values);
  return problemOf(variable, `must be ${plain(words ?? issue.message)}`, env[variable]);
}

type Refuse = (variable: string, message: string) => never;

/** PUBLIC_URL as the tool writes it into links (no trailing slash), or the local default outside production. */
function publicUrlOf(raw: string | undefined, production: boolean, port: number, refuse: Refuse): string {
  if (raw === undefined) {
    if (production)
      refuse(
        'PUBLIC_URL',
        'is required in production: the https address people and LMSs reach the tool at, such as https://lti.example.edu',
      );
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
  if (production && url.protocol !== 'https:')
    refuse('PUBLIC_URL', 'must use https in production: LMS platforms only launch tools over HTTPS.');
  return url.toString().replace(/\/+$/, '');
}

/** HOST as given (`localhost` meaning both loopback addresses), or the default for the environment. */
function listenHostsFor(host: string | undefined, production: boolean): string[] {
  if (host === undefined) return production ? ['0.0.0.0'] : [...LOOPBACK_HOSTS];
  if (host.toLowerCase() === 'localhost') return [...LOOPBACK_HOSTS];
  return [host];
}

/** ASSET_PROCESSOR_EULA=on with its terms: a text, or the address of a page (an http(s) URL and nothing else). */
function assetProcessorEulaOf(
  values: {
    ASSET_PROCESSOR: 'on' | 'off';
    ASSET_PROCESSOR_EULA: 'on' | 'off';
    ASSET_PROCESSOR_EULA_TERMS?: string | undefined;
  },
  refuse: Refuse,
): { text: string } | { url: string } | null {
  if (values.ASSET_PROCESSOR_EULA === 'off') return null;
  if (values.ASSET_PROCESSOR === 'off')
    refuse('ASSET_PROCESSOR_EULA', "needs ASSET_PROCESSOR=on: the terms are the Asset Processor's.");
  const terms = values.ASSET_PROCESSOR_EULA_TERMS;
  if (terms === undefined)
    return refuse(
      'ASSET_PROCESSOR_EULA_TERMS',
      'is required with ASSET_PROCESSOR_EULA=on: the terms as text, or the https address of the page that has them.',
    );
  return /^https?:\/\/\S+$/.test(terms) && URL.canParse(terms) ? { url: terms } : { text: terms };
}

/** The environment's variables checked together, as the settings the rest of the tool reads. */
const settingsSchema = environment.transform((values) => {
  const production = values.NODE_ENV === 'production';
  // Every setting wrong given the others is noted, and the checks go on, so that one start lists them all.
  const problems: ConfigProblem[] = [];
  const note = (variable: keyof typeof values, detail: string) => {
    if (!problems.some((problem) => problem.variable === variable))
      problems.push(problemOf(variable, detail, values[variable]));
  };
  const refuse: Refuse = (variable, detail) => {
    throw new ConfigError([problemOf(variable, detail, values[variable as keyof typeof values])]);
  };
  /** A check that refuses through `refuse`: its refusal is noted, and `fallback` stands in for its result. */
  const checked = <T>(work: () => T, fallback: T): T => {
    try {
      return work();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      for (const problem of error.problems)
        if (!problems.some((known) => known.variable === problem.variable)) problems.push(problem);
      return fallback;
    }
  };
  const publicUrl = checked(
    () => publicUrlOf(values.PUBLIC_URL, production, values.PORT, refuse),
    `http://localhost:${values.PORT}`,
  );
  if (production && values.DATABASE_URL === undefined) {
    note(
      'DATABASE_URL',
      'is required in production: the PostgreSQL database, such as postgres://user:password@host:5432/database (the embedded database is for trying the tool and is not crash-durable)',
    );
  }
  if (values.ROLE !== 'all' && values.DATABASE_URL === undefined) {
    note(
      'DATABASE_URL',
      `is required with ROLE=${values.ROLE}: separate web and worker processes share one PostgreSQL database (the embedded database serves a single process).`,
    );
  }
  if (production && values.ENCRYPTION_KEY === undefined) note('ENCRYPTION_KEY', 'is required in production');
  if (production && values.CALLBACK_SECRET === undefined) note('CALLBACK_SECRET', 'is required in production');
  if (values.ROLE !== 'all' && !values.CHECKER_URL) {
    note(
      'CHECKER_URL',
      `is required with ROLE=${values.ROLE}: separate processes must share one checking service (an in-process sandbox belongs to one process; run \`npm run sandbox\` and point CHECKER_URL at it).`,
    );
  }
  if (production && !values.CHECKER_URL)
    note(
      'CHECKER_URL',
      'is required in production: the address of the checking service, such as https://checker.example.com (the sandbox is for trying the tool).',
    );
  if (values.CHECKER_URL || production) {
    const why = values.CHECKER_URL ? 'when CHECKER_URL is set' : 'in production';
    if (!values.CHECKER_USERNAME)
      note('CHECKER_USERNAME', `is required ${why}: the default service account's user name.`);
    if (!values.CHECKER_PASSWORD)
      note('CHECKER_PASSWORD', `is required ${why}: the default service account's password.`);
  }
  if (values.HTTP_HEADERS_TIMEOUT_MS > values.HTTP_REQUEST_TIMEOUT_MS) {
    note(
      'HTTP_HEADERS_TIMEOUT_MS',
      `must not exceed HTTP_REQUEST_TIMEOUT_MS (${values.HTTP_REQUEST_TIMEOUT_MS}): the headers are part of the request.`,
    );
  }
  const assetProcessorEula = checked(() => assetProcessorEulaOf(values, refuse), null);
  if (problems.length > 0) throw new ConfigError(problems);
  const listenHosts = listenHostsFor(values.HOST, production);
  // Behind a reverse proxy on the same machine the tool listens on loopback, yet the world reaches it through
  // PUBLIC_URL: only when both name this machine is the instance private.
  const loopbackOnly =
    !production &&
    listenHosts.every(isLoopbackName) &&
    isLoopbackName(new URL(publicUrl).hostname.replace(/^\[|\]$/g, ''));
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
    /** The reverse proxies whose X-Forwarded-For names the client (web/client-address.ts); none: the socket's peer. */
    trustedProxies: values.TRUSTED_PROXIES ?? [],
    /** Uploads one person may have in flight at once (web/admission.ts's shares). */
    uploadsPerPerson: values.UPLOADS_PER_PERSON,
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
    assetProcessorEula,
    /** The deadline of one download of an LMS's file (its token included); a download past it is tried again later. */
    assetDownloadTimeoutMs: values.ASSET_DOWNLOAD_TIMEOUT_SECONDS * 1000,
    /** Every try to download one LMS file ends within this time of the first; then the LMS is told DOWNLOAD_FAILED. */
    assetDownloadGiveUpMs: values.ASSET_DOWNLOAD_GIVE_UP_SECONDS * 1000,
    /** A download is cut off when fewer than this many bytes arrived in the last window (null: never; the deadline
     * still holds): an LMS that trickles its files holds one of the places every LMS's files share. */
    assetDownloadMinRate:
      values.ASSET_DOWNLOAD_MIN_KB_PER_SECOND === 0
        ? null
        : {
            bytes: Math.round(
              values.ASSET_DOWNLOAD_MIN_KB_PER_SECOND * 1024 * values.ASSET_DOWNLOAD_RATE_WINDOW_SECONDS,
            ),
            windowMs: values.ASSET_DOWNLOAD_RATE_WINDOW_SECONDS * 1000,
          },
    /** Requests of each class one process works on at once; the excess is answered 503 at once (src/web/admission.ts). */
    admission: {
      launch: values.CONCURRENT_LAUNCHES ?? ADMISSION_PER_CONNECTION.launch * pool,
      upload: values.CONCURRENT_UPLOADS ?? ADMISSION_PER_CONNECTION.upload * pool,
      callback: values.CONCURRENT_CALLBACKS ?? ADMISSION_PER_CONNECTION.callback * pool,
      pages: values.CONCURRENT_PAGES ?? ADMISSION_PER_CONNECTION.pages * pool,
      // Canvas never sends a refused notice again, so this class is sized for the largest burst rather than for the
      // pool: a notice holds a connection for one short transaction, and 16 per pool connection wait at most a few
      // hundred milliseconds for one (docs/operations.md says how to size it).
      notices: values.CONCURRENT_NOTICES ?? Math.max(64, ADMISSION_PER_CONNECTION.notices * pool),
    },
    /** HTTP server limits against slow clients: whole headers, whole request, idle keep-alive, and an upload's body
     * sending nothing. */
    http: {
      headersTimeoutMs: values.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: values.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: values.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      uploadIdleTimeoutMs: values.UPLOAD_IDLE_TIMEOUT_MS,
      uploadMinRate:
        values.UPLOAD_MIN_KB_PER_SECOND === 0
          ? null
          : {
              bytes: values.UPLOAD_MIN_KB_PER_SECOND * 1024 * values.UPLOAD_RATE_WINDOW_SECONDS,
              windowMs: values.UPLOAD_RATE_WINDOW_SECONDS * 1000,
            },
    },
    /** The tool's name as LMS administrators and instructors see it. */
    toolName: values.TOOL_NAME,
    /** The default service account; null URL: the sandbox runs in-process and stands in for the service. */
    checker: {
      url: values.CHECKER_URL ?? null,
      username: values.CHECKER_USERNAME ?? null,
      password: values.CHECKER_PASSWORD ?? null,
    },
    /** How long a call to the checking service may wait for its answer's headers, and then between its body's bytes. */
    checkerTimeoutMs: values.CHECKER_TIMEOUT_MS,
    /** Seconds between polls of a paper still being analysed; the last value repeats. */
    pollScheduleSeconds: values.POLL_SCHEDULE_SECONDS ?? [...DEFAULT_POLL_SCHEDULE_SECONDS],
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
    platformPrivateNetworks: values.PLATFORM_PRIVATE_NETWORKS ?? (loopbackOnly ? [...LOOPBACK_NETWORKS] : []),
    jobs: {
      pollingIntervalSeconds: values.JOB_POLLING_SECONDS,
      retryDelaySeconds: values.JOB_RETRY_DELAY_SECONDS,
      retryLimit: values.JOB_RETRY_LIMIT,
      expireSeconds: values.JOB_EXPIRE_SECONDS,
      concurrency: values.JOB_CONCURRENCY,
    },
    /** The secrets as the environment gave them (null: kept in DATA_DIR, see provideSecrets). */
    givenSecrets: { encryptionKey: values.ENCRYPTION_KEY ?? null, callbackSecret: values.CALLBACK_SECRET ?? null },
  };
});

/** The tool's settings, without the secrets kept in DATA_DIR. */
export type Settings = z.output<typeof settingsSchema>;

/**
 * Reads the environment; writes nothing. Throws a ConfigError naming every variable that is wrong: each value that
 * is not what its setting takes, then (the others taken as given) each setting the rest make wrong or required.
 */
export function parseConfig(env: Record<string, string | undefined> = process.env): Settings {
  const fields = environment.safeParse(env);
  if (fields.success) return settingsSchema.parse(env); // a ConfigError thrown in the transform comes out as it is
  const problems: ConfigProblem[] = [];
  for (const issue of fields.error.issues) {
    const problem = describeIssue(issue, env);
    if (!problems.some((known) => known.variable === problem.variable)) problems.push(problem);
  }
  const wrong = new Set(problems.map((problem) => problem.variable));
  try {
    settingsSchema.parse(Object.fromEntries(Object.entries(env).filter(([name]) => !wrong.has(name))));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems.filter((problem) => !wrong.has(problem.variable)));
  }
  throw new ConfigError(problems);
}

/**
 * Variables that look like one of the tool's settings but are not one (a near miss of a setting's name, or a
 * PostgreSQL address under another name while DATABASE_URL is unset): one warning each, for start-up to say.
 */
export function nearMissWarnings(env: Record<string, string | undefined> = process.env): string[] {
  const known = Object.keys(environment.shape);
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    const meant = nearMiss(name, known);
    if (meant) {
      const unset = env[meant] ? '' : ` (${meant} itself is not set)`;
      warnings.push(`${name} is set, but the tool has no setting of that name: did you mean ${meant}?${unset}`);
    } else if (!known.includes(name) && !env.DATABASE_URL && /^postgres(ql)?:\/\//i.test(value)) {
      warnings.push(
        `${name} holds a PostgreSQL address, but the tool reads its database from DATABASE_URL only: did you mean DATABASE_URL? (DATABASE_URL itself is not set)`,
      );
    }
  }
  return warnings;
}

/** What start-up says of the embedded database, once, where it is used (null on PostgreSQL). */
export function embeddedDatabaseNote(settings: Pick<Settings, 'databaseUrl' | 'dataDir'>): string | null {
  if (settings.databaseUrl !== null) return null;
  return `No DATABASE_URL is set: the data is kept in the embedded database in ${settings.dataDir}, which serves this one process and is meant for trying the tool or a small single-process install (it is not crash-durable). To use a PostgreSQL server, set DATABASE_URL=postgres://user:password@host:5432/database.`;
}

/** A secret from the environment, or else (outside production) the one generated once into DATA_DIR. */
function keptSecret(dataDir: string, fileName: string, bytes: number): { value: string; generated: boolean } {
  const file = join(dataDir, fileName);
  if (existsSync(file)) return { value: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
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
      throw new ConfigError([
        problemOf(
          'ENCRYPTION_KEY',
          `is not set, and the key stored in ${join(settings.dataDir, KEY_FILE)} is too short; remove the file to generate a new one.`,
        ),
      ]);
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
