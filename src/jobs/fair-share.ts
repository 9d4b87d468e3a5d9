// A queue whose jobs each call one LMS (a download, an asset report, a grade post) and may hold a slot for long: a
// slow LMS answers after many seconds, a failing one at its deadline. pg-boss 10 takes a queue's jobs oldest first
// and has no share per group (its policies limit one job per key, not per group), so one LMS's burst would hold
// every slot and every other LMS's work would wait behind all of it. The rule, applied where a job is taken, with
// what runs counted in the database (pgboss.job's active rows), since the worker processes share nothing else:
//   - one group holds at most `perGroup` of this process's slots (its slots less one), and no more than its pace
//     (a group whose LMS answers "slow down" gets fewer at once: adaptive-limit.ts, one pace per group);
//   - the last free slot of a process goes only to a group with no job running in any process: another LMS's
//     first job always finds a place at once, in every process, whatever the others' LMSs do;
//   - of the jobs that may start, the one whose group runs the fewest in all processes goes first (then by
//     priority, then the oldest), so that groups with a backlog take turns as slots free up.
// A job's group is a SQL expression over its row `j` in pgboss.job (the queue's LMS_OF_JOB in queues.ts: a field of
// its data, or a lookup of the LMS behind the row the data names); jobs whose group is null form one group.
import type PgBoss from 'pg-boss';
import { AdaptiveLimit } from './adaptive-limit.js';
import type { Queryable } from './queryable.js';
import type { GroupSql, QueueName } from './queues.js';

/**
 * The next job of the queue that may start, marked running as pg-boss marks it, with its group; none when none may.
 * $1 queue, $2 groups that may not start more here, $3 whether only groups running nothing anywhere may, $4 how many
 * of the waiting jobs, first in pg-boss's own order, to choose from (null: all).
 * A job whose key runs already (the queue's stately policy) waits, and leaves its turn to the next.
 */
export const takeSql = (group: GroupSql) => `
  WITH running AS (
    SELECT COALESCE(${group}, '') AS grp, count(*) AS n
      FROM pgboss.job j WHERE j.name = $1 AND j.state = 'active' GROUP BY 1
  ), busy AS (
    SELECT singleton_key FROM pgboss.job WHERE name = $1 AND state = 'active' AND singleton_key IS NOT NULL
  ), head AS (
    SELECT j.id FROM pgboss.job j
     WHERE j.name = $1 AND j.state < 'active' AND j.start_after < now()
     ORDER BY j.priority DESC, j.created_on, j.id
     LIMIT $4
  ), next AS (
    SELECT j.id, g.grp FROM head JOIN pgboss.job j ON j.name = $1 AND j.id = head.id
     CROSS JOIN LATERAL (SELECT COALESCE(${group}, '') AS grp) g
      LEFT JOIN running r ON r.grp = g.grp
     WHERE j.state < 'active'
       AND NOT (g.grp = ANY($2::text[]))
       AND (NOT $3::boolean OR r.n IS NULL)
       AND NOT EXISTS (SELECT 1 FROM busy WHERE busy.singleton_key = j.singleton_key)
     ORDER BY COALESCE(r.n, 0), j.priority DESC, j.created_on, j.id
     LIMIT 1
     FOR UPDATE OF j SKIP LOCKED
  )
  UPDATE pgboss.job j SET state = 'active', started_on = now(),
         retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
    FROM next WHERE j.name = $1 AND j.id = next.id
  RETURNING j.id, j.data, j.retry_count AS "retryCount", next.grp AS "group"`;

/**
 * How many of the first waiting jobs a take chooses from before it looks at all of them: reading each waiting job's
 * group costs, and a backlog of thousands (a gradebook back after an outage) would make every take slow. Only when
 * none of these may start (their groups hold their share) does a take read every waiting job, so that another
 * LMS's job far behind a backlog still finds its place: that happens when a slot is free and nothing near the head
 * may take it, at most once per polling interval or freed slot.
 */
const HEAD = 200;

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

/** PostgreSQL's unique_violation: another process started the key's job between the check and the take. */
const KEY_RUNNING = '23505';

export interface FairJob<T> {
  id: string;
  data: T;
  retryCount: number;
}

export interface FairShareOptions {
  queue: QueueName;
  group: GroupSql;
  /** Jobs this process runs at once: all groups together. */
  slots: number;
  /** A group's pace starts here and goes up to `slots` while its LMS keeps up (null: no pace, `slots` throughout). */
  pacedFrom: number | null;
  pollingIntervalMs: number;
}

/** How many of a process's `slots` one group may hold. */
export const perGroupOf = (slots: number) => Math.max(1, slots - 1);

export class FairShareWorker<T> {
  readonly #running = new Map<string, number>();
  readonly #paces = new Map<string, AdaptiveLimit>();
  readonly #jobs = new Map<string, Promise<void>>();
  readonly #take: string;
  #stopping = false;
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly boss: PgBoss,
    private readonly options: FairShareOptions,
    private readonly run: (job: FairJob<T>, pace: AdaptiveLimit | null) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#take = takeSql(options.group);
  }

  start(): void {
    this.#loop ??= this.#takeWhileOpen();
  }

  async #takeWhileOpen(): Promise<void> {
    while (!this.#stopping) {
      const job =
        this.#jobs.size < this.options.slots
          ? await this.#takeOne().catch((error: unknown) => (this.onError(error), null))
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

  #paceOf(group: string): AdaptiveLimit | null {
    const from = this.options.pacedFrom;
    if (from === null || from >= this.options.slots) return null;
    let pace = this.#paces.get(group);
    if (!pace) this.#paces.set(group, (pace = new AdaptiveLimit(from, this.options.slots)));
    return pace;
  }

  /** How many jobs the group may run here at once now. */
  #capOf(group: string): number {
    return Math.min(perGroupOf(this.options.slots), this.#paceOf(group)?.limit ?? Infinity);
  }

  async #takeOne(): Promise<(FairJob<T> & { group: string }) | null> {
    const full = [...this.#running].filter(([group, n]) => n >= this.#capOf(group)).map(([group]) => group);
    const lastSlot = this.options.slots > 1 && this.options.slots - this.#jobs.size <= 1;
    try {
      for (const head of [HEAD, null]) {
        const found = await this.db.query<FairJob<T> & { group: string }>(this.#take, [
          this.options.queue,
          full,
          lastSlot,
          head,
        ]);
        if (found.rows[0]) return found.rows[0];
      }
      return null;
    } catch (error) {
      if ((error as { code?: string }).code === KEY_RUNNING) return null;
      throw error;
    }
  }

  #begin(job: FairJob<T> & { group: string }): void {
    const { group } = job;
    this.#running.set(group, (this.#running.get(group) ?? 0) + 1);
    const done = this.run({ id: job.id, data: job.data, retryCount: job.retryCount }, this.#paceOf(group))
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
