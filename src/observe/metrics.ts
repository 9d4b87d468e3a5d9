// The tool's Prometheus metrics. Each running tool (a web, worker or combined process; a test may start several
// in one process, one after another) has its own registry: counters are incremented where the event happens, and
// the gauges of submissions and job queues are read from the database when /metrics is scraped, within a
// deadline, so that a scrape never hangs on a database that does not answer. Labels take a few fixed values only:
// never an id, a name or a secret.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the database says at scrape time. */
export interface Readings {
  submissionsByState: Record<string, number>;
  queues: Array<{
    queue: string;
    waiting: number;
    running: number;
    failed: number;
    oldestWaitingSeconds: number | null;
  }>;
  /** Received files kept in the database until the service has them (those still arriving included). */
  receivedFiles: { files: number; bytes: number; diskBytes: number };
  /** The database on disk, and the rows deleted or replaced whose space is not reused yet (db/dead-space.ts). */
  database: { bytes: number; deadRows: number; deadBytes: number };
}

/** One call to the checking service, as its client reports it (the client's `observe` option). */
export interface CheckerCall {
  operation: string;
  /** `ok`, or the failure's kind (`rate-limited`, `timeout`, `server`, ...). */
  outcome: string;
  seconds: number;
}

/** How long a scrape waits for the database before it answers with the counters alone. */
const READ_DEADLINE_MS = 2000;

/** Up to CHECKER_TIMEOUT_MS (30 s by default) and beyond for a large upload. */
const CHECKER_CALL_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

let processRegistry: Registry | undefined;

