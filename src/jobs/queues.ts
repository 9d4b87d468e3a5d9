// The tool's job queues, by what their jobs do, each with its payload: what a job of it carries, declared once here as
// a zod schema. Jobs.send takes the payload its queue declares and queues what the schema makes of it; a handler gets
// the job's data as the schema parses it (Jobs.work); and the fair-share grouping of the queues that call an LMS
// names the payload's fields through it (LMS_OF_JOB), so that a field renamed or removed is a type error there, and a
// grouping that names a field its payload lacks is refused when this module loads. A job's key is the submission or
// assignment it acts on.
import { z } from 'zod';

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
  /** Download an asset an LMS announced (Asset Processor) and admit it as a submission. */
  assetFetch: 'asset-fetch',
  /** Post an asset's report to the LMS (Asset Processor): what its submission's state is now. */
  assetReport: 'asset-report',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
/** Every queue's name, in the order above. */
export const QUEUE_NAMES = Object.values(QUEUES) as [QueueName, ...QueueName[]];

/** What each queue's job carries. */
export const PAYLOADS = {
  /** The submission whose file is sent, and its LMS: each LMS's uploads take turns with the others' (admit.ts). */
  [QUEUES.upload]: z.object({ submissionId: z.string(), platformId: z.string().optional() }),
  /** The submission asked about, and how many times it was asked before (its step in POLL_SCHEDULE_SECONDS). */
  [QUEUES.poll]: z.object({ submissionId: z.string(), round: z.number().int().nonnegative().optional() }),
  /** One submission's paper, or (announced before its upload recorded it) a paper id. */
  [QUEUES.result]: z.object({ submissionId: z.string().optional(), paperId: z.number().int().optional() }),
  /** The assignment whose folder is made or set. */
  [QUEUES.folder]: z.object({ assignmentId: z.string() }),
  /**
   * A submission's score to post (`resync`: posted again on request, whatever the gradebook acknowledged earlier),
   * or a student's cell to empty when no attempt owns it any more.
   */
  [QUEUES.grade]: z.object({
    submissionId: z.string().optional(),
    resync: z.boolean().optional(),
    clear: z.object({ assignmentId: z.string(), userId: z.string() }).optional(),
  }),
  /** The asset to download, and the LMS it comes from. */
  [QUEUES.assetFetch]: z.object({ assetRowId: z.string(), platformId: z.string().optional() }),
  /** The asset whose reports are posted. */
  [QUEUES.assetReport]: z.object({ assetRowId: z.string() }),
} satisfies Record<QueueName, z.ZodObject>;

/** The data of a job of the queue, as its payload's schema declares it. */
export type JobData<Q extends QueueName> = z.output<(typeof PAYLOADS)[Q]>;

/** A job's data as its queue's payload reads it; throws (naming what is wrong) when it is not that payload. */
export function payloadOf<Q extends QueueName>(queue: Q, data: unknown): JobData<Q> {
  return (PAYLOADS[queue] as z.ZodType).parse(data) as JobData<Q>;
}

/** A field of `T`, or a field of an object field of it. */
type PathsOf<T> = {
  [K in keyof T]-?: K extends string
    ? [K] | (NonNullable<T[K]> extends Record<string, unknown> ? [K, keyof NonNullable<T[K]> & string] : never)
    : never;
}[keyof T];
/** A path into the queue's job data that its payload declares. */
export type DataPath<Q extends QueueName> = PathsOf<JobData<Q>>;

/** A group's SQL: an expression over the job's row `j` in pgboss.job, trusted text of the tool's own (never input). */
export type GroupSql = string & { readonly groupSql: unique symbol };

/** How a queue's jobs are grouped: the SQL, and the paths into the job's data that it reads. */
export interface JobGroup {
  sql: GroupSql;
  reads: ReadonlyArray<readonly string[]>;
}

/** The schema of the field at `path` in the queue's payload, or undefined when the payload declares none there. */
export function fieldAt(queue: QueueName, path: readonly string[]): z.ZodType | undefined {
  let schema: z.ZodType | undefined = PAYLOADS[queue];
  for (const name of path) {
    while (schema instanceof z.ZodOptional) schema = schema.unwrap() as z.ZodType;
    schema = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>)[name] : undefined;
  }
  return schema;
}

/**
 * The grouping `sql` writes, given `at`: the SQL text of a path into the job's data (null where it is absent). A path
 * the queue's payload does not declare is refused here (and is a type error where the grouping is written).
 */
export function groupOf<Q extends QueueName>(
  queue: Q,
  sql: (at: (...path: DataPath<Q>) => string) => string,
): JobGroup {
  const reads: string[][] = [];
  const at = (...path: string[]) => {
    if (!fieldAt(queue, path)) throw new Error(`The payload of ${queue} has no field ${path.join('.')}`);
    reads.push(path);
    return `(j.data #>> '{${path.join(',')}}')`;
  };
  return { sql: `(${sql(at as (...path: DataPath<Q>) => string)})` as GroupSql, reads };
}

const UUID = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`;
/** A text as a uuid, or null when it is none (a job of another shape). */
const asUuid = (text: string) => `CASE WHEN ${text} ~ ${UUID} THEN ${text}::uuid END`;

/**
 * Which LMS (platform) each job that calls an LMS calls, as SQL over its row: the worker gives each LMS its share of
 * these queues' places by it (fair-share.ts). A job's data names the row it acts on; the LMS is read from that row
 * when the job is taken, so every job has its LMS. An id that is not a uuid gives no LMS: such jobs share one group.
 */
export const LMS_OF_JOB = {
  /** A download names its LMS itself. */
  [QUEUES.assetFetch]: groupOf(QUEUES.assetFetch, (at) => at('platformId')),
  /** An asset report: the LMS of the asset's assignment. */
  [QUEUES.assetReport]: groupOf(
    QUEUES.assetReport,
    (at) => `
      SELECT a.platform_id::text FROM lms_asset x JOIN assignment a ON a.id = x.assignment_id
       WHERE x.id = ${asUuid(at('assetRowId'))}`,
  ),
  /** A grade post: the LMS of the submission's assignment; a cell's emptying: the LMS of the cell's assignment. */
  [QUEUES.grade]: groupOf(
    QUEUES.grade,
    (at) => `
      SELECT a.platform_id::text FROM assignment a
       WHERE a.id = COALESCE(
         (SELECT s.assignment_id FROM submission s WHERE s.id = ${asUuid(at('submissionId'))}),
         ${asUuid(at('clear', 'assignmentId'))})`,
  ),
} satisfies Partial<Record<QueueName, JobGroup>>;

/** A queue whose jobs each call one LMS, and take that LMS's share of the queue's places. */
export type FairQueue = keyof typeof LMS_OF_JOB;
