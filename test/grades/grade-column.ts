// An instructor's choice of what the gradebook gets (the settings' gradeColumn), written as the settings page saves
// it, for tests that start from a course with a given choice.
import type { GradeColumn } from '../../src/assignments/settings.js';
import type { TestTool } from '../support/tool.js';

/** `assignment`: the assignment's id, or its path (/assignments/<id>). */
export async function setGradeColumn(tool: TestTool, assignment: string, gradeColumn: GradeColumn): Promise<void> {
  const db = tool.tool.database.db;
  const assignmentId = assignment.split('/').pop()!;
  const current = await db
    .selectFrom('assignment')
    .select('settings')
    .where('id', '=', assignmentId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('assignment')
    .set({ settings: JSON.stringify({ ...(current.settings as object), gradeColumn }) })
    .where('id', '=', assignmentId)
    .execute();
}
