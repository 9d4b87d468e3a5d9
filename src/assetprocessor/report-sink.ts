// Asset reports as a submission's result sink (src/submissions/result-sink.ts): at each step a reader in the LMS may
// see, the report job of every asset the submission stands for is queued; it reads the standing when it runs and
// posts what changed. No gradebook score is ever posted for these assignments: the LMS's own assignment is graded
// by the instructor in the LMS.
import type { Kysely } from 'kysely';
import type { AssignmentSettings } from '../assignments/settings.js';
import type { DatabaseSchema } from '../db/index.js';
import type { Jobs } from '../jobs/index.js';
import type { ResultSink } from '../submissions/result-sink.js';
import { assetsOfSubmission, queueAssetReports, resendReports } from './report-job.js';

/** The settings a posted report shows: who may see it, and the bands its colour and priority come from. */
const SHOWN_IN_REPORTS = [
  'resultsVisibleTo',
  'dueAt',
  'showAiScoreToStudents',
  'similarityBands',
] as const satisfies ReadonlyArray<keyof AssignmentSettings>;

export function assetReportSink(db: Kysely<DatabaseSchema>, jobs: Jobs): ResultSink {
  const post = async (submissionId: string) => queueAssetReports(jobs, await assetsOfSubmission(db, submissionId));
  return {
    accepted: post,
    scored: post,
    ended: post,
    // The LMS keeps its submission and its files whatever the tool's dashboard does with an attempt: what it shows
    // of them stays the last report posted.
    removed: async () => undefined,
    async resend(submissionId) {
      const assets = await assetsOfSubmission(db, submissionId);
      await resendReports(db, jobs, assets);
      return assets.length > 0;
    },
    async settingsChanged(assignmentId, before, after) {
      if (SHOWN_IN_REPORTS.every((key) => JSON.stringify(before[key]) === JSON.stringify(after[key]))) return;
      const assets = await db
        .selectFrom('lms_asset')
        .select('id')
        .where('assignment_id', '=', assignmentId)
        .where('state', '!=', 'received')
        .execute();
      await queueAssetReports(
        jobs,
        assets.map((asset) => asset.id),
      );
    },
  };
}
