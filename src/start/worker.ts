// The worker side of the tool: each queue mapped to the domain's handler for its jobs, and the sweep that gives
// forgotten work its job again (src/submissions/sweep.ts).
import type { PlatformLookup } from '../lti/platform.js';
import { runFolderJob } from '../assignments/folder.js';
import type { ServiceConnections } from '../accounts/connections.js';
import type { ToolMetrics } from '../observe/metrics.js';
import type { ResultSink } from '../submissions/result-sink.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import type { Logger } from '../observe/logger.js';
import type { MinRate } from '../lti/platform-http.js';
import { runResultJob } from '../submissions/announced-result.js';
import { runGradeJob, type GradeJobDeps } from '../grades/grade-job.js';
import { pollSubmission, uploadSubmission, type PipelineDeps } from '../submissions/pipeline.js';
import { sweepForgottenWork, sweepUnclaimedFiles } from '../submissions/sweep.js';
import { fetchAsset, type AssetFetchDeps } from '../assetprocessor/fetch.js';
import { runAssetReportJob } from '../assetprocessor/report-job.js';
import { sweepForgottenAssets } from '../assetprocessor/sweep.js';
import { eulaRefuses } from '../assetprocessor/eula.js';

export interface WorkerDeps {
  db: PipelineDeps['db'];
  jobs: Jobs;
  services: ServiceConnections;
  sink: ResultSink;
  provider: PlatformLookup;
  pollScheduleSeconds: number[];
  /** The Asset Processor has terms its users accept (ASSET_PROCESSOR_EULA=on): files of those who have not are not checked. */
  eulaRequired: boolean;
  /** The deadline of one asset download (ASSET_DOWNLOAD_TIMEOUT_SECONDS). */
  assetDownloadTimeoutMs: number;
  /** Every try of one asset's download ends within this of the first (ASSET_DOWNLOAD_GIVE_UP_SECONDS). */
  assetDownloadGiveUpMs?: number;
  /** The least a download must keep sending (ASSET_DOWNLOAD_MIN_KB_PER_SECOND); null: no such floor. */
  assetDownloadMinRate: MinRate | null;
  logger: Logger;
  metrics: ToolMetrics;
}

const SWEEP_INTERVAL_MS = 60_000;

export async function startWorker(deps: WorkerDeps): Promise<{ stop(): void }> {
  // A send's lease lapses well before the job's expiry, when the job is handed to another worker.
  const sendLeaseSeconds = deps.jobs.expireSeconds / 2;
  const pipeline: PipelineDeps = {
    db: deps.db,
    services: deps.services,
    jobs: deps.jobs,
    sink: deps.sink,
    pollScheduleSeconds: deps.pollScheduleSeconds,
    sendLeaseSeconds,
    logger: deps.logger,
  };
  const grades: GradeJobDeps = { db: deps.db, provider: deps.provider, logger: deps.logger, metrics: deps.metrics };

  await deps.jobs.work(QUEUES.upload, (job) => uploadSubmission(pipeline, job.data.submissionId, job.retryCount + 1));
  await deps.jobs.work(QUEUES.poll, (job) => pollSubmission(pipeline, job.data.submissionId, job.data.round ?? 0));
  await deps.jobs.work(QUEUES.result, (job) => runResultJob(pipeline, job.data));
  await deps.jobs.work(QUEUES.folder, (job) => runFolderJob(deps, job.data));
  // Every queue that calls an LMS gives each LMS its share of its places, in this process and across all: one
  // LMS's slow or failing gradebook, report service or file server does not hold another school's work (which LMS
  // a job calls: LMS_OF_JOB in jobs/queues.ts).
  deps.jobs.workFairly(QUEUES.grade, (job) => runGradeJob(grades, job.data));
  const assets: AssetFetchDeps = {
    db: deps.db,
    jobs: deps.jobs,
    provider: deps.provider,
    metrics: deps.metrics,
    eulaRefuses: (asset) => eulaRefuses(deps.db, asset, deps.eulaRequired),
    downloadTimeoutMs: deps.assetDownloadTimeoutMs,
    ...(deps.assetDownloadGiveUpMs !== undefined ? { downloadGiveUpMs: deps.assetDownloadGiveUpMs } : {}),
    downloadMinRate: deps.assetDownloadMinRate,
  };
  deps.jobs.workFairly(QUEUES.assetFetch, (job) => fetchAsset(assets, job.data, job.retryCount + 1));
  deps.jobs.workFairly(QUEUES.assetReport, (job) =>
    runAssetReportJob({ db: deps.db, provider: deps.provider, logger: deps.logger }, job.data),
  );

  const sweep = setInterval(() => {
    sweepForgottenWork(deps)
      .then(() => sweepForgottenAssets(deps))
      .then(() => sweepUnclaimedFiles(deps))
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'The work sweep failed; it runs again in a minute'));
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  return { stop: () => clearInterval(sweep) };
}
