// The grade job as a submission sees it: its score posted to the gradebook (src/grades/ knows how, and the LMS's
// quirks), the submission marked graded once the platform has the score for good; or a student's cell emptied
// when no attempt owns it any more (cell-owner.ts).
import { clearGrade } from './clear-grade.js';
import { postGrade } from './post-grade.js';
import { QUEUES, type JobData, type Jobs } from '../jobs/index.js';
import type { ToolMetrics } from '../observe/metrics.js';
import { transition } from '../submissions/state.js';

/** The grade job's data: its payload, declared with its queue (jobs/queues.ts). */
export type GradeJob = JobData<typeof QUEUES.grade>;

/** A student's gradebook cell in an assignment. */
export type GradeCell = NonNullable<GradeJob['clear']>;

export type GradeJobDeps = Parameters<typeof postGrade>[0] & { metrics: Pick<ToolMetrics, 'gradePost'> };

/** Queues the emptying of a cell (one job per cell at a time). */
export async function queueCellClear(jobs: Jobs, cell: GradeCell): Promise<void> {
  await jobs.send(QUEUES.grade, { clear: cell } satisfies GradeJob, {
    key: `clear:${cell.assignmentId}:${cell.userId}`,
  });
}

export async function runGradeJob(deps: GradeJobDeps, job: GradeJob): Promise<void> {
  if (job.clear) {
    await clearGrade(deps, job.clear);
    return;
  }
  if (!job.submissionId) return;
  const outcome = await deps.metrics.gradePost(postGrade(deps, job.submissionId, { resync: job.resync === true }));
  if (outcome.kind === 'final') {
    await transition(deps.db, {
      submissionId: job.submissionId,
      to: 'graded',
      reason: `Score ${outcome.score} posted to the gradebook`,
    });
  }
}
