// What the tool knows of what an LMS gradebook holds, beyond the scores it sent (test/fixtures/lms/canvas/gradebook.md):
// - per submission, whether the LMS has recorded it as an attempt (Canvas counts an attempt on a score with
//   new_submission, which must go once per attempt, C5) and the column its comment went to (Canvas adds every
//   comment it is sent, C7: one per attempt and column);
// - per cell (score_clock), what the tool has followed of it since it was empty: whether a teacher has graded it,
//   whether the grade it holds is the tool's own, and what the result service showed after the tool's last post
//   (Canvas's result mirrors the last writer, C3, so a teacher's grade is seen only before the tool's next post).
// Papers posted before keep their attempt as recorded and their comment as sent (their receipt made the attempt and
// their result carried the comment); their cells are not followed, so the tool grades them only where Canvas keeps
// a grade already there (prioritize_non_tool_grade).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('submission')
    .addColumn('gradebook_attempt_recorded', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('gradebook_comment_column', 'text')
    .execute();
  await sql`UPDATE submission SET gradebook_attempt_recorded = true WHERE grade_state IN ('pending', 'posted')`.execute(
    db,
  );
  await sql`
    UPDATE submission AS s
       SET gradebook_comment_column = CASE WHEN a.settings->>'gradeColumn' = 'similarity'
                                           THEN a.similarity_line_item_url ELSE a.line_item_url END
      FROM assignment AS a
     WHERE a.id = s.assignment_id AND s.grade_state = 'posted' AND s.similarity IS NOT NULL`.execute(db);
  await db.schema
    .alterTable('score_clock')
    .addColumn('cell_known', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('teacher_graded', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('tool_graded', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('result_after_post', sql`numeric`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('score_clock')
    .dropColumn('cell_known')
    .dropColumn('teacher_graded')
    .dropColumn('tool_graded')
    .dropColumn('result_after_post')
    .execute();
  await db.schema
    .alterTable('submission')
    .dropColumn('gradebook_attempt_recorded')
    .dropColumn('gradebook_comment_column')
    .execute();
}
