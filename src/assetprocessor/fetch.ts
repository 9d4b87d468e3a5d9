// The fetch job: one asset an LMS announced becomes a submission of the assignment, through the same admission as
// the tool's own upload page (submissions/admit.ts), so the same exactly-once upload, callback and polling follow.
// A file that cannot be checked ends as a failed asset with the specification's error code; a download that may pass
// later is tried again a few times first, all within ASSET_DOWNLOAD_GIVE_UP_SECONDS (10 minutes) of the first try, so
// the instructor learns of a file the LMS keeps failing to serve while the deadline still matters. Either way the
// asset's report job tells the LMS.
import { sql, type Kysely } from 'kysely';
import type { PlatformLookup } from '../lti/platform.js';
import { maxFileBytes } from '../assignments/settings.js';
import { getAssignment } from '../assignments/store.js';
import type { DatabaseSchema } from '../db/index.js';
import type { MinRate } from '../lti/platform-http.js';
import { QUEUES, type JobData, type Jobs } from '../jobs/index.js';
import { admitFile, SubmitRefused, type AdmitDeps } from '../submissions/admit.js';
import { attemptsOf } from '../submissions/store.js';
import { assetRow } from './asset-row.js';
import { checksumFromStore } from './checksum.js';
import { AssetUnusable, downloadAsset, type AssetErrorCode } from './download.js';
import { queueAssetReports } from './report-job.js';
import { EULA_NOT_ACCEPTED } from './eula.js';

/** The download job's data: its payload, declared with its queue (jobs/queues.ts). */
export type AssetFetchJob = JobData<typeof QUEUES.assetFetch>;

export interface AssetFetchDeps extends AdmitDeps {
  provider: PlatformLookup;
  /** When the EULA is on: whether this student has not accepted it (then the file is not checked). */
  eulaRefuses?: (asset: { assignmentId: string; lmsUserId: string }) => Promise<boolean>;
  /** The deadline of one download, token included (ASSET_DOWNLOAD_TIMEOUT_SECONDS); two minutes unless told. */
  downloadTimeoutMs?: number;
  /** All tries of one asset end within this time of the first (ASSET_DOWNLOAD_GIVE_UP_SECONDS); ten minutes unless told. */
  downloadGiveUpMs?: number;
  /** The least a download must keep sending (ASSET_DOWNLOAD_MIN_KB_PER_SECOND); none unless told. */
  downloadMinRate?: MinRate | null;
}

/** A download that may pass later is tried this many times at most (fewer when jobs are retried fewer times). */
export const ASSET_DOWNLOAD_TRIES = 4;
/** The deadline of one download, token included, unless ASSET_DOWNLOAD_TIMEOUT_SECONDS says otherwise. */
const DOWNLOAD_TIMEOUT_MS = 120_000;
/** Every try of one asset within this time of the first, unless ASSET_DOWNLOAD_GIVE_UP_SECONDS says otherwise. */
const DOWNLOAD_GIVE_UP_MS = 600_000;
/** A try given less time than this is not worth starting. */
const SHORTEST_TRY_MS = 5_000;

/** The longest wait pg-boss puts before the retry after try `tryNumber` (jobs/index.ts: between d·2^(n-1) and d·2^n). */
const longestRetryWaitMs = (retryDelaySeconds: number, tryNumber: number) => retryDelaySeconds * 2 ** tryNumber * 1000;

