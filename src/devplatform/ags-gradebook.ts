// The LMS's gradebook as its teacher and its students read it, by the rules of the LMS the platform plays
// (test/fixtures/lms/<lms>/gradebook.md): each cell's grade (empty when the tool posted no grade), who gave it, its
// comments, whether the LMS asks the teacher to grade it (its "needs grading" list), what the student sees of it, and
// the course totals, computed as each LMS computes them out of the box from graded cells only (Moodle's natural
// aggregation with "Exclude empty grades", grade_aggregateonlygraded = 1; Canvas's GradeCalculator, whose student's
// total counts posted grades only). A teacher grades here as in the LMS (gradeAsTeacher).
import { gradebook, type GradebookRow } from './ags.js';
import {
  canvasCounts,
  canvasNeedsGrading,
  canvasPostGrades,
  canvasStudentComments,
  canvasStudentSeesGrade,
  canvasTeacherGrade,
} from './canvas-gradebook.js';
import type { PlatformContext } from './context.js';
import { escapeHtml } from './html.js';
import { timeHtml } from './clock.js';
import { scoreKey, type DevUser, type PlatformMemory, type Score } from './state.js';

/** A grade the teacher gives in the LMS's gradebook (Moodle: an override; Canvas: a grade by a person). */
export function gradeAsTeacher(platform: PlatformContext, lineItemId: string, userId: string, score: number): void {
  const { memory } = platform;
  const item = memory.lineItems.get(lineItemId);
  if (!item) throw new Error(`No line item ${lineItemId}`);
  if (memory.rules === 'canvas') return canvasTeacherGrade(memory, item, userId, score);
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

/** The teacher posts a column's grades to the students (Canvas's manual post policy); other LMSs show them already. */
export function postGrades(platform: PlatformContext, lineItemId: string): void {
  if (platform.memory.rules === 'canvas') canvasPostGrades(platform.memory, lineItemId);
}

/**
 * Whether the LMS lists the cell for the teacher to grade: Canvas's needs grading (Submission#needs_grading?);
 * Brightspace's "ready for evaluation" (Submitted and PendingManual, D2L's Submission Review article); the
 * specification's "human intervention is required" (PendingManual) for Blackboard and any other; Moodle lists no
 * tool's score.
 */
export function needsGrading(memory: PlatformMemory, cell: Score): boolean {
  switch (memory.rules) {
    case 'canvas':
      return canvasNeedsGrading(cell);
    case 'moodle':
      return false;
    case 'brightspace':
      return cell.activityProgress === 'Submitted' && cell.gradingProgress === 'PendingManual';
    default:
      return cell.gradingProgress === 'PendingManual';
  }
}

/** What the student reads in their grades: the grade (null: none shown) and the comments they may see. */
export interface StudentView {
  grade: number | null;
  comments: string[];
}

/**
 * The cell as its student reads it. Canvas shows the grade and the comments once posted (C8 of its fixture);
 * Blackboard Ultra posts a tool's grades at once (its fixture, K1); Moodle and the specification show the cell.
 */
export function studentView(memory: PlatformMemory, cell: Score): StudentView {
  if (memory.rules === 'canvas' && cell.canvas)
    return {
      grade: canvasStudentSeesGrade(memory, cell) ? cell.scoreGiven : null,
      comments: canvasStudentComments(cell),
    };
  return { grade: cell.scoreGiven, comments: cell.comment ? [cell.comment] : [] };
}

/** The cell's comments as its teacher reads them: every one Canvas keeps; the one feedback of the others. */
export function teacherComments(cell: Score): string[] {
  if (cell.canvas) return cell.canvas.comments.map((comment) => comment.text);
  return cell.comment ? [cell.comment] : [];
}

export interface CourseTotal {
  userId: string;
  /** Points earned and possible over the graded cells; null percent when no cell is graded (the total is empty). */
  earned: number;
  possible: number;
  percent: number | null;
}

/**
 * Each student's course total over the graded cells, as the teacher reads it, or as the student reads their own
 * (Canvas: posted grades only). Empty cells count for nothing, as in Moodle and Canvas; a Canvas submission pending
 * review neither.
 */
export function courseTotals(platform: PlatformContext, view: 'teacher' | 'student' = 'teacher'): CourseTotal[] {
  const { memory } = platform;
  const totals = new Map<string, CourseTotal>();
  for (const cell of memory.scores.values()) {
    const item = memory.lineItems.get(cell.lineItemId);
    const total = totals.get(cell.userId) ?? { userId: cell.userId, earned: 0, possible: 0, percent: null };
    totals.set(cell.userId, total);
    const counts = memory.rules === 'canvas' ? canvasCounts(cell, view) : cell.scoreGiven !== null;
    if (!item || !counts || cell.scoreGiven === null) continue;
    const maximum = cell.scoreMaximum > 0 ? cell.scoreMaximum : item.scoreMaximum;
    total.earned += (cell.scoreGiven / maximum) * item.scoreMaximum;
    total.possible += item.scoreMaximum;
  }
  for (const total of totals.values())
    total.percent = total.possible > 0 ? Math.round((total.earned / total.possible) * 10000) / 100 : null;
  return [...totals.values()];
}

/** A cell's grade as the gradebook shows it ("—" when empty), scaled to the column's points. */
export function shownGrade(row: Pick<GradebookRow, 'scoreGiven' | 'scoreMaximum'>, columnMaximum: number): string {
  if (row.scoreGiven === null) return '—';
  const points = row.scoreMaximum > 0 ? (row.scoreGiven / row.scoreMaximum) * columnMaximum : row.scoreGiven;
  return `${Math.round(points * 100) / 100} / ${columnMaximum}`;
}

/** The LMS's words for its list of papers to grade. */
const TO_GRADE: Record<PlatformMemory['rules'], string> = {
  canvas: 'needs grading',
  brightspace: 'ready for evaluation',
  blackboard: 'needs grading',
  spec: 'needs grading',
  moodle: '',
};

/** The gradebook's table, the course totals and the list of papers to grade, as HTML for the /dev page. */
export function renderGradebook(
  platform: PlatformContext,
  users: DevUser[],
  reviewLinks: (row: GradebookRow) => string,
): string {
  const { memory } = platform;
  const name = (id: string) => escapeHtml(users.find((u) => u.id === id)?.name ?? id);
  const rows = gradebook(platform)
    .map((g) => {
      const maximum = memory.lineItems.get(g.lineItemId)?.scoreMaximum ?? 100;
      const state = g.canvas ? `${g.canvas.workflowState}, attempt ${g.canvas.attempt}` : g.gradingProgress;
      const flagged = needsGrading(memory, g) ? ` (${TO_GRADE[memory.rules]})` : '';
      const by = g.scoreGiven === null ? '' : g.gradedBy === 'teacher' ? 'teacher' : 'tool';
      const student = studentView(memory, g);
      const sees = `${student.grade === null ? '—' : shownGrade({ ...g, scoreGiven: student.grade }, maximum)}; ${student.comments.join(' | ') || 'no comment'}`;
      return `<tr><td>${escapeHtml(g.label)}</td><td>${name(g.userId)}</td><td>${escapeHtml(shownGrade(g, maximum))}</td><td>${escapeHtml(by)}</td><td>${escapeHtml(state + flagged)}</td><td>${escapeHtml(teacherComments(g).join(' | '))}</td><td>${escapeHtml(sees)}</td><td>${timeHtml(g.timestamp)}</td><td>${reviewLinks(g)}</td></tr>`;
    })
    .join('');
  if (!rows) return '<p>No scores yet.</p>';
  const teacher = new Map(courseTotals(platform, 'teacher').map((t) => [t.userId, t.percent]));
  const totals = courseTotals(platform, 'student')
    .map((t) => {
      const shown = (percent: number | null | undefined) => (percent == null ? '—' : `${percent} %`);
      return `<tr><td>${name(t.userId)}</td><td>${escapeHtml(shown(teacher.get(t.userId)))}</td><td>${escapeHtml(shown(t.percent))}</td></tr>`;
    })
    .join('');
  return `<table><thead><tr><th>Column</th><th>Student</th><th>Grade</th><th>Graded by</th><th>State</th><th>Comments</th><th>What the student sees</th><th>Time</th><th>Grade analysis (opens the submission in the tool)</th></tr></thead><tbody>${rows}</tbody></table>
<h3>Course total</h3><p>From graded cells only, as Moodle and Canvas compute it out of the box; an empty cell counts for nothing.</p>
<table><thead><tr><th>Student</th><th>Course total (teacher)</th><th>Course total (student)</th></tr></thead><tbody>${totals}</tbody></table>`;
}
