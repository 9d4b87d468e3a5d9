// An instructor's choice of what the gradebook gets (the settings' gradeColumn), written as the settings page saves
// it, for tests that start from a course with a given choice, or saved through the settings page itself.
import assert from 'node:assert/strict';
import { launch } from '../../src/devplatform/agent.js';
import { storedSettings, type GradeColumn } from '../../src/assignments/settings.js';
import type { TestCourse } from './course.js';
import { settingsForm } from './forms.js';
import type { TestTool } from './tool.js';

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

/**
 * Saves the assignment's settings as its instructor does on the settings page, with `change` applied: a change of
 * the gradebook choice then posts the checked papers again, as the page says.
 */
export async function saveSettings(
  tool: TestTool,
  course: TestCourse,
  linkId: string,
  change: (form: URLSearchParams) => void,
): Promise<void> {
  const instructor = await launch(course.lms.platform, { userId: 'instructor-1', resourceLinkId: linkId });
  assert.ok(instructor.ltik);
  const assignmentId = course.path.split('/').pop()!;
  const row = await tool.tool.database.db
    .selectFrom('assignment')
    .select('settings')
    .where('id', '=', assignmentId)
    .executeTakeFirstOrThrow();
  const form = settingsForm(storedSettings.parse(row.settings), instructor.ltik);
  change(form);
  const saved = await fetch(`${tool.url}${course.path}/settings`, { method: 'POST', body: form });
  assert.equal(saved.status, 200, await saved.text());
}
