// What the tool knows of a Canvas cell before it posts to it, so that it grades only a cell that is empty or holds its
// own grade, and never posts over a teacher's (test/fixtures/lms/canvas/gradebook.md). Canvas's result service
// mirrors the last writer (C3): a teacher's grade writes it, and every post of the tool writes it again with what the
// post carried, whatever Canvas kept of it. So a teacher's grade is seen only before the tool's next post: the tool
// reads the result before each post and keeps, with the cell's score clock, what it has followed of the cell since
// it found it empty (no result at all) or graded by a teacher.
//
// A cell the tool has not followed from the start (a post made without a read) is not
// known: there the tool grades only with prioritize_non_tool_grade (Canvas keeps any grade already there, C2) and
// never clears a grade. The one thing no read can tell: a teacher who grades in the moment between the tool's read
// and its post (the same second), which the tool then takes for an empty cell or its own grade.
import { sql } from 'kysely';
import type { ColumnContext } from './grade-context.js';
import type { GradeDeps } from './grade-deps.js';
import { readResult } from './gradebook-result.js';
import { givenScores, type ScoreClockKey } from './score-clock.js';

const SAME = 0.005;
const same = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) < SAME);

/** The cell as the tool knows it right before a post. */
export interface CanvasCell {
  /** The tool has followed it since it was empty, or saw a teacher's grade there. */
  known: boolean;
  /** A teacher has graded it (or taken the tool's grade out): the tool posts no grade there any more. */
  teacherGraded: boolean;
  /** The grade it holds is the tool's own: the tool may replace it, or clear it. */
  toolGraded: boolean;
}

interface Followed {
  cell_known: boolean;
  teacher_graded: boolean;
  tool_graded: boolean;
  result_after_post: string | null;
}

async function followed(deps: GradeDeps, key: ScoreClockKey): Promise<Followed | null> {
  const row = await deps.db
    .selectFrom('score_clock')
    .select(['cell_known', 'teacher_graded', 'tool_graded', 'result_after_post'])
    .where('platform_id', '=', key.platformId)
    .where('line_item_url', '=', key.lineItemUrl)
    .where('user_subject', '=', key.userSubject)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Reads the cell's result and says what the cell holds, by what the tool followed of it. A result that cannot be
 * read leaves the cell not known. `clock` is the cell's score clock key (its row exists once a timestamp was taken).
 */
export async function knowCanvasCell(
  deps: GradeDeps,
  context: Pick<ColumnContext, 'platform' | 'userSubject' | 'assignmentId'>,
  clock: ScoreClockKey,
): Promise<CanvasCell> {
  const before = await followed(deps, clock);
  let held: Awaited<ReturnType<typeof readResult>>;
  try {
    held = await readResult(deps, context.platform, clock.lineItemUrl, context.userSubject);
  } catch (error) {
    deps.logger.warn(
      { err: error, assignmentId: context.assignmentId },
      "Could not read Canvas's result before posting; the cell is treated as one a teacher may have graded",
    );
    held = 'unreadable';
  }
  const teacherSeen = before?.teacher_graded ?? false;
  if (held === 'unreadable') return { known: false, teacherGraded: teacherSeen, toolGraded: false };
  const given = await givenScores(deps.db, clock);
  const score = held === 'none' ? null : held.score;
  const isGiven = score !== null && given.some((value) => same(value, score));
  let cell: CanvasCell;
  if (before?.cell_known) {
    const after = before.result_after_post === null ? null : Number(before.result_after_post);
    if (same(score, after)) cell = { known: true, teacherGraded: teacherSeen, toolGraded: before.tool_graded };
    // Someone changed the score since the tool's last post: a grade of the tool's whose answer was lost, or a person.
    else if (isGiven) cell = { known: true, teacherGraded: teacherSeen, toolGraded: !teacherSeen };
    else cell = { known: true, teacherGraded: true, toolGraded: false };
  } else if (held === 'none') cell = { known: true, teacherGraded: teacherSeen, toolGraded: false };
  else if (score !== null && !isGiven) cell = { known: true, teacherGraded: true, toolGraded: false };
  // A result the tool's own earlier posts left without a read: what the submission holds cannot be told.
  else cell = { known: false, teacherGraded: teacherSeen, toolGraded: false };
  await remember(deps, clock, cell, before?.result_after_post ?? null);
  return cell;
}

/** After the platform accepted a post the tool read the cell for: what the cell holds now, and what its result shows. */
export async function recordCanvasPost(
  deps: GradeDeps,
  clock: ScoreClockKey,
  cell: CanvasCell,
  post: { scoreGiven: number | null; clearsGrade: boolean },
): Promise<void> {
  // A grade on a cell not known may not have landed (Canvas keeps a grade already there): it is not vouched for.
  const toolGraded = !cell.known
    ? false
    : post.scoreGiven !== null
      ? !cell.teacherGraded
      : post.clearsGrade
        ? false
        : cell.toolGraded;
  await remember(deps, clock, { ...cell, toolGraded }, post.scoreGiven);
}

/** A post made without reading the cell first breaks what the tool followed of it. */
export async function forgetCanvasCell(deps: GradeDeps, clock: ScoreClockKey): Promise<void> {
  await deps.db
    .updateTable('score_clock')
    .set({ cell_known: false, tool_graded: false })
    .where('platform_id', '=', clock.platformId)
    .where('line_item_url', '=', clock.lineItemUrl)
    .where('user_subject', '=', clock.userSubject)
    .execute();
}

async function remember(
  deps: GradeDeps,
  clock: ScoreClockKey,
  cell: CanvasCell,
  resultAfterPost: number | string | null,
): Promise<void> {
  await sql`
    INSERT INTO score_clock (platform_id, line_item_url, user_subject, last_timestamp, cell_known, teacher_graded,
                             tool_graded, result_after_post)
    VALUES (${clock.platformId}, ${clock.lineItemUrl}, ${clock.userSubject}, to_timestamp(0), ${cell.known},
            ${cell.teacherGraded}, ${cell.toolGraded}, ${resultAfterPost})
    ON CONFLICT (platform_id, line_item_url, user_subject) DO UPDATE
       SET cell_known = EXCLUDED.cell_known, teacher_graded = EXCLUDED.teacher_graded,
           tool_graded = EXCLUDED.tool_graded, result_after_post = EXCLUDED.result_after_post`.execute(deps.db);
}