/** The student, as the tool knows people: the LMS's user id on that platform (a notice may be the first sign of them). */
async function studentOf(db: Kysely<DatabaseSchema>, platformId: string, subject: string): Promise<string> {
  const row = await db
    .insertInto('lti_user')
    .values({ platform_id: platformId, subject, name: null, email: null })
    .onConflict((oc) => oc.constraint('lti_user_platform_subject').doUpdateSet({ subject }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The asset's outcome, recorded once (only while it still waits) with its report job in the same commit. */
async function settle(
  deps: Pick<AssetFetchDeps, 'db' | 'jobs'>,
  assetRowId: string,
  outcome:
    | { state: 'admitted'; submission_id: string }
    | { state: 'failed'; error_code: AssetErrorCode; error_comment: string },
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable('lms_asset')
      .set(outcome)
      .where('id', '=', assetRowId)
      .where('state', '=', 'received')
      .executeTakeFirst();
    if (moved.numUpdatedRows > 0n) await queueAssetReports(deps.jobs, [assetRowId], trx);
  });
}

const fail = (deps: Pick<AssetFetchDeps, 'db' | 'jobs'>, assetRowId: string, code: AssetErrorCode, comment: string) =>
  settle(deps, assetRowId, { state: 'failed', error_code: code, error_comment: comment });

/** Notes when the asset's first download began (once: a try that finds it set keeps it). */
async function startFirstTry(db: Kysely<DatabaseSchema>, assetRowId: string): Promise<Date> {
  const row = await db
    .updateTable('lms_asset')
    .set((eb) => ({ fetch_started_at: eb.fn.coalesce('fetch_started_at', sql<Date>`now()`) }))
    .where('id', '=', assetRowId)
    .returning('fetch_started_at')
    .executeTakeFirstOrThrow();
  return row.fetch_started_at ?? new Date();
}

/** Runs the fetch job of one asset; `tryNumber` counts from 1. Throws to be tried again. */
export async function fetchAsset(deps: AssetFetchDeps, job: AssetFetchJob, tryNumber: number): Promise<void> {
  const asset = await assetRow(deps.db, job.assetRowId);
  if (!asset || asset.state !== 'received') return; // done already, or removed with its assignment
  const assignment = await getAssignment(deps.db, asset.assignment_id);
  if (!assignment) return;
  if (
    deps.eulaRefuses &&
    (await deps.eulaRefuses({ assignmentId: asset.assignment_id, lmsUserId: asset.lms_user_id }))
  ) {
    return fail(
      deps,
      asset.id,
      EULA_NOT_ACCEPTED,
      'The student has not accepted the checking service\'s terms of use, so the file was not checked. Once they have, use "Resubmit all files".',
    );
  }
  const platform = await deps.provider.getPlatform(asset.issuer, asset.client_id);
  if (!platform)
    return fail(
      deps,
      asset.id,
      'DOWNLOAD_FAILED',
      'The LMS is no longer registered with the tool, so the file could not be fetched.',
    );

  // The time left of the asset's budget, counted from its first try (not from the notice: a queue of other files'
  // downloads ahead of it is no fault of the LMS's).
  const giveUpMs = deps.downloadGiveUpMs ?? DOWNLOAD_GIVE_UP_MS;
  const startedAt = asset.fetch_started_at ?? (await startFirstTry(deps.db, asset.id));
  const leftMs = giveUpMs - (Date.now() - startedAt.getTime());
  if (leftMs < SHORTEST_TRY_MS) {
    return fail(
      deps,
      asset.id,
      'DOWNLOAD_FAILED',
      `The file could not be fetched from the LMS within ${Math.round(giveUpMs / 60_000)} minutes of trying. Use "Resubmit all files" to try again.`,
    );
  }
  let file;
  const tryStarted = Date.now();
  try {
    file = await downloadAsset(
      deps.db,
      platform,
      {
        url: asset.url,
        size: asset.size === null ? null : Number(asset.size),
        checksum: checksumFromStore(asset.checksum),
        readScope: asset.read_scope,
        contentType: asset.content_type,
        title: asset.title,
        filename: asset.filename,
      },
      {
        maxBytes: maxFileBytes(assignment.settings),
        timeoutMs: Math.min(deps.downloadTimeoutMs ?? DOWNLOAD_TIMEOUT_MS, leftMs),
        minRate: deps.downloadMinRate ?? null,
      },
    );
  } catch (error) {
    if (!(error instanceof AssetUnusable)) throw error;
    const lastTry = tryNumber >= Math.min(ASSET_DOWNLOAD_TRIES, deps.jobs.retryLimit + 1);
    // Another try only when it can start, and have a few seconds, before the budget runs out.
    const leftAfter = leftMs - (Date.now() - tryStarted) - longestRetryWaitMs(deps.jobs.retryDelaySeconds, tryNumber);
    if (error.retry && !lastTry && leftAfter >= SHORTEST_TRY_MS) throw error;
    return fail(deps, asset.id, error.code, error.comment);
  }

  const userId = await studentOf(deps.db, asset.platform_id, asset.lms_user_id);
  let admitted;
  try {
    // The LMS decides who may submit, when, and how often: no attempt rule of the tool's applies.
    admitted = await admitFile(
      deps,
      { assignment, userId, previous: await attemptsOf(deps.db, assignment.id, userId, 'counted'), late: false },
      file,
    );
  } catch (error) {
    if (!(error instanceof SubmitRefused)) throw error;
    return fail(deps, asset.id, error.status === 400 ? 'ASSET_TOO_SMALL' : 'UNSUPPORTED_ASSET_TYPE', error.message);
  }
  // An identical earlier file's submission stands for this one too (admit.ts); either way the asset points at it.
  await settle(deps, asset.id, { state: 'admitted', submission_id: admitted.receipt.submissionId });
}

/** Queues the fetch jobs of newly kept assets, each named with its LMS; `db` (a transaction) keeps them with the assets. */
export async function queueAssetFetches(
  jobs: Jobs,
  assetRowIds: string[],
  options: { db: Kysely<DatabaseSchema>; inTransaction?: boolean },
): Promise<void> {
  if (assetRowIds.length === 0) return;
  const rows = await options.db
    .selectFrom('lms_asset as x')
    .innerJoin('assignment as a', 'a.id', 'x.assignment_id')
    .select(['x.id', 'a.platform_id'])
    .where('x.id', 'in', assetRowIds)
    .execute();
  const data = rows.map((row) => ({ data: { assetRowId: row.id, platformId: row.platform_id }, key: row.id }));
  await jobs.sendMany(QUEUES.assetFetch, data, options.inTransaction ? { within: options.db } : {});
}
