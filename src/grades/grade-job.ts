// The grade job as a submission sees it: its score posted to the gradebook (src/grades/ knows how, and the LMS's
// quirks), the submission marked graded once the platform has the score for good; or a student's cell emptied
// when no attempt owns it any more (cell-owner.ts).
import { clearGrade } from './clear-grade.js';
import { postGrade } from './post-grade.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import type { ToolMetrics } from '../start/metrics.js';
import { transition } from '../submissions/state.js';

/** A student's gradebook cell in an assignment. */
export interface GradeCell {
  assignmentId: string;
  userId: string;
}

export interface GradeJob {
  submissionId?: string;
  /** Posted again on request: what the gradebook acknowledged earlier does not stop it. */
  resync?: boolean;
  clear?: GradeCell;
}

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
