// The assignment's grade is the teacher's: the tool never posts a grade over one the teacher gave. Moodle keeps it by
// itself (its override), Canvas's cells are followed (canvas-cell.ts; platform-quirks.ts teacherGrade). For an LMS
// whose rules are not known (Blackboard, Brightspace and others: their sources say nothing of it), the tool reads
// the cell first (https://www.imsglobal.org/spec/lti-ags/v2p0/#result-service): a
// score there that the tool never posted to the cell (score-clock.ts keeps what it posted, the attempts' records what
// they sent) is the teacher's, and the result then goes as a comment.
import { sql } from 'kysely';
import type { GradeContext } from './grade-context.js';
import type { GradeDeps } from './grade-deps.js';
import { currentResult } from './gradebook-result.js';
import { lineItemFor } from './line-item.js';
import { givenScores } from './score-clock.js';

const SAME = 0.005;

/** Whether the student's cell holds a grade the tool did not post; false when the LMS cannot say (no result scope). */
export async function teacherGradeHeld(deps: GradeDeps, context: GradeContext): Promise<boolean> {
  let held: number | null;
  let lineItemUrl: string;
  try {
    lineItemUrl = await lineItemFor(deps, context);
    held = await currentResult(deps, context.platform, lineItemUrl, context.userSubject);
  } catch (error) {
    deps.logger.warn(
      { err: error, assignmentId: context.assignmentId },
      "Could not read the gradebook's result before posting a grade; posted as the settings say",
    );
    return false;
  }
  if (held === null) return false;
  const { rows } = await sql<{ score: string }>`
    SELECT unnest(ARRAY[mine.grade_sent_score, mine.grade_acknowledged_score])::text AS score
      FROM submission AS s
      JOIN submission AS mine ON mine.assignment_id = s.assignment_id AND mine.user_id = s.user_id
     WHERE s.id = ${context.submissionId}`.execute(deps.db);
  const posted = [
    ...rows.filter((row) => row.score !== null).map((row) => Number(row.score)),
    ...(await givenScores(deps.db, { platformId: context.platformId, lineItemUrl, userSubject: context.userSubject })),
  ];
  return !posted.some((score) => Math.abs(score - held) < SAME);
}
