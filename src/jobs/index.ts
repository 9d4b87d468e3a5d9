// Background jobs on pg-boss, in the tool's own PostgreSQL database and over its own pool. pg-boss polls
// (LISTEN/NOTIFY would not cross PGlite's socket) and keeps retries, backoff and singleton keys.
import PgBoss from 'pg-boss';
import pg from 'pg';
import { AdaptiveLimit } from './adaptive-limit.js';
import { FairShareWorker, turnOf } from './fair-share.js';
import { failedJobs, type FailedJob, type FailedJobScope } from './failed-jobs.js';
import { jobsDbOf, queryableOf, type Transactional } from './in-transaction.js';
import { isRunning, runningOf } from './is-running.js';
import { queueHealth, type QueueHealth } from './queue-health.js';
import { LMS_OF_JOB, payloadOf, QUEUE_NAMES, QUEUES, type FairQueue, type JobData, type QueueName } from './queues.js';

export { QUEUE_NAMES, QUEUES, type FairQueue, type JobData, type QueueName } from './queues.js';
export { hasOpenJob } from './open-job.js';
export type { FailedJob, FailedJobScope, QueueHealth, Transactional };

/**
 * How long a follow-up job waits when sent while a job with its key runs (Jobs.send): about the usual length of
 * a run in each queue (a read-back, a grade post, a folder's settings, an upload), so that the follow-up rarely
 * finds the first still running, nor waits long after it. A run longer than that holds the queue for the rest.
 */
const FOLLOW_UP_DELAY_SECONDS: Record<QueueName, number> = {
  [QUEUES.upload]: 30,
  [QUEUES.poll]: 0, // polls queue their next round themselves, a minute or more ahead
  [QUEUES.result]: 2,
  [QUEUES.folder]: 5,
  [QUEUES.grade]: 5,
  [QUEUES.assetFetch]: 30,
  [QUEUES.assetReport]: 5,
};

/** When a job asked to start after `asked` seconds starts: held back past the usual run when its key's job runs. */
function heldBack(queue: QueueName, asked: number, keyRunning: boolean): number {
  return keyRunning ? Math.max(asked, FOLLOW_UP_DELAY_SECONDS[queue]) : asked;
}

/**
 * The queues whose jobs wait on a service (the checking service, the LMS) rather than on this process: a deadline
 * sends them in hundreds. Each runs as many jobs at once as its service takes (adaptive-limit.ts finds how many,
 * from JOB_CONCURRENCY up to JobTiming.mostAtOnce). The slots past JOB_CONCURRENCY ask for jobs seldom on their
 * own and are woken when the queue has a backlog (a slot found its next job right after its last) while there is
 * room, so that neither an idle tool nor a trickle of jobs polls more for them.
 */
const PACED_QUEUES: ReadonlySet<QueueName> = new Set([QUEUES.upload, QUEUES.result, QUEUES.grade]);
const RESERVE_POLLING_SECONDS = 120;
const BACKLOG_MS = 250;

export interface JobsLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface JobTiming {
  /** How often an idle worker asks for new jobs. */
  pollingIntervalSeconds: number;
  /** The first retry's delay; pg-boss doubles it with each further retry (with jitter). */
  retryDelaySeconds: number;
  retryLimit: number;
  /**
   * A job running longer than this is taken to belong to a dead worker (killed, lost its machine) and is handed
   * to another. Longer than any job's real work: an upload's requests time out well before.
   */
  expireSeconds: number;
  /** Jobs of one queue a process runs at once (uploads wait on the network, not the CPU). */
  concurrency: number;
  /** How far a queue that waits on a service may go past `concurrency` while the service keeps up (PACED_QUEUES). */
  mostAtOnce?: number;
}

/** The advisory lock under which one process at a time sets up pg-boss's schema and the queues. */
const SETUP_LOCK = 'originality-lti:job-queue-setup';

/**
 * How often a job waits as the service asked before its failure counts as one (and pg-boss backs off), and how
 * much of its expiry those waits may take at most: pg-boss hands a job that outlives its expiry to another worker
 * while the first still runs it, and two runs of an upload can send one paper twice. The count only stops a
 * service that asks for no wait at all from being asked again at once without end; the time is the real bound. A
 * failure costs the job the retry backoff (JOB_RETRY_DELAY_SECONDS, 30 s and more): with a service refusing 30 %
 * of requests at random, 5 waits left about one job in 1,400 to it, and those few set when a deadline's last score
 * arrived (bench/surge.ts); 10 leave about one in 560,000 (0.3 to the 6th and to the 11th power).
 */
