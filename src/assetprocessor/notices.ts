// The second door: the LMS's submission notices. Each notice is verified (lti/notice.ts), read, and its assets are
// kept with their fetch jobs in one transaction before the handler answers, since the LMS never sends a notice twice. The LMS's pair
// (submission, asset) names one immutable file: a repeated notice, or the same pair again, adds nothing.
// Claims: https://www.imsglobal.org/spec/lti-pns/v1p0/main ; Canvas: doc/api/document_processor.md
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { NoticeRefused, verifyNotice, type VerifiedNotice } from '../lti/notice.js';
import { SUBMISSION_NOTICE } from '../lti/notice-service.js';
import type { Jobs } from '../jobs/index.js';
import { queueAssetFetches } from './fetch.js';
import { resendReports } from './report-job.js';

const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
/** Notices one request may carry, and assets one notice may announce. */
export const MAX_NOTICES = 50;
const MAX_ASSETS = 100;

/** A string the database can keep: PostgreSQL refuses the NUL character in text. */
const storable = (max: number) => z.string().max(max).refine((value) => !value.includes('\0'), 'holds a NUL character');
const text = (max: number) => storable(max).pipe(z.string().min(1));
/** An address the tool may fetch from or post to: http or https, never file:, ftp: or javascript:. */
const webAddress = storable(4096).pipe(z.string().url()).refine((value) => /^https?:\/\//i.test(value), 'is not an http(s) address');
const asset = z.object({
  asset_id: text(255),
  url: webAddress,
  sha256_checksum: storable(128).optional(),
  size: z.number().int().min(0).optional(),
  content_type: storable(255).optional(),
  title: storable(1000).optional(),
  filename: storable(1000).optional(),
});

const submissionNotice = z.object({
  [`${LTI_CLAIM}/activity`]: z.object({ id: text(255) }),
  [`${LTI_CLAIM}/submission`]: z.object({ id: text(255) }),
  [`${LTI_CLAIM}/for_user`]: z.object({ user_id: text(255) }),
  [`${LTI_CLAIM}/assetreport`]: z.object({ report_url: webAddress }),
  [`${LTI_CLAIM}/assetservice`]: z.object({ assets: z.array(asset).max(MAX_ASSETS) }),
  [`${LTI_CLAIM}/custom`]: z.record(z.string(), z.unknown()).optional(),
});

interface ReadNotice {
  notice: VerifiedNotice;
  assignmentId: string;
  rows: Array<z.infer<typeof asset>>;
  claims: z.infer<typeof submissionNotice>;
}

/** The tool's assignment the notice is for: the processor attached to this LMS assignment, on this platform. */
async function assignmentOf(db: Kysely<DatabaseSchema>, platformId: string, activityId: string, custom: Record<string, unknown> | undefined): Promise<string | null> {
  // A processor attached to a draft has no activity id yet; its content item's custom assignment_id names it.
  const named = z.string().uuid().safeParse(custom?.assignment_id);
  const row = await db
    .selectFrom('assignment')
    .select('id')
    .where('platform_id', '=', platformId)
    .where('kind', '=', 'asset-processor')
    .where((eb) => (named.success ? eb.or([eb('activity_id', '=', activityId), eb('id', '=', named.data)]) : eb('activity_id', '=', activityId)))
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.id ?? null;
}

async function readNotice(db: Kysely<DatabaseSchema>, jwt: string): Promise<ReadNotice> {
  const notice = await verifyNotice(db, jwt, [SUBMISSION_NOTICE]);
  const parsed = submissionNotice.safeParse(notice.claims);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map((part) => String(part).replace(`${LTI_CLAIM}/`, '')).join('.');
    throw new NoticeRefused(400, `A submission notice lacks its assignment, submission, student, report address or assets, or one of them cannot be used (${field.slice(0, 200)}: ${issue.message}).`, `claims: ${field}`);
  }
  const claims = parsed.data;
  const assignmentId = await assignmentOf(db, notice.platformId, claims[`${LTI_CLAIM}/activity`].id, claims[`${LTI_CLAIM}/custom`]);
  if (!assignmentId) throw new NoticeRefused(404, 'The tool is not attached to this assignment (its processor was removed or never attached).', `no processor for activity ${claims[`${LTI_CLAIM}/activity`].id}`);
  return { notice, assignmentId, rows: claims[`${LTI_CLAIM}/assetservice`].assets, claims };
}

