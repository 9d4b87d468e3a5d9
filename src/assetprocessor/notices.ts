// The second door: the LMS's submission notices. Each notice is verified (lti/notice.ts), read, and its assets are
// kept in one transaction before the handler answers, since the LMS never sends a notice twice. The LMS's pair
// (submission, asset) names one immutable file: a repeated notice, or the same pair again, adds nothing.
// Claims: https://www.imsglobal.org/spec/lti-pns/v1p0/main ; Canvas: doc/api/document_processor.md
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../db/index.js';
import { NoticeRefused, verifyNotice, type VerifiedNotice } from '../lti/notice.js';
import { SUBMISSION_NOTICE } from '../lti/notice-service.js';

const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
/** Notices one request may carry, and assets one notice may announce. */
export const MAX_NOTICES = 50;
const MAX_ASSETS = 100;

const text = (max: number) => z.string().min(1).max(max);
const asset = z.object({
  asset_id: text(255),
  url: z.string().url().max(4096),
  sha256_checksum: z.string().max(128).optional(),
  size: z.number().int().min(0).optional(),
  content_type: z.string().max(255).optional(),
  title: z.string().max(1000).optional(),
  filename: z.string().max(1000).optional(),
});

const submissionNotice = z.object({
  [`${LTI_CLAIM}/activity`]: z.object({ id: text(255) }),
  [`${LTI_CLAIM}/submission`]: z.object({ id: text(255) }),
  [`${LTI_CLAIM}/for_user`]: z.object({ user_id: text(255) }),
  [`${LTI_CLAIM}/assetreport`]: z.object({ report_url: z.string().url().max(4096) }),
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
  if (!parsed.success) throw new NoticeRefused(400, 'A submission notice lacks its assignment, submission, student, report address or assets.', `claims: ${parsed.error.issues[0]!.path.join('.')}`);
  const claims = parsed.data;
  const assignmentId = await assignmentOf(db, notice.platformId, claims[`${LTI_CLAIM}/activity`].id, claims[`${LTI_CLAIM}/custom`]);
  if (!assignmentId) throw new NoticeRefused(404, 'The tool is not attached to this assignment (its processor was removed or never attached).', `no processor for activity ${claims[`${LTI_CLAIM}/activity`].id}`);
  return { notice, assignmentId, rows: claims[`${LTI_CLAIM}/assetservice`].assets, claims };
}

/**
 * Verifies every notice, then keeps their assets in one transaction: one bad notice refuses the request and keeps
 * nothing. Returns how many assets were new.
 */
export async function receiveNotices(db: Kysely<DatabaseSchema>, jwts: string[]): Promise<{ notices: number; newAssets: number }> {
  const read: ReadNotice[] = [];
  for (const jwt of jwts) read.push(await readNotice(db, jwt));
  const values = read.flatMap(({ notice, assignmentId, rows, claims }) =>
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
  if (values.length === 0) return { notices: read.length, newAssets: 0 };
  // One statement: all of them or none.
  const inserted = await db.insertInto('lms_asset').values(values).onConflict((oc) => oc.constraint('lms_asset_once').doNothing()).returning('id').execute();
  return { notices: read.length, newAssets: inserted.length };
}