const SHORT_WAITS = 10;
const LONGEST_SHORT_WAIT_MS = 30_000;
const SHARE_OF_EXPIRY_FOR_WAITS = 1 / 5;

/** The wait an error asks for (a service's Retry-After), when it names one short enough to wait here. */
function retryAfterMs(error: unknown): number | null {
  const wait = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return typeof wait === 'number' && wait >= 0 && wait <= LONGEST_SHORT_WAIT_MS ? wait : null;
}

export type JobHandler<T> = (job: { id: string; data: T; retryCount: number }) => Promise<void>;

export class Jobs {
  readonly boss: PgBoss;
  #stopped = false;
  /** Which reserve slot to wake next (see PACED_QUEUES). */
  #woken = 0;
  readonly #fairWorkers: Array<{ queue: QueueName; stop(timeoutMs: number): Promise<void> }> = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly timing: JobTiming,
    private readonly logger: JobsLogger,
  ) {
    this.boss = new PgBoss({
      // A handler still running when stop() gave up on it (it outlived the shutdown timeout) finishes later, and
      // pg-boss then records its outcome without awaiting the query; by then the tool may have closed the pool,
      // and the refusal would surface as an unhandled rejection. stop() has already handed such a job back to the
      // queue (it runs again; every handler finds work already done), so its late outcome is dropped: the
      // answer says no row was affected.
      db: {
        executeSql: (text, values) =>
          this.#stopped ? Promise.resolve({ rows: [{ count: 0 }] }) : pool.query(text, values),
      },
      // Completed jobs are kept a week for the admin page, failed ones a month.
      archiveCompletedAfterSeconds: 7 * 86_400,
      archiveFailedAfterSeconds: 30 * 86_400,
      // Expired jobs are found by this check: often enough that a crashed worker's jobs move on soon.
      maintenanceIntervalSeconds: Math.min(60, timing.expireSeconds),
    });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'Job queue error'));
  }

  /** How many times a failed job is tried again before it waits for an administrator. */
  get retryLimit(): number {
    return this.timing.retryLimit;
  }

  /** The first retry's delay in seconds; pg-boss waits between it and twice it, doubling with each retry. */
  get retryDelaySeconds(): number {
    return this.timing.retryDelaySeconds;
  }

  /** Seconds after which a running job is taken to belong to a dead worker and handed to another. */
  get expireSeconds(): number {
    return this.timing.expireSeconds;
  }

  /**
   * Creates pg-boss's schema and the queues. Every process calls it, and processes starting at once on a fresh
   * database take turns: pg-boss's own transaction lock does not stop a second process's
   * `CREATE SCHEMA IF NOT EXISTS` from missing the schema the first has just committed (it fails with a duplicate
   * key in pg_namespace), and queues created at once can deadlock. The turn is a session lock held on a
   * connection of its own, since pg-boss needs the pool meanwhile and the pool may be one connection. On PGlite
   * (one backend, one process) the lock is granted at once.
   */
  async start(): Promise<void> {
    const turn = new pg.Client(this.pool.options);
    // A connection dropped while it waits would otherwise end the process; the query or start() fails instead.
    turn.on('error', (error) => this.logger.warn({ err: error }, 'The job queue set-up lost its database connection'));
    await turn.connect();
    try {
      await turn.query('SELECT pg_advisory_lock(hashtext($1))', [SETUP_LOCK]);
      await this.boss.start();
      for (const name of QUEUE_NAMES) {
        const options = {
          name,
          // One queued and one running job per key (a submission, an assignment): a repeated send is harmless.
          policy: 'stately' as const,
          retryLimit: this.timing.retryLimit,
          retryDelay: this.timing.retryDelaySeconds,
          retryBackoff: true,
          expireInSeconds: this.timing.expireSeconds,
        };
        // An existing queue takes the current settings (they apply to jobs sent from now on).
        if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, options);
        else await this.boss.createQueue(name, options);
      }
    } finally {
      // Ending the session releases its lock.
      await turn.end();
    }
  }

  /**
   * Queues a job, one per key at a time (a repeated send while one waits is dropped: it would do the same), with its
   * data as the queue's payload makes it (queues.ts: what the payload does not declare is not queued).
   *
   * A job sent while another with its key runs is held back a while. pg-boss 10 fetches a queue's jobs oldest
   * first, and under the `stately` policy it cannot start a job whose key is running: the fetch fails on the
   * queue's unique index and returns nothing, so every other job of the queue waits behind that one until the
   * running job ends. Held back past the usual length of a run, the follow-up leaves the queue free meanwhile.
   *
   * `takeTurnsBy`: a field of the data naming the job's group (the LMS a submission came from); the groups' jobs
   * then take turns rather than the oldest first (turnOf in fair-share.ts).
   */
  async send<Q extends QueueName>(
    queue: Q,
    data: JobData<Q>,
    options: {
      key: string;
      startAfterSeconds?: number;
      newKey?: boolean;
      takeTurnsBy?: keyof JobData<Q> & string;
      within?: Transactional;
    },
  ): Promise<string | null> {
    const payload = payloadOf(queue, data);
    const asked = options.startAfterSeconds ?? 0;
    const db = options.within ? queryableOf(options.within) : this.pool;
    // A key just made (a new submission's) has no job running: no need to ask.
    const keyRunning =
      !options.newKey && FOLLOW_UP_DELAY_SECONDS[queue] > asked && (await isRunning(db, queue, options.key));
    const startAfter = heldBack(queue, asked, keyRunning);
    const priority = options.takeTurnsBy
      ? await turnOf(db, queue, options.takeTurnsBy, String(payload[options.takeTurnsBy]))
      : 0;
    return this.boss.send(queue, payload, {
      singletonKey: options.key,
      ...(startAfter > 0 ? { startAfter } : {}),
      ...(priority !== 0 ? { priority } : {}),
      // In the caller's transaction: the job exists exactly when what it works on was committed.
      ...(options.within ? { db: jobsDbOf(options.within) } : {}),
    });
  }

  /**
   * Queues several jobs of one queue in one statement, each by the rules of `send` (one per key; one sent while its
   * key runs is held back): for bursts, such as the service's callbacks. Jobs with the same key in the list are
   * queued once. `within`: in the caller's transaction, as for `send`.
   */
  async sendMany<Q extends QueueName>(
    queue: Q,
    jobs: Array<{ data: JobData<Q>; key: string; startAfterSeconds?: number }>,
    options: { within?: Transactional } = {},
  ): Promise<void> {
    if (jobs.length === 0) return;
    const running =
      FOLLOW_UP_DELAY_SECONDS[queue] > 0
        ? await runningOf(
            options.within ? queryableOf(options.within) : this.pool,
            queue,
            jobs.map((job) => job.key),
          )
        : new Set<string>();
    const seen = new Set<string>();
    const rows = jobs
      .filter((job) => !seen.has(job.key) && seen.add(job.key))
      .map((job) => {
        const startAfter = heldBack(queue, job.startAfterSeconds ?? 0, running.has(job.key));
        return {
          name: queue,
          data: payloadOf(queue, job.data),
          singletonKey: job.key,
          ...(startAfter > 0 ? { startAfter: String(startAfter) } : {}),
        };
      });
    if (options.within) await this.boss.insert(rows, { db: jobsDbOf(options.within) });
    else await this.boss.insert(rows);
  }

  /** Whether a job of the queue with this key is running now (in any process). */
  isRunning(queue: QueueName, key: string): Promise<boolean> {
    return isRunning(this.pool, queue, key);
  }

  /** Each queue's waiting, running and failed jobs, for the administrator. */
  queueHealth(): Promise<QueueHealth[]> {
    return queueHealth(this.pool);
  }

  /** Jobs that used up their retries, newest first: all, or a platform's. */
  failedJobs(scope: FailedJobScope): Promise<FailedJob[]> {
    return failedJobs(this.pool, scope);
  }

  /** Queues a failed job again, with its retries renewed. */
  async retryFailed(queue: QueueName, jobId: string): Promise<void> {
    await this.boss.retry(queue, jobId);
  }

  /**
   * Runs `handler` for each job of the queue, up to `concurrency` jobs at once in this process, with the job's data
   * as the queue's payload reads it; a throw makes pg-boss retry the job with backoff, up to the limit.
   */
  async work<Q extends QueueName>(queue: Q, handler: JobHandler<JobData<Q>>): Promise<void> {
    const most = Math.max(this.timing.concurrency, this.timing.mostAtOnce ?? this.timing.concurrency);
    const pace =
      PACED_QUEUES.has(queue) && most > this.timing.concurrency
        ? new AdaptiveLimit(this.timing.concurrency, most)
        : null;
    const reserves: string[] = [];
    for (let slot = 0; slot < (pace?.max ?? this.timing.concurrency); slot++) {
      const reserve = slot >= this.timing.concurrency;
      let workerId = '';
      let lastDone = 0;
      workerId = await this.boss.work(
        queue,
        {
          pollingIntervalSeconds: reserve ? RESERVE_POLLING_SECONDS : this.timing.pollingIntervalSeconds,
          batchSize: 1,
          includeMetadata: true,
        },
        async (jobs) => {
          // pg-boss waits a polling interval after every fetch, even one that found a job; while there was one,
          // there may be more, so the slot asks again at once (an idle slot still waits the interval).
          if (workerId) this.boss.notifyWorker(workerId);
          if (pace?.hasRoom() && Date.now() - lastDone < BACKLOG_MS && reserves.length > 0)
            this.boss.notifyWorker(reserves[this.#woken++ % reserves.length]!);
          for (const job of jobs) {
            await this.#runOne(queue, job, handler, pace);
            lastDone = Date.now();
          }
        },
      );
      if (reserve) reserves.push(workerId);
    }
  }

  /**
   * Runs one job. The service may name a wait (429 or 503 with Retry-After): a few short waits here, rather than
   * the retry backoff meant for failures, which puts a rate-limited upload minutes or hours behind. Any other
   * failure is thrown, for pg-boss to retry the job; so is data that is not the queue's payload, said in the log:
   * such a job ends among the failed jobs an administrator sees.
   */
  async #runOne<Q extends QueueName>(
    queue: Q,
    job: { id: string; data: unknown; retryCount: number },
    handler: JobHandler<JobData<Q>>,
    pace: AdaptiveLimit | null,
  ): Promise<void> {
    let data: JobData<Q>;
    try {
      data = payloadOf(queue, job.data);
    } catch (error) {
      this.logger.warn({ err: error, queue, jobId: job.id }, "A job's data is not its queue's payload: the job fails");
      throw error;
    }
    const waitBudgetMs = this.timing.expireSeconds * 1000 * SHARE_OF_EXPIRY_FOR_WAITS;
    for (let waits = 0, waitedMs = 0; ; waits += 1) {
      const free = await pace?.acquire();
      try {
        await handler({ id: job.id, data, retryCount: job.retryCount });
        pace?.accepted();
        free?.();
        return;
      } catch (error) {
        const wait = retryAfterMs(error);
        if (wait !== null) pace?.refused(wait);
        free?.(); // a run waiting for its turn leaves its place to another
        if (wait !== null && waits < SHORT_WAITS && waitedMs + wait <= waitBudgetMs) {
          await new Promise((resolve) => setTimeout(resolve, wait));
          waitedMs += wait;
          continue;
        }
        this.logger.warn(
          { err: error, queue, jobId: job.id, retryCount: job.retryCount },
          'Job failed; it will be retried while retries remain',
        );
        throw error;
      }
    }
  }

  /**
   * Runs `handler` for each job of the queue, `concurrency` at once in this process (a queue that waits on a
   * service, PACED_QUEUES: up to `mostAtOnce`, each group at its own pace), each LMS (the queue's LMS_OF_JOB, in
   * queues.ts) taking its share of them in this process and across all (fair-share.ts says how).
   */
  workFairly<Q extends FairQueue>(queue: Q, handler: JobHandler<JobData<Q>>): void {
    const most = Math.max(this.timing.concurrency, this.timing.mostAtOnce ?? this.timing.concurrency);
    const paced = PACED_QUEUES.has(queue) && most > this.timing.concurrency;
    const worker = new FairShareWorker(
      this.pool,
      this.boss,
      {
        queue,
        group: LMS_OF_JOB[queue].sql,
        slots: paced ? most : this.timing.concurrency,
        pacedFrom: paced ? this.timing.concurrency : null,
        pollingIntervalMs: this.timing.pollingIntervalSeconds * 1000,
      },
      (job, pace) => this.#runOne(queue, job, handler, pace),
      (error) => this.logger.error({ err: error, queue }, 'Job queue error'),
    );
    this.#fairWorkers.push({ queue, stop: (timeoutMs) => worker.stop(timeoutMs) });
    worker.start();
  }

  /** Stops working `queue` in this process, however it is worked; its running jobs finish (up to the timeout). */
  async offWork(queue: QueueName, timeoutMs = 10_000): Promise<void> {
    const fair = this.#fairWorkers.filter((worker) => worker.queue === queue);
    for (const worker of fair) this.#fairWorkers.splice(this.#fairWorkers.indexOf(worker), 1);
    await Promise.all([...fair.map((worker) => worker.stop(timeoutMs)), this.boss.offWork(queue)]);
  }

  /** Stops taking jobs and waits (up to the timeout) for the running ones; unfinished ones go back to the queue. */
  async stop(timeoutMs: number): Promise<void> {
    await Promise.all(this.#fairWorkers.splice(0).map((worker) => worker.stop(timeoutMs)));
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
    this.#stopped = true;
  }
}
