// The LMS gradebook as a submission's result sink (src/submissions/result-sink.ts): each step a student's cell can
// show (pending once the service has the file, the similarity once scored) is posted by the grade job, which reads
// the submission when it runs, so a late or repeated job never sends an older state.
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/index.js';
import { QUEUES, type Jobs } from '../jobs/index.js';
import { cellOwner, cellShows } from '../submissions/cell-owner.js';
import type { ResultSink } from '../submissions/result-sink.js';
import { queueCellClear, type GradeJob } from './grade-job.js';
import { queueGradeResync, resyncGrade } from './resync.js';

export function gradebookSink(db: Kysely<DatabaseSchema>, jobs: Jobs): ResultSink {
  const post = async (submissionId: string) => {
    await jobs.send(QUEUES.grade, { submissionId } satisfies GradeJob, { key: submissionId });
  };
  return {
    accepted: post,
    scored: post,
    // The cell keeps what it shows: a refused paper never reached it (the refusal comes before the service takes
    // the file), and a failed analysis leaves it pending, with the failure on the instructor's dashboard.
    ended: async () => undefined,
    // The cell gets its new owner's state (its score, or "pending"), or is emptied when nothing is left to show.
    async removed(student) {
      const owner = await cellOwner(db, student.assignmentId, student.userId);
      if (cellShows(owner)) await resyncGrade(db, jobs, owner.id);
      else await queueCellClear(jobs, student);
    },
    resend: async (submissionId) => (await resyncGrade(db, jobs, submissionId)) !== null,
    // Scores already posted follow the similarity to its new column.
    async settingsChanged(assignmentId, before, after) {
      if (after.gradeColumn !== before.gradeColumn) await queueGradeResync(db, jobs, { assignmentId });
    },
  };
}