/**
 * Verifies every notice, then keeps their assets and queues their work in one transaction: one bad notice refuses
 * the request and keeps nothing. An asset seen before ("Resubmit all files", or a notice sent again) starts no second
 * check: one that failed is fetched and checked again, any other has its latest reports sent again.
 * Returns how many assets were new.
 */
export async function receiveNotices(db: Kysely<DatabaseSchema>, jobs: Jobs, jwts: string[]): Promise<{ notices: number; newAssets: number; checkedAgain: number }> {
  const read: ReadNotice[] = [];
  for (const jwt of jwts) read.push(await readNotice(db, jwt));
  const announced = read.flatMap(({ notice, assignmentId, rows, claims }) =>
    rows.map((row) => ({
      assignment_id: assignmentId,
      lms_submission_id: claims[`${LTI_CLAIM}/submission`].id,
      asset_id: row.asset_id,
      lms_user_id: claims[`${LTI_CLAIM}/for_user`].user_id,
      notice_id: notice.id,
      url: row.url,
      report_url: claims[`${LTI_CLAIM}/assetreport`].report_url,
      sha256: row.sha256_checksum ?? null,
      size: row.size ?? null,
      content_type: row.content_type ?? null,
      title: row.title ?? null,
      filename: row.filename ?? null,
    })),
  );
  // One row per file: the same file twice in one request (two notices, or one notice naming it twice) is one upsert,
  // which PostgreSQL refuses to apply to a row twice in one statement. The later announcement wins.
  const values = [...new Map(announced.map((value) => [JSON.stringify([value.assignment_id, value.lms_submission_id, value.asset_id]), value])).values()];
  if (values.length === 0) return { notices: read.length, newAssets: 0, checkedAgain: 0 };
  return db.transaction().execute(async (trx) => {
    // A pair seen before keeps its file's description; the newest notice says where to fetch it and report on it.
    const kept = await trx
      .insertInto('lms_asset')
      .values(values)
      .onConflict((oc) => oc.constraint('lms_asset_once').doUpdateSet((eb) => ({ url: eb.ref('excluded.url'), report_url: eb.ref('excluded.report_url'), notice_id: eb.ref('excluded.notice_id') })))
      .returning(['id', 'state', 'submission_id', sql<boolean>`xmax = 0`.as('inserted')])
      .execute();
    const fresh = kept.filter((row) => row.inserted).map((row) => row.id);
    const seen = kept.filter((row) => !row.inserted);
    const papers = [...new Set(seen.flatMap((row) => (row.submission_id === null ? [] : [row.submission_id])))];
    const failedPapers = new Set(papers.length === 0 ? [] : (await trx.selectFrom('submission').select('id').where('id', 'in', papers).where('state', '=', 'failed').execute()).map((row) => row.id));
    const again = seen.filter((row) => row.state === 'failed' || (row.submission_id !== null && failedPapers.has(row.submission_id))).map((row) => row.id);
    if (again.length > 0) {
      await trx.updateTable('lms_asset').set({ state: 'received', submission_id: null, error_code: null, error_comment: null }).where('id', 'in', again).execute();
    }
    await queueAssetFetches(jobs, [...fresh, ...again], { db: trx, inTransaction: true });
    const resend = seen.filter((row) => !again.includes(row.id) && row.state === 'admitted').map((row) => row.id);
    await resendReports(trx, jobs, resend, trx);
    return { notices: read.length, newAssets: fresh.length, checkedAgain: again.length };
  });
}
