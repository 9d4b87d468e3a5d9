// The second door: the LMS's submission notices. Each notice is verified (lti/notice.ts), read, and its assets are
// kept with their fetch and first report jobs in one transaction before the handler answers, since Canvas never sends
// a notice twice. The LMS's pair (submission, asset) names one immutable file: a repeated notice, or the same pair
// again, adds nothing. Claims are read under each LMS's names (lti/claims.ts), after verification.
// Claims: https://www.imsglobal.org/spec/lti-pns/v1p0/main ; Canvas: doc/api/document_processor.md ; Blackboard Learn
// Ultra: blackboard/BBDN-LTI-Tool-Provider-Node docs/pns.md (fixtures in test/fixtures/lms/)
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { ASSIGNMENT_PARAMETER } from '../assignments/placement.js';
import type { DatabaseSchema } from '../db/index.js';
import { assetReportClaim, CLAIM, httpAddress, scopeAsListed, withStandardNames } from '../lti/claims.js';
import { NoticeRefused, verifyNotice, type VerifiedNotice } from '../lti/notice.js';
import { SUBMISSION_NOTICE } from '../lti/notice-service.js';
import type { Jobs } from '../jobs/index.js';
import type { Logger } from '../observe/logger.js';
import { readChecksum, storedChecksum } from './checksum.js';
import { queueAssetFetches } from './fetch.js';
import { queueAssetReports, resendReports } from './report-job.js';
import { attachOnNotice, fromMoodle } from './moodle.js';

/** Notices one request may carry, and assets one notice may announce. */
export const MAX_NOTICES = 50;
const MAX_ASSETS = 100;

/** A string the database can keep: PostgreSQL refuses the NUL character in text. */
const storable = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !value.includes('\0'), 'holds a NUL character');
const text = (max: number) => storable(max).pipe(z.string().min(1));
const scopes = z.array(z.string().max(1000)).max(20).optional().catch(undefined);
const asset = z.object({
  asset_id: text(255),
  url: httpAddress,
  /** Canvas: base64 of the SHA-256. */
  sha256_checksum: storable(128).optional(),
  /** Blackboard: base64 of an MD5, with `checksum_algorithm` beside it where a tool has seen one. */
  checksum: storable(128).optional(),
  checksum_algorithm: storable(32).optional(),
  size: z.number().int().min(0).optional(),
  content_type: storable(255).optional(),
  title: storable(1000).optional(),
  filename: storable(1000).optional(),
});

/** What a submission notice must carry and may carry, read under the standard names (lti/claims.ts). */
export const submissionNoticeClaims = z.object({
  [CLAIM.activity]: z.object({ id: text(255) }),
  [CLAIM.submission]: z.object({ id: text(255) }),
  [CLAIM.forUser]: z.object({ user_id: text(255) }),
  // In every notice for Canvas and the specification, in none for Blackboard (lti/claims.ts).
  [CLAIM.assetReport]: assetReportClaim.optional(),
  [CLAIM.assetService]: z.object({ assets: z.array(asset).max(MAX_ASSETS), scope: scopes }),
  [CLAIM.custom]: z.record(z.string(), z.unknown()).optional(),
  [CLAIM.context]: z.object({ id: text(255) }).optional(),
  [CLAIM.deploymentId]: text(255),
});
type NoticeClaims = z.infer<typeof submissionNoticeClaims>;

interface ReadNotice {
  notice: VerifiedNotice;
  assignmentId: string;
  claims: NoticeClaims;
}

/** A Moodle submission removed (moodle.ts): its notice names no files. Null assignment: the tool never had it. */
interface Removal {
  assignmentId: string | null;
  lmsSubmissionId: string;
}

/**
 * The tool's assignment the notice is for: the processor bound to this LMS assignment on this platform (and in the
 * notice's course, when it names one). A processor attached while the LMS assignment was a draft has no activity id
 * yet: its content item's custom assignment_id names it, and it is bound now, once, only when the notice names the
 * same course. A course copy carries the original processor's custom assignment_id; the original is bound to its own
 * activity already, so the copy's notice finds nothing and is refused, never filed in the original course.
 */
