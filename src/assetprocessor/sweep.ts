// The asset sweep, beside the submissions' work sweep (submissions/sweep.ts), every minute:
// - an asset kept from a notice but left without its fetch job (the job failed for good and an administrator removed
//   it, or a queue was cleared) is given its job again, so that every file an LMS announced ends with a report;
// - a report posted hidden from its student because the assignment shows results only after the due date is posted
//   again once that date has passed (the report job applies the rule: reports/visibility.ts), since nothing else
//   happens at a due date that would send it.
import { sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, hasOpenJob, type Jobs } from '../jobs/index.js';
import { queueAssetFetches } from './fetch.js';
import { queueAssetReports } from './report-job.js';

const BATCH = 500;

async function forgottenAssets(db: Kysely<DatabaseSchema>): Promise<string[]> {
  const rows = await db
    .selectFrom('lms_asset')
    .select('id')
    .where('state', '=', 'received')
    .where('received_at', '<', sql<Date>`now() - interval '1 minute'`)
    .where(({ not }) => not(hasOpenJob(QUEUES.assetFetch, 'lms_asset.id')))
    .limit(BATCH)
    .execute();
  return rows.map((row) => row.id);
}

/** Assets whose checked report is hidden from the student though the assignment's due date, which opens it, has passed. */
async function openedByDueDate(db: Kysely<DatabaseSchema>): Promise<string[]> {
  const rows = await db
    .selectFrom('asset_report as r')
    .innerJoin('lms_asset as x', 'x.id', 'r.asset_row_id')
    .innerJoin('assignment as a', 'a.id', 'x.assignment_id')
    .select('x.id')
    .where('r.type', '=', 'originality')
    .where('r.progress', '=', 'Processed')
    .where(sql<boolean>`r.body->>'visibleToOwner' = 'false'`)
    .where(sql<boolean>`a.settings->>'resultsVisibleTo' = 'students-after-due'`)
    .where(sql<boolean>`(a.settings->>'dueAt')::timestamptz < now()`)
    .where(({ not }) => not(hasOpenJob(QUEUES.assetReport, 'x.id')))
    .limit(BATCH)
    .execute();
  return rows.map((row) => row.id);
}

/** Queues the jobs of forgotten assets and of reports a due date has opened; gives how many were queued. */
export async function sweepForgottenAssets(deps: { db: Kysely<DatabaseSchema>; jobs: Jobs }): Promise<number> {
  const fetches = await forgottenAssets(deps.db);
  await queueAssetFetches(deps.jobs, fetches, { db: deps.db });
  const reports = await openedByDueDate(deps.db);
  await queueAssetReports(deps.jobs, reports);
  return fetches.length + reports.length;
}
