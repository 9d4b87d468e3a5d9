// Empties a user's gradebook cell after an instructor deleted the attempt it showed.
import { cellOwner, cellShows } from '../submissions/cell-owner.js';
import { loadColumn } from './grade-context.js';
import type { GradeDeps } from './grade-deps.js';
import { GradeRefused } from './platform-answer.js';
import { clearedScoreBody } from './score-body.js';
import { sendScore } from './send-score.js';

/**
 * Clears the cell when no other attempt of the user has a state to post. Nothing is sent while another attempt
 * of theirs owns the cell.
 */
export async function clearGrade(
  deps: GradeDeps,
  ref: { assignmentId: string; userId: string },
): Promise<'cleared' | 'skipped'> {
  const ownerPosts = async () => cellShows(await cellOwner(deps.db, ref.assignmentId, ref.userId));
  const column = (await ownerPosts()) ? null : await loadColumn(deps.db, ref.assignmentId, ref.userId);
  if (!column) return 'skipped';
  // A new attempt since the deletion owns the cell: nothing to clear any more.
  const stillEmpty = async () => !(await ownerPosts());
  try {
    if (
      (await sendScore(deps, column, (timestamp) => clearedScoreBody(column.userSubject, timestamp), stillEmpty)) ===
      'superseded'
    )
      return 'skipped';
  } catch (error) {
    if (!(error instanceof GradeRefused)) throw error;
    deps.logger.warn({ ...ref, reason: error.message }, 'The gradebook did not clear the score');
    return 'skipped';
  }
  return 'cleared';
}
