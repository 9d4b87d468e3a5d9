// Background jobs on pg-boss, in the tool's own PostgreSQL database and over its own pool. pg-boss polls
// (LISTEN/NOTIFY would not cross PGlite's socket) and keeps retries, backoff and singleton keys.
import PgBoss from 'pg-boss';
import type pg from 'pg';

export const QUEUES = {
  /** Send a received submission's file to the service. */
  upload: 'submission-upload',
  /** Ask the service whether a paper still being analysed is done. */
  poll: 'submission-poll',
  /** Read a finished paper back from the service (after a callback or a poll) and store its result. */
  result: 'submission-result',
  /** Create an assignment's folder at the service, or apply its settings to it. */
  folder: 'assignment-folder',
  /** Post a submission's score to the LMS gradebook. */
  grade: 'grade-post',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

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
}

export type JobHandler<T> = (job: { id: string; data: T; retryCount: number }) => Promise<void>;

export class Jobs {
  readonly boss: PgBoss;

  constructor(
    pool: pg.Pool,
    private readonly timing: JobTiming,
    private readonly logger: JobsLogger,
  ) {
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => pool.query(text, values) },
      // Completed jobs are kept a week for the admin page, failed ones a month.
      archiveCompletedAfterSeconds: 7 * 86_400,
      archiveFailedAfterSeconds: 30 * 86_400,
    });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'Job queue error'));
  }

  /** Creates pg-boss's schema and the queues; every process calls it, and it is safe to run at once. */
  async start(): Promise<void> {
    await this.boss.start();
    for (const name of Object.values(QUEUES)) {
      if (await this.boss.getQueue(name)) continue;
      await this.boss
        .createQueue(name, {
          name,
          // One queued and one running job per key (a submission, an assignment): a repeated send is harmless.
          policy: 'stately',
          retryLimit: this.timing.retryLimit,
          retryDelay: this.timing.retryDelaySeconds,
          retryBackoff: true,
          expireInSeconds: 15 * 60,
        })
        .catch(async (error: unknown) => {
          if (!(await this.boss.getQueue(name))) throw error; // another process created it first: fine
        });
    }
  }

  async send<T extends object>(queue: QueueName, data: T, options: { key: string; startAfterSeconds?: number }): Promise<string | null> {
    return this.boss.send(queue, data, {
      singletonKey: options.key,
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    });
  }

  /** Runs `handler` for each job of the queue; a throw makes pg-boss retry it with backoff, up to the limit. */
  async work<T extends object>(queue: QueueName, handler: JobHandler<T>): Promise<void> {
    await this.boss.work<T>(queue, { pollingIntervalSeconds: this.timing.pollingIntervalSeconds, batchSize: 1, includeMetadata: true }, async (jobs) => {
      for (const job of jobs) {
        try {
          await handler({ id: job.id, data: job.data, retryCount: job.retryCount });
        } catch (error) {
          this.logger.warn({ err: error, queue, jobId: job.id, retryCount: job.retryCount }, 'Job failed; it will be retried while retries remain');
          throw error;
        }
      }
    });
  }

  /** Stops taking jobs and waits (up to the timeout) for the running ones; unfinished ones go back to the queue. */
  async stop(timeoutMs: number): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
  }
}
