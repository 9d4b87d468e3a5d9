// What an LMS gradebook cell (or a score the tool posted) tells the teacher of the similarity: the grade, when the
// instructor chose to post the similarity as the grade; else, as by default, the number in the comment beside the
// submission (src/grades/score-body.ts). Null when it tells none (a receipt, a cleared cell).
export function shownSimilarity(cell: { scoreGiven?: number | null; comment?: string } | undefined): number | null {
  if (typeof cell?.scoreGiven === 'number') return cell.scoreGiven;
  const named = /^Similarity (\d+(?:\.\d+)?)%/.exec(cell?.comment ?? '');
  return named ? Number(named[1]) : null;
}

/**
 * A result's grading progress: FullyGraded as the grade (and, in Canvas, beside it: its PendingManual would send a
 * graded paper back to needs grading), PendingManual beside it elsewhere (the default: the teacher grades).
 */
export const isResult = (gradingProgress: string | undefined) =>
  gradingProgress === 'FullyGraded' || gradingProgress === 'PendingManual';
