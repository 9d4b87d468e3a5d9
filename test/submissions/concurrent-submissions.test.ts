// One student sending several files at the same moment (two tabs, a double click on a slow connection): each
// gets a clear answer, the attempt numbers stay one, two, three, and the assignment's attempt rules hold.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
let lms: TestPlatform;

before(async () => {
  // Five files at once from one student: more than one person's share of the upload places by default.
  tool = await startTestTool({ SANDBOX_DELAY_MS: '60000', UPLOADS_PER_PERSON: '5' });
  lms = await startTestPlatform(tool);
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;

/** An assignment opened by its instructor, with these settings, and a student's session in it. */
async function assignmentWith(
  linkId: string,
  settings: object,
): Promise<{ path: string; ltik: string; studentId: string }> {
  lms.platform.addResourceLink({ id: linkId, title: linkId, lineItem: { label: linkId, scoreMaximum: 100 } });
  const instructor = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: linkId });
  assert.equal(instructor.status, 200);
  const path = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');
  const id = path.split('/').pop()!;
  const current = await db().selectFrom('assignment').select('settings').where('id', '=', id).executeTakeFirstOrThrow();
  await db()
    .updateTable('assignment')
    .set({ settings: JSON.stringify({ ...(current.settings as object), ...settings }) })
    .where('id', '=', id)
    .execute();
  const studentId = `student-${linkId}`;
  lms.platform.addUser({
    id: studentId,
    name: `Student ${linkId}`,
    email: `${studentId}@example.edu`,
    roles: ROLES.learner,
  });
  const student = await launch(lms.platform, { userId: studentId, resourceLinkId: linkId });
  assert.ok(student.ltik, student.body);
  return { path, ltik: student.ltik, studentId };
}

async function post(path: string, ltik: string, text: string) {
  const form = new FormData();
  form.append('file', new Blob([text]), 'essay.txt');
  const response = await fetch(`${tool.url}${path}/submissions`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${ltik}`, accept: 'application/json' },
  });
  return {
    status: response.status,
    body: (await response.json()) as { submissionId?: string; error?: string; message?: string },
  };
}

async function attempts(studentId: string) {
  return db()
    .selectFrom('submission')
    .select(['id', 'attempt'])
    .where('user_id', 'in', db().selectFrom('lti_user').select('id').where('subject', '=', studentId))
    .orderBy('attempt')
    .execute();
}

const essay = (n: number) =>
  `Essay number ${n}. ` + `Its own argument, sentence after sentence, written for attempt ${n}. `.repeat(20);

describe('one student, several files at once', () => {
  test('five different files at the same moment: five receipts, attempts 1 to 5, no error', async () => {
    const { path, ltik, studentId } = await assignmentWith('five-at-once', {
      resubmission: 'any-time',
      maxAttempts: 10,
    });
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => post(path, ltik, essay(n))));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [201, 201, 201, 201, 201],
      JSON.stringify(answers),
    );
    const rows = await attempts(studentId);
    assert.deepEqual(
      rows.map((row) => row.attempt),
      [1, 2, 3, 4, 5],
    );
    assert.deepEqual(new Set(rows.map((row) => row.id)), new Set(answers.map((answer) => answer.body.submissionId)));
  });

  test('one submission allowed, two files at once: one is taken, the other is refused with the reason', async () => {
    const { path, ltik, studentId } = await assignmentWith('one-only', { resubmission: 'none' });
    const answers = await Promise.all([1, 2].map((n) => post(path, ltik, essay(n))));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409], JSON.stringify(answers));
    const refused = answers.find((answer) => answer.status === 409)!;
    assert.match(JSON.stringify(refused.body), /takes one submission, and yours is in/);
    assert.equal((await attempts(studentId)).length, 1);
  });

  test('a limit of two, four files at once: two are taken, two refused', async () => {
    const { path, ltik, studentId } = await assignmentWith('two-only', { resubmission: 'any-time', maxAttempts: 2 });
    const answers = await Promise.all([1, 2, 3, 4].map((n) => post(path, ltik, essay(n))));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 201, 409, 409], JSON.stringify(answers));
    assert.deepEqual(
      (await attempts(studentId)).map((row) => row.attempt),
      [1, 2],
    );
  });

  test('the same file twice at once (a double click): one submission, both answers name it', async () => {
    const { path, ltik, studentId } = await assignmentWith('double-click', {
      resubmission: 'any-time',
      maxAttempts: 10,
    });
    const answers = await Promise.all([post(path, ltik, essay(7)), post(path, ltik, essay(7))]);
    assert.ok(
      answers.every((answer) => answer.status === 200 || answer.status === 201),
      JSON.stringify(answers),
    );
    const rows = await attempts(studentId);
    assert.equal(rows.length, 1);
    assert.deepEqual(
      answers.map((answer) => answer.body.submissionId),
      [rows[0]!.id, rows[0]!.id],
    );
  });
});