async function assignmentOf(
  db: Kysely<DatabaseSchema>,
  platformId: string,
  claims: NoticeClaims,
): Promise<string | null> {
  const activityId = claims[CLAIM.activity].id;
  const contextId = claims[CLAIM.context]?.id;
  const course = contextId
    ? await db
        .selectFrom('course')
        .select('id')
        .where('platform_id', '=', platformId)
        .where('deployment_id', '=', claims[CLAIM.deploymentId])
        .where('context_id', '=', contextId)
        .executeTakeFirst()
    : undefined;
  if (contextId && !course) return null; // a course the tool has never seen holds none of its processors
  let bound = db
    .selectFrom('assignment')
    .select('id')
    .where('platform_id', '=', platformId)
    .where('kind', '=', 'asset-processor')
    .where('activity_id', '=', activityId);
  if (course) bound = bound.where('course_id', '=', course.id);
  const found = await bound.orderBy('created_at', 'desc').executeTakeFirst();
  if (found) return found.id;
  const named = z.string().uuid().safeParse(claims[CLAIM.custom]?.[ASSIGNMENT_PARAMETER]);
  if (!named.success || !course) return null;
  const claimed = await db
    .updateTable('assignment')
    .set({ activity_id: activityId })
    .where('id', '=', named.data)
    .where('platform_id', '=', platformId)
    .where('course_id', '=', course.id)
    .where('kind', '=', 'asset-processor')
    .where('activity_id', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return claimed?.id ?? null;
}

async function readNotice(db: Kysely<DatabaseSchema>, jobs: Jobs, jwt: string): Promise<ReadNotice | Removal> {
  const notice = await verifyNotice(db, jwt, [SUBMISSION_NOTICE]);
  const parsed = submissionNoticeClaims.safeParse(withStandardNames(notice.claims));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path
      .map((part) => String(part).replace(/^https:\/\/purl\.imsglobal\.org\/spec\//, ''))
      .join('.');
    throw new NoticeRefused(
      400,
      `A submission notice lacks its assignment, submission, student or assets, or one of them cannot be used (${field.slice(0, 200)}: ${issue.message}).`,
      `claims: ${field}`,
    );
  }
  const claims = parsed.data;
  const found = await assignmentOf(db, notice.platformId, claims);
  const moodle =
    !found || claims[CLAIM.assetService].assets.length === 0
      ? await fromMoodle(db, notice.platformId, notice.claims)
      : false;
  if (moodle && claims[CLAIM.assetService].assets.length === 0)
    return { assignmentId: found, lmsSubmissionId: claims[CLAIM.submission].id };
  // A Moodle assignment is attached by its first notice (moodle.ts): Moodle has no deep-linking step for it.
  const assignmentId =
    found ?? (moodle ? await attachOnNotice(db, jobs, notice.platformId, withStandardNames(notice.claims)) : null);
  if (!assignmentId) {
    throw new NoticeRefused(
      404,
      'The tool is not attached to this assignment in this course (its processor was removed, never attached, or belongs to the course this one was copied from). Attach the tool to the assignment again.',
      `no processor for activity ${claims[CLAIM.activity].id}`,
    );
  }
  return { notice, assignmentId, claims };
}

/** What an asset's checksum fields say; one the tool cannot read is logged and the file is checked by size and type. */
function checksumOf(row: z.infer<typeof asset>, logger: Pick<Logger, 'warn'> | undefined): string | null {
  const declared = readChecksum({
    sha256: row.sha256_checksum,
    other: row.checksum,
    algorithm: row.checksum_algorithm,
  });
  if (!declared && (row.sha256_checksum ?? row.checksum) !== undefined) {
    logger?.warn(
      {
        assetId: row.asset_id,
        checksumLength: (row.sha256_checksum ?? row.checksum)!.length,
        algorithm: row.checksum_algorithm,
      },
      "An asset's checksum could not be read; the file is checked by its size and type only",
    );
  }
  return storedChecksum(declared);
}

/**
 * Forgets the files of removed Moodle submissions: their assets go (their report jobs then find nothing to post, and
 * "View report" nothing to open); the papers the tool checked stay under the tool's own deletion, by an instructor.
 */
async function forgetRemoved(db: Kysely<DatabaseSchema>, removals: Removal[]): Promise<void> {
  for (const { assignmentId, lmsSubmissionId } of removals) {
    if (assignmentId === null) continue;
    await db
      .deleteFrom('lms_asset')
      .where('assignment_id', '=', assignmentId)
      .where('lms_submission_id', '=', lmsSubmissionId)
      .execute();
  }
}

/**
 * Verifies every notice, then keeps their assets and queues their work in one transaction: one bad notice refuses
 * the request and keeps no asset (a Moodle assignment a good notice before it attached stays attached, and a removal
 * before it stays done: both are what the same notice sent again would do). An asset seen before ("Resubmit all files", or a notice sent again) starts no second
 * check: one that failed is fetched and checked again, any other has its latest reports sent again.
 * Returns how many assets were new.
 */
export async function receiveNotices(
  db: Kysely<DatabaseSchema>,
  jobs: Jobs,
  jwts: string[],
  logger?: Pick<Logger, 'warn'>,
): Promise<{ notices: number; newAssets: number; checkedAgain: number }> {
  const read: ReadNotice[] = [];
  const removals: Removal[] = [];
  for (const jwt of jwts) {
    const one = await readNotice(db, jobs, jwt);
    if ('notice' in one) read.push(one);
    else removals.push(one);
  }
  await forgetRemoved(db, removals);
  const announced = read.flatMap(({ notice, assignmentId, claims }) => {
    const report = claims[CLAIM.assetReport];
    return claims[CLAIM.assetService].assets.map((row) => ({
      assignment_id: assignmentId,
      lms_submission_id: claims[CLAIM.submission].id,
      asset_id: row.asset_id,
      lms_user_id: claims[CLAIM.forUser].user_id,
      notice_id: notice.id,
      url: row.url,
      report_url: report?.report_url ?? null,
      read_scope: scopeAsListed('assetRead', claims[CLAIM.assetService].scope),
      report_scope: report ? scopeAsListed('report', report.scope) : null,
      checksum: checksumOf(row, logger),
      size: row.size ?? null,
      content_type: row.content_type ?? null,
      title: row.title ?? null,
      filename: row.filename ?? null,
    }));
  });
  // One row per file: the same file twice in one request (two notices, or one notice naming it twice) is one upsert,
  // which PostgreSQL refuses to apply to a row twice in one statement. The later announcement wins.
  const values = [
    ...new Map(
      announced.map((value) => [JSON.stringify([value.assignment_id, value.lms_submission_id, value.asset_id]), value]),
    ).values(),
  ];
  const notices = read.length + removals.length;
  if (values.length === 0) return { notices, newAssets: 0, checkedAgain: 0 };
  return db.transaction().execute(async (trx) => {
    // A pair seen before keeps its file's description; the newest notice says where to fetch it and report on it.
    const kept = await trx
      .insertInto('lms_asset')
      .values(values)
      .onConflict((oc) =>
        oc.constraint('lms_asset_once').doUpdateSet((eb) => ({
          url: eb.ref('excluded.url'),
          // A notice without a report address (Blackboard's) leaves the one an earlier notice named.
          report_url: eb.fn.coalesce('excluded.report_url', 'lms_asset.report_url'),
          report_scope: eb.fn.coalesce('excluded.report_scope', 'lms_asset.report_scope'),
          read_scope: eb.ref('excluded.read_scope'),
          notice_id: eb.ref('excluded.notice_id'),
        })),
      )
      .returning(['id', 'state', 'submission_id', sql<boolean>`xmax = 0`.as('inserted')])
      .execute();
    const fresh = kept.filter((row) => row.inserted).map((row) => row.id);
    const seen = kept.filter((row) => !row.inserted);
    const papers = [...new Set(seen.flatMap((row) => (row.submission_id === null ? [] : [row.submission_id])))];
    const failedPapers = new Set(
      papers.length === 0
        ? []
        : (
            await trx
              .selectFrom('submission')
              .select('id')
              .where('id', 'in', papers)
              .where('state', '=', 'failed')
              .execute()
          ).map((row) => row.id),
    );
    const again = seen
      .filter((row) => row.state === 'failed' || (row.submission_id !== null && failedPapers.has(row.submission_id)))
      .map((row) => row.id);
    if (again.length > 0) {
      await trx
        .updateTable('lms_asset')
        .set({ state: 'received', submission_id: null, error_code: null, error_comment: null, fetch_started_at: null })
        .where('id', 'in', again)
        .execute();
    }
    await queueAssetFetches(jobs, [...fresh, ...again], { db: trx, inTransaction: true });
    // The LMS shows "Processing" beside each file as soon as the tool holds it, before any download.
    await queueAssetReports(jobs, [...fresh, ...again], trx);
    const resend = seen.filter((row) => !again.includes(row.id) && row.state === 'admitted').map((row) => row.id);
    await resendReports(trx, jobs, resend, trx);
    return { notices, newAssets: fresh.length, checkedAgain: again.length };
  });
}
