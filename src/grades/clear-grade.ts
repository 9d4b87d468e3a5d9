// Empties a user's gradebook cell after an instructor deleted the attempt it showed.
import { cellOwner, cellShows } from '../submissions/cell-owner.js';
import { wordsFor } from '../i18n/index.js';
import { knowCanvasCell, recordCanvasPost } from './canvas-cell.js';
import { loadColumn } from './grade-context.js';
import type { GradeDeps } from './grade-deps.js';
import { lineItemFor } from './line-item.js';
import { GradeRefused } from './platform-answer.js';
import { clearedScoreBody } from './score-body.js';
import { sendScore } from './send-score.js';

/**
 * Clears the cell when no other attempt of the user has a state to post. Nothing is sent while another attempt
 * of theirs owns the cell. The post makes no attempt, and a grade the LMS keeps unless told (Canvas) is cleared only
 * where the tool follows the cell and the grade is its own (canvas-cell.ts): a teacher's stays.
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
    const lineItemUrl = await lineItemFor(deps, column);
    const clock = { platformId: column.platformId, lineItemUrl, userSubject: column.userSubject };
    const cell = column.quirks.teacherGrade === 'followed' ? await knowCanvasCell(deps, column, clock) : null;
    const keepGrade = !(cell && cell.known && cell.toolGraded && !cell.teacherGraded);
    const comment = wordsFor(column.commentLanguage).t('gradebook.comment.deleted');
    const sent = await sendScore(
      deps,
      column,
      lineItemUrl,
      (timestamp) => clearedScoreBody(column.userSubject, timestamp, column.quirks, { comment, keepGrade }),
      stillEmpty,
    );
    if (sent === 'superseded') return 'skipped';
    if (cell) await recordCanvasPost(deps, clock, cell, { scoreGiven: null, clearsGrade: !keepGrade });
  } catch (error) {
    if (!(error instanceof GradeRefused)) throw error;
    deps.logger.warn({ ...ref, reason: error.message }, 'The gradebook did not clear the score');
    return 'skipped';
  }
  return 'cleared';
}
