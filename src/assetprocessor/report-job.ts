// The asset report job: it reads the asset's standing when it runs and posts each report the LMS does not show yet
// (every report, when they are to be sent again). The platform keeps the newest report per (asset, type) and
// refuses an older timestamp with 409, so each report's timestamp is after the last one posted for it, whatever the
// clock says. A report the platform refuses as malformed is logged, not retried: sending it again changes nothing.
// https://www.imsglobal.org/spec/lti-ap/v1p0 ; Canvas: app/controllers/lti/ims/asset_processor_controller.rb
import type { Kysely } from 'kysely';
import { getAssignment } from '../assignments/store.js';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, type JobData, type Jobs, type Transactional } from '../jobs/index.js';
import { SCOPE } from '../lti/claims.js';
import { postAssetReport } from '../lti/asset-report-service.js';
import type { PlatformLookup } from '../lti/platform.js';
import type { Logger } from '../observe/logger.js';
import { getSubmission } from '../submissions/store.js';
import { assetReports, type AssetReportBody } from './asset-report.js';
import { assetRow } from './asset-row.js';

/** The report job's data: its payload, declared with its queue (jobs/queues.ts). */
export type AssetReportJob = JobData<typeof QUEUES.assetReport>;

export interface AssetReportDeps {
  db: Kysely<DatabaseSchema>;
  provider: PlatformLookup;
  logger: Pick<Logger, 'warn'>;
}

/** Queues the report jobs of these assets (in the caller's transaction, when given): one waiting job per asset. */
export function queueAssetReports(jobs: Jobs, assetRowIds: string[], within?: Transactional): Promise<void> {
  return jobs.sendMany(
    QUEUES.assetReport,
    assetRowIds.map((assetRowId) => ({ data: { assetRowId }, key: assetRowId })),
    within ? { within } : {},
  );
}

/** The assets a submission stands for (an identical file announced twice is two assets of one submission). */
export async function assetsOfSubmission(db: Kysely<DatabaseSchema>, submissionId: string): Promise<string[]> {
  return (await db.selectFrom('lms_asset').select('id').where('submission_id', '=', submissionId).execute()).map(
    (asset) => asset.id,
  );
}

/**
 * Has the assets' latest reports posted again (a repeated notice, someone's "send again"): what was posted is
 * forgotten, its timestamp kept, so that whichever report job runs next (one already queued, or the one queued here)
 * posts every report again.
 */
export async function resendReports(
  db: Kysely<DatabaseSchema>,
  jobs: Jobs,
  assetRowIds: string[],
  within?: Transactional,
): Promise<void> {
  if (assetRowIds.length === 0) return;
  await db
    .updateTable('asset_report')
    .set({ body: JSON.stringify(null) })
    .where('asset_row_id', 'in', assetRowIds)
    .execute();
  await queueAssetReports(jobs, assetRowIds, within);
}

/** A report the platform did not take now but may take later: the job is tried again. */
class ReportNotTaken extends Error {
  override name = 'ReportNotTaken';
}

/** After `last`, and now if the clock allows: the platform orders reports of one asset and type by this. */
function nextTimestamp(last: Date | undefined, now = new Date()): Date {
  return last && last.getTime() >= now.getTime() ? new Date(last.getTime() + 1) : now;
}

/** The same fields with the same values (the database keeps a report's keys in its own order). */
const canonical = (report: object) => JSON.stringify(report, Object.keys(report).sort());
const sameReport = (stored: unknown, report: AssetReportBody) =>
  typeof stored === 'object' && stored !== null && canonical(stored) === canonical(report);

export async function runAssetReportJob(deps: AssetReportDeps, job: AssetReportJob): Promise<void> {
  const row = await assetRow(deps.db, job.assetRowId);
  if (!row) return;
  const assignment = await getAssignment(deps.db, row.assignment_id);
  if (!assignment) return;
  const reports = assetReports(assignment, {
    assetId: row.asset_id,
    state: row.state,
    errorCode: row.error_code,
    errorComment: row.error_comment,
    submission: row.submission_id === null ? null : await getSubmission(deps.db, row.submission_id),
  });
  const posted = new Map(
    (await deps.db.selectFrom('asset_report').selectAll().where('asset_row_id', '=', row.id).execute()).map(
      (report) => [report.type, report],
    ),
  );
  const due = reports.filter((report) => !sameReport(posted.get(report.type)?.body, report));
  if (due.length === 0) return;
  // The notice's address, else the one an Asset Processor launch of the assignment named (Blackboard's notices carry
  // none). With neither, nothing can be posted until a launch names one (assetprocessor/report-address.ts).
  const reportUrl = row.report_url ?? row.lms_report_url;
  const scope = row.report_url ? (row.report_scope ?? SCOPE.report) : (row.lms_report_scope ?? SCOPE.report);
  if (!reportUrl) {
    deps.logger.warn(
      { assetRowId: row.id },
      'No report address is known for this asset yet: its reports are posted once an Asset Processor launch of the assignment names one',
    );
    return;
  }
  const platform = await deps.provider.getPlatform(row.issuer, row.client_id);
  if (!platform) return; // the LMS was removed: nobody to tell
  for (const report of due) {
    const timestamp = nextTimestamp(posted.get(report.type)?.posted_timestamp);
    // No token or no answer throws, and the job is tried again.
    const answer = await postAssetReport(platform, scope, reportUrl, { ...report, timestamp: timestamp.toISOString() });
    // 401 even with a new token: the next try asks for another.
    if (answer.status === 401)
      throw new ReportNotTaken(
        "The LMS did not accept the tool's token for asset reports; a new one is asked for on the next try.",
      );
    // 409: the platform holds a report of this type with a later timestamp (its clock or an earlier post); the next
    // try is later still. 429 and 5xx: the platform is busy or down.
    if (answer.status === 409 || answer.status === 429 || answer.status >= 500)
      throw new ReportNotTaken(
        `The LMS did not take the ${report.type} report now (HTTP ${answer.status}); it is sent again later.`,
      );
    if (answer.status < 200 || answer.status >= 300) {
      deps.logger.warn(
        { assetRowId: row.id, type: report.type, status: answer.status, answer: answer.body.slice(0, 500) },
        'The LMS refused an asset report as malformed; it is not sent again',
      );
      continue;
    }
    await deps.db
      .insertInto('asset_report')
      .values({
        asset_row_id: row.id,
        type: report.type,
        progress: report.processingProgress,
        body: JSON.stringify(report),
        posted_timestamp: timestamp,
      })
      .onConflict((oc) =>
        oc.columns(['asset_row_id', 'type']).doUpdateSet({
          progress: report.processingProgress,
          body: JSON.stringify(report),
          posted_timestamp: timestamp,
          posted_at: new Date(),
        }),
      )
      .execute();
  }
}
