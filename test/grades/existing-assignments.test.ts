// Assignments made before the gradebook's default became "a comment, no grade" keep what they posted: their stored
// settings have no gradeColumn (the old default was not written down), and migration 0026 writes the old one in, so
// their students' similarity still arrives as the grade; an assignment made since gets the comment.
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { after, before, test } from 'node:test';
import { storedSettings } from '../../src/assignments/settings.js';
import { up as writeOldDefault } from '../../src/db/migrations/0026_gradebook_comment_default.js';
import { openCourse } from '../support/course.js';
import { shownSimilarity } from '../support/gradebook-cell.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

let tool: TestTool;
let lms: TestPlatform;
before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '200', POLL_SCHEDULE_SECONDS: '1,1,2', JOB_POLLING_SECONDS: '0.5' });
  lms = await startTestPlatform(tool, { rules: 'moodle', clientId: 'existing', productFamily: 'moodle' });
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;
const settingsOf = async (path: string) =>
  (
    await db()
      .selectFrom('assignment')
      .select('settings')
      .where('id', '=', path.split('/').pop()!)
      .executeTakeFirstOrThrow()
  ).settings as Record<string, unknown>;

test('an assignment of the earlier release keeps the similarity as its grade; one made since gets a comment', async () => {
  const older = await openCourse(tool, { clientId: 'existing', lms, linkId: 'older', title: 'Older essay' });
  // As the earlier release stored it: no gradeColumn among the settings.
  const { gradeColumn: _dropped, ...written } = await settingsOf(older.path);
  await db()
    .updateTable('assignment')
    .set({ settings: JSON.stringify(written) })
    .where('id', '=', older.path.split('/').pop()!)
    .execute();
  await writeOldDefault(db() as unknown as Kysely<unknown>);
  const newer = await openCourse(tool, { clientId: 'existing', lms, linkId: 'newer', title: 'Newer essay' });
  assert.equal(storedSettings.parse(await settingsOf(older.path)).gradeColumn, 'assignment');
  assert.equal(storedSettings.parse(await settingsOf(newer.path)).gradeColumn, 'comment');

  // Sam's paper in each: the older assignment posts the similarity as the grade, the newer one a comment only.
  await older.submit('student-1', 'Rivers carve valleys over many thousands of years. '.repeat(30));
  await newer.submit('student-1', 'Glaciers move slowly and shape mountains as they go. '.repeat(30));
  const column = (linkId: string) => lms.platform.resourceLinks().find((link) => link.id === linkId)!.lineItemIds[0];
  const cell = (linkId: string) =>
    lms.platform.gradebook().find((row) => row.lineItemId === column(linkId) && row.userId === 'student-1');
  await eventually(
    () => shownSimilarity(cell('older')) !== null && shownSimilarity(cell('newer')) !== null,
    'both results in the gradebook',
    60_000,
    200,
  );
  assert.equal(typeof cell('older')?.scoreGiven, 'number', "the older assignment's grade");
  assert.equal(cell('newer')?.scoreGiven, null, 'the newer assignment posts no grade');
});
