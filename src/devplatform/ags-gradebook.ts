// The LMS's gradebook as a teacher reads it: each cell's grade (empty when the tool posted no grade), its comment,
// whether the LMS asks the teacher to grade it, who gave the grade, and each student's course total, computed as
// Moodle and Canvas compute it out of the box: from the graded cells only (Moodle's natural aggregation with
// "Exclude empty grades", grade_aggregateonlygraded = 1; Canvas leaves ungraded assignments out of the total).
// A teacher grades here as in the LMS (gradeAsTeacher). Sources: test/fixtures/lms/<lms>/gradebook.md.
import { gradebook, type GradebookRow } from './ags.js';
import type { PlatformContext } from './context.js';
import { escapeHtml } from './html.js';
import { scoreKey, type DevUser } from './state.js';

/** A grade the teacher gives in the LMS's gradebook (Moodle: an override; Canvas: a grade by a person). */
export function gradeAsTeacher(platform: PlatformContext, lineItemId: string, userId: string, score: number): void {
  const { memory } = platform;
  const item = memory.lineItems.get(lineItemId);
  if (!item) throw new Error(`No line item ${lineItemId}`);
  const key = scoreKey(lineItemId, userId);
  const before = memory.scores.get(key);
  memory.scores.set(key, {
    lineItemId,
    userId,
    comment: before?.comment,
    activityProgress: before?.activityProgress ?? 'Submitted',
    gradingProgress: 'FullyGraded',
    ...(before?.submittedAt ? { submittedAt: before.submittedAt } : {}),
    timestamp: new Date().toISOString(),
    scoreGiven: score,
    scoreMaximum: item.scoreMaximum,
    gradedBy: 'teacher',
  });
}

export interface CourseTotal {
  userId: string;
  /** Points earned and possible over the graded cells; null percent when no cell is graded (the total is empty). */
  earned: number;
  possible: number;
  percent: number | null;
}

/** Each student's course total over the graded cells (empty cells count for nothing, as in Moodle and Canvas). */
export function courseTotals(platform: PlatformContext): CourseTotal[] {
  const totals = new Map<string, CourseTotal>();
  for (const cell of platform.memory.scores.values()) {
    const item = platform.memory.lineItems.get(cell.lineItemId);
    const total = totals.get(cell.userId) ?? { userId: cell.userId, earned: 0, possible: 0, percent: null };
    totals.set(cell.userId, total);
    if (!item || cell.scoreGiven === null) continue;
    const maximum = cell.scoreMaximum > 0 ? cell.scoreMaximum : item.scoreMaximum;
    total.earned += (cell.scoreGiven / maximum) * item.scoreMaximum;
    total.possible += item.scoreMaximum;
  }
  for (const total of totals.values())
    total.percent = total.possible > 0 ? Math.round((total.earned / total.possible) * 10000) / 100 : null;
  return [...totals.values()];
}

/** A cell's grade as the gradebook shows it ("—" when empty), scaled to the column's points. */
export function shownGrade(row: GradebookRow, columnMaximum: number): string {
  if (row.scoreGiven === null) return '—';
  const points = row.scoreMaximum > 0 ? (row.scoreGiven / row.scoreMaximum) * columnMaximum : row.scoreGiven;
  return `${Math.round(points * 100) / 100} / ${columnMaximum}`;
}

/** Canvas lists a submission whose score is PendingManual and ungraded as "needs grading". */
export const needsGrading = (row: GradebookRow) => row.gradingProgress === 'PendingManual' && row.scoreGiven === null;

/** The gradebook's table and the course totals, as HTML for the /dev page. */
export function renderGradebook(
  platform: PlatformContext,
  users: DevUser[],
  reviewLinks: (row: GradebookRow) => string,
): string {
  const name = (id: string) => escapeHtml(users.find((u) => u.id === id)?.name ?? id);
  const rows = gradebook(platform)
    .map((g) => {
      const maximum = platform.memory.lineItems.get(g.lineItemId)?.scoreMaximum ?? 100;
      const progress = platform.memory.rules === 'canvas' && needsGrading(g) ? 'needs grading' : g.gradingProgress;
      const by = g.scoreGiven === null ? '' : g.gradedBy === 'teacher' ? 'teacher' : 'tool';
      return `<tr><td>${escapeHtml(g.label)}</td><td>${name(g.userId)}</td><td>${escapeHtml(shownGrade(g, maximum))}</td><td>${escapeHtml(by)}</td><td>${escapeHtml(progress)}</td><td>${escapeHtml(g.comment ?? '')}</td><td>${escapeHtml(g.timestamp)}</td><td>${reviewLinks(g)}</td></tr>`;
    })
    .join('');
  if (!rows) return '<p>No scores yet.</p>';
  const totals = courseTotals(platform)
    .map(
      (t) => `<tr><td>${name(t.userId)}</td><td>${t.percent === null ? '—' : escapeHtml(`${t.percent} %`)}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>Column</th><th>Student</th><th>Grade</th><th>Graded by</th><th>Progress</th><th>Comment</th><th>Timestamp</th><th>Grade analysis (opens the submission in the tool)</th></tr></thead><tbody>${rows}</tbody></table>
<h3>Course total</h3><p>From graded cells only, as Moodle and Canvas compute it out of the box; an empty cell counts for nothing.</p>
<table><thead><tr><th>Student</th><th>Course total</th></tr></thead><tbody>${totals}</tbody></table>`;
}
