// A queue whose jobs each belong to a group (the LMS a file is fetched from) and may hold a slot for long (a slow
// LMS's download holds one for up to its deadline). pg-boss 10 takes a queue's jobs oldest first and has no share
// per group (its policies limit one job per key, not per group), so one LMS's burst of slow files would hold every
// slot and every other LMS's file would wait behind all of them. The rule, applied where a job is taken:
//   - one group holds at most `perGroup` of this process's slots (the slots less one: a lone LMS loses one slot,
//     and another LMS's file always finds one free at once);
//   - of the jobs that may start, the one whose group runs the fewest here goes first (then the oldest), so that
//     groups with a backlog take turns as slots free up.
// The job's group is the text of a field of its data (`groupField`); jobs without it are one group.
import type PgBoss from 'pg-boss';
import type { Queryable } from './queryable.js';
import type { QueueName } from './queues.js';

/** The next job of the queue that may start, marked running as pg-boss marks it; null when none may. */
const TAKE = `
  WITH next AS (
    SELECT id FROM pgboss.job
     WHERE name = $1 AND state < 'active' AND start_after < now()
       AND NOT (COALESCE(data->>$2, '') = ANY($3::text[]))
     ORDER BY COALESCE(($4::jsonb ->> COALESCE(data->>$2, ''))::int, 0), priority DESC, created_on, id
     LIMIT 1
     FOR UPDATE SKIP LOCKED
  )
  UPDATE pgboss.job j SET state = 'active', started_on = now(),
         retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
    FROM next WHERE j.name = $1 AND j.id = next.id
  RETURNING j.id, j.data, j.retry_count AS "retryCount"`;

/**
 * A queue run by pg-boss itself (the uploads, whose pace the service sets) takes turns by priority, which pg-boss
 * takes before age: a job waits behind as many of its group's jobs as wait already, so the first job of a group that
 * has none waiting goes before the hundredth of a group that floods the queue.
 */
export async function turnOf(db: Queryable, queue: QueueName, groupField: string, group: string): Promise<number> {
  const found = await db.query<{ waiting: string }>(
    `SELECT count(*) AS waiting FROM pgboss.job WHERE name = $1 AND state < 'active' AND data->>$2 = $3`,
    [queue, groupField, group],
  );
  return -Math.min(Number(found.rows[0]?.waiting ?? 0), 1_000_000);
}

/** PostgreSQL's unique_violation: a job whose key already runs (the queue's stately policy) cannot start yet. */
const KEY_RUNNING = '23505';

export interface FairJob<T> {
  id: string;
  data: T;
  retryCount: number;
}

export interface FairShareOptions {
  queue: QueueName;
  groupField: string;
  slots: number;
  pollingIntervalMs: number;
}

/** How many of a process's `slots` one group may hold. */
export const perGroupOf = (slots: number) => Math.max(1, slots - 1);

export class FairShareWorker<T> {
  readonly #running = new Map<string, number>();
  readonly #jobs = new Map<string, Promise<void>>();
  #stopping = false;
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly boss: PgBoss,
    private readonly options: FairShareOptions,
    private readonly run: (job: FairJob<T>) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.#loop ??= this.#takeWhileOpen();
  }

  async #takeWhileOpen(): Promise<void> {
    while (!this.#stopping) {
      const job =
        this.#jobs.size < this.options.slots
          ? await this.#take().catch((error: unknown) => (this.onError(error), null))
          : null;
      if (job) {
        this.#begin(job);
        continue;
      }
      // Until the polling interval passes, a slot frees, or the worker stops.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollingIntervalMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = null;
    }
  }

  async #take(): Promise<FairJob<T> | null> {
    const perGroup = perGroupOf(this.options.slots);
    const full = [...this.#running].filter(([, n]) => n >= perGroup).map(([group]) => group);
    try {
      const found = await this.db.query<FairJob<T>>(TAKE, [
        this.options.queue,
        this.options.groupField,
        full,
        JSON.stringify(Object.fromEntries(this.#running)),
      ]);
      return found.rows[0] ?? null;
    } catch (error) {
      if ((error as { code?: string }).code === KEY_RUNNING) return null;
      throw error;
    }
  }

  #begin(job: FairJob<T>): void {
    const group = String((job.data as Record<string, unknown>)[this.options.groupField] ?? '');
    this.#running.set(group, (this.#running.get(group) ?? 0) + 1);
    const done = this.run(job)
      .then(
        () => this.boss.complete(this.options.queue, job.id),
        (error: unknown) =>
          this.boss.fail(this.options.queue, job.id, error instanceof Error ? error : new Error(String(error))),
      )
      .then(
        () => undefined,
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        const left = (this.#running.get(group) ?? 1) - 1;
        if (left > 0) this.#running.set(group, left);
        else this.#running.delete(group);
        this.#jobs.delete(job.id);
        this.#wake?.();
      });
    this.#jobs.set(job.id, done);
  }

  /** Stops taking jobs and waits (up to the timeout) for the running ones; unfinished ones go back to the queue. */
  async stop(timeoutMs: number): Promise<void> {
    this.#stopping = true;
    this.#wake?.();
    await this.#loop;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.#jobs.values()),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
    const unfinished = [...this.#jobs.keys()];
    for (const id of unfinished)
      await this.boss.fail(this.options.queue, id, new Error('The process stopped while the job ran'));
  }
}