/**
 * prom-client's default metrics (CPU, memory, event loop, GC) describe the process, not a tool: one registry per
 * process, shared by every tool started in it (their collectors cannot be stopped, so they are made once).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export class ToolMetrics {
  readonly #registry = new Registry();
  /** Gauges without labels, which a reset sets to 0: served only when the database answered, as the others. */
  readonly #storeRegistry = new Registry();
  readonly #read: () => Promise<Readings>;
  readonly #onReadFailure: (error: unknown) => void;
  /** The database read in flight: scrapes that come while it runs share it rather than pile up behind it. */
  #reading: Promise<Readings> | null = null;

  /** Validated LTI launches, by message (web/launches/index.ts names each kind). */
  readonly launches = new Counter({
    name: 'originality_launches_total',
    help: 'LTI launches validated, by kind (resource-link, deep-linking, submission-review, report-review, processor-settings, eula).',
    labelNames: ['kind'] as const,
    registers: [this.#registry],
  });

  /** New submissions committed (a file identical to an earlier attempt is not counted again). */
  readonly submissionsReceived = new Counter({
    name: 'originality_submissions_received_total',
    help: 'Papers received and committed from students (a repeated identical file is not counted).',
    registers: [this.#registry],
  });

  /** Calls on the callback address: `accepted`, or refused for a `wrong-secret` or an `unreadable` body. */
  readonly callbacks = new Counter({
    name: 'originality_callbacks_total',
    help: 'Completion callbacks from the checking service, by outcome (accepted, wrong-secret, unreadable).',
    labelNames: ['outcome'] as const,
    registers: [this.#registry],
  });

  readonly #gradePosts = new Counter({
    name: 'originality_grade_posts_total',
    help: 'Grade post jobs, by outcome (final, pending, skipped, refused, error).',
    labelNames: ['outcome'] as const,
    registers: [this.#registry],
  });

  readonly #checkerCalls = new Histogram({
    name: 'originality_checker_call_duration_seconds',
    help: 'Calls to the checking service until their answer arrived, by operation and outcome (ok or the failure kind).',
    labelNames: ['operation', 'outcome'] as const,
    buckets: CHECKER_CALL_BUCKETS,
    registers: [this.#registry],
  });

  readonly #submissions = new Gauge({
    name: 'originality_submissions',
    help: 'Submissions in each state, read from the database at scrape time.',
    labelNames: ['state'] as const,
    registers: [this.#registry],
  });

  readonly #jobs = new Gauge({
    name: 'originality_jobs',
    help: 'Background jobs per queue that are waiting (queued or to be retried), running, or failed for good.',
    labelNames: ['queue', 'state'] as const,
    registers: [this.#registry],
  });

  readonly #oldestWaiting = new Gauge({
    name: 'originality_job_oldest_waiting_seconds',
    help: 'Age of the oldest job of each queue that is due and waits for a worker (0 when none waits).',
    labelNames: ['queue'] as const,
    registers: [this.#registry],
  });

  readonly #receivedFiles = new Gauge({
    name: 'originality_received_files',
    help: 'Received files kept in the database until the service has them (uploads and downloads still arriving included).',
    registers: [this.#storeRegistry],
  });

  readonly #receivedFileBytes = new Gauge({
    name: 'originality_received_file_bytes',
    help: 'The bytes of those files.',
    registers: [this.#storeRegistry],
  });

  readonly #databaseBytes = new Gauge({
    name: 'originality_database_bytes',
    help: "The tool's database on disk (on the embedded database, most of DATA_DIR).",
    registers: [this.#storeRegistry],
  });

  readonly #databaseDeadRows = new Gauge({
    name: 'originality_database_dead_rows',
    help: 'Rows deleted or replaced whose space is not reused yet (vacuumed by autovacuum, or by the tool on the embedded database).',
    registers: [this.#storeRegistry],
  });

  readonly #databaseDeadBytes = new Gauge({
    name: 'originality_database_dead_bytes',
    help: "An estimate of the disk those rows hold: each table's size times their share of its rows.",
    registers: [this.#storeRegistry],
  });

  readonly #receivedFileDiskBytes = new Gauge({
    name: 'originality_received_file_disk_bytes',
    help: "The disk their table takes in the database: the files, its index, and deleted files' space until PostgreSQL reuses it.",
    registers: [this.#storeRegistry],
  });

  readonly #databaseUp = new Gauge({
    name: 'originality_database_up',
    help: `1 when the database answered this scrape's queries within ${READ_DEADLINE_MS / 1000} s; 0 when not, and the submission, job and received-file gauges are then left out.`,
    registers: [this.#registry],
  });

  /** `read` gives the gauges' values; `onReadFailure` hears why it failed (the scrape says only that it did). */
  constructor(options: { read: () => Promise<Readings>; onReadFailure: (error: unknown) => void }) {
    this.#read = options.read;
    this.#onReadFailure = options.onReadFailure;
    // Known outcomes start at zero, so that a rate shows from the first scrape on.
    // The launch kinds start at zero where the launch route is mounted (web/launch-route.ts), which names them.
    for (const outcome of ['accepted', 'wrong-secret', 'unreadable']) this.callbacks.inc({ outcome }, 0);
    for (const outcome of ['final', 'pending', 'skipped', 'refused', 'error']) this.#gradePosts.inc({ outcome }, 0);
  }

  /** The checking service's client reports each call here (given as its `observe` option). */
  readonly observeCheckerCall = (call: CheckerCall): void => {
    this.#checkerCalls.observe({ operation: call.operation, outcome: call.outcome }, call.seconds);
  };

  /** Counts a grade post by the outcome it resolves to (`error` when it throws), and hands that outcome on. */
  async gradePost<T extends { kind: string }>(posting: Promise<T>): Promise<T> {
    try {
      const outcome = await posting;
      this.#gradePosts.inc({ outcome: outcome.kind });
      return outcome;
    } catch (error) {
      this.#gradePosts.inc({ outcome: 'error' });
      throw error;
    }
  }

  readonly contentType = Registry.PROMETHEUS_CONTENT_TYPE;

  /** The text Prometheus scrapes; when the database does not answer in time, the counters with a comment saying so. */
  async scrape(): Promise<string> {
    const read = await this.#readWithinDeadline();
    this.#submissions.reset();
    this.#jobs.reset();
    this.#oldestWaiting.reset();
    this.#databaseUp.set(read.readings ? 1 : 0);
    if (read.readings) {
      for (const [state, count] of Object.entries(read.readings.submissionsByState))
        this.#submissions.set({ state }, count);
      for (const queue of read.readings.queues) {
        this.#jobs.set({ queue: queue.queue, state: 'waiting' }, queue.waiting);
        this.#jobs.set({ queue: queue.queue, state: 'running' }, queue.running);
        this.#jobs.set({ queue: queue.queue, state: 'failed' }, queue.failed);
        this.#oldestWaiting.set({ queue: queue.queue }, queue.oldestWaitingSeconds ?? 0);
      }
      this.#receivedFiles.set(read.readings.receivedFiles.files);
      this.#receivedFileBytes.set(read.readings.receivedFiles.bytes);
      this.#receivedFileDiskBytes.set(read.readings.receivedFiles.diskBytes);
      this.#databaseBytes.set(read.readings.database.bytes);
      this.#databaseDeadRows.set(read.readings.database.deadRows);
      this.#databaseDeadBytes.set(read.readings.database.deadBytes);
    }
    const text =
      (await processMetrics().metrics()) +
      (await this.#registry.metrics()) +
      (read.readings ? await this.#storeRegistry.metrics() : '');
    return read.readings
      ? text
      : `# ${read.problem} The submission, job and received-file gauges are left out of this scrape.\n${text}`;
  }

  async #readWithinDeadline(): Promise<
    { readings: Readings; problem?: undefined } | { readings: null; problem: string }
  > {
    this.#reading ??= this.#read()
      .catch((error: unknown) => {
        this.#onReadFailure(error);
        throw error;
      })
      .finally(() => {
        this.#reading = null;
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<{ readings: null; problem: string }>((resolve) => {
      timer = setTimeout(
        () => resolve({ readings: null, problem: `The database did not answer within ${READ_DEADLINE_MS / 1000} s.` }),
        READ_DEADLINE_MS,
      );
    });
    try {
      return await Promise.race([
        this.#reading.then(
          (readings) => ({ readings }),
          () => ({ readings: null, problem: "The database query failed (the tool's log says why)." }),
        ),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
