// A student who revises is not flagged against their own draft. On the dev platform with the sandbox as the checking
// service, a student hands in a draft, then the same draft with a paragraph added, in two assignments of one course:
// - by default (earlier attempts replaced), the draft's paper is deleted at the service before the revision is sent,
//   so the revision scores as the draft did; the teacher's and the student's pages keep the draft's result, marked as
//   replaced, with no report, and its report, asked for anyway, says why it is gone; the service no longer has it;
// - where the teacher keeps every attempt, the revision matches the draft ("very high"), and the draft's report
//   still opens.
// The settings page says both consequences before the teacher chooses.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { en } from '../../src/i18n/en.js';
import { deletePaperAtService } from '../../src/submissions/remove.js';
import { saveSettings } from '../support/grade-column.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { pageText } from '../support/page-text.js';
import { paper } from '../support/papers.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

let tool: TestTool;
let lms: TestPlatform;

before(async () => {
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '200',
    POLL_SCHEDULE_SECONDS: '1',
    ...FAST_JOBS,
  });
  lms = await startTestPlatform(tool, { clientId: 'revisions' });
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;

async function checked(submissionId: string) {
  await eventually(
    async () => {
      const row = await db().selectFrom('submission').select('state').where('id', '=', submissionId).executeTakeFirst();
      return row?.state === 'scored' || row?.state === 'graded';
    },
    `submission ${submissionId} was never checked`,
    60_000,
    100,
  );
  return db().selectFrom('submission').selectAll().where('id', '=', submissionId).executeTakeFirstOrThrow();
}

/** The draft, and the draft with one paragraph added. */
function drafts(seed: string) {
  const draft = paper(seed);
  const added = paper(`${seed}more`).split('. ').slice(0, 5).join('. ');
  return { draft, revision: `${draft} ${added}.` };
}

async function ltikOf(course: TestCourse, linkId: string, userId: string): Promise<string> {
  const launched = await launch(course.lms.platform, { userId, resourceLinkId: linkId });
  assert.ok(launched.ltik, `${userId}'s launch: ${launched.status}`);
  return launched.ltik;
}

async function get(path: string, ltik: string) {
  const response = await fetch(`${tool.url}${path}${path.includes('?') ? '&' : '?'}ltik=${encodeURIComponent(ltik)}`);
  return { status: response.status, text: await response.text() };
}

/** The student's own attempts as their page shows them (its data and its list). */
async function studentSees(course: TestCourse, linkId: string, userId: string) {
  const page = await get(`${course.path}/my-submissions`, await ltikOf(course, linkId, userId));
  assert.equal(page.status, 200);
  const body = JSON.parse(page.text) as {
    submissions: Array<{ attempt: number; similarity: number | null; replacedBy: number | null; reports: unknown[] }>;
    html: string;
  };
  return { attempts: body.submissions, list: pageText(body.html) };
}

/** The teacher's page of one student's attempts (where the LMS's submission review lands). */
async function teacherSees(course: TestCourse, linkId: string, userId: string) {
  const page = await get(`${course.path}/students/${userId}`, await ltikOf(course, linkId, 'instructor-1'));
  assert.equal(page.status, 200);
  return page.text;
}

const replacedWords = (attempt: number) =>
  en['student.replaced'].replace('{attempt}', String(attempt)).replace(/:.*/, '');

test('the settings page says what each choice does to a revising student before the teacher chooses', async () => {
  const course = await openCourse(tool, { clientId: 'revisions', lms, linkId: 'words' });
  const settings = await get(`${course.path}/settings`, await ltikOf(course, 'words', 'instructor-1'));
  const text = pageText(settings.text);
  assert.ok(text.includes(en['settings.earlierAttempts.replaceHelp']), 'the default choice says the report goes');
  assert.ok(text.includes(en['settings.earlierAttempts.keepHelp']), 'keeping every attempt says the draft matches');
  assert.match(settings.text, /name="earlierAttempts" value="replace"[^>]*checked/);
});

test('by default the revision replaces the draft at the service: it scores as the draft did, the draft kept as replaced', async () => {
  const course = await openCourse(tool, { clientId: 'revisions', lms, linkId: 'replace' });
  const { draft, revision } = drafts('riverdelta');
  const first = await checked(await course.submit('student-r', draft));
  assert.equal(Number(first.similarity), 0);
  const second = await checked(await course.submit('student-r', revision));

  assert.equal(Number(second.similarity), 0, 'the revision is not matched against its own draft');
  const draftNow = await db().selectFrom('submission').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
  assert.equal(draftNow.replaced_by_attempt, 2);
  assert.equal(Number(draftNow.similarity), 0, "the draft's result stays");
  const assignment = await db()
    .selectFrom('assignment')
    .select(['id', 'folder_id'])
    .where('id', '=', first.assignment_id)
    .executeTakeFirstOrThrow();
  assert.equal(
    await deletePaperAtService(() => tool.tool.services.forAssignment(assignment.id), {
      folderId: Number(assignment.folder_id),
      paperId: Number(first.paper_id),
    }),
    'gone',
    'the service no longer has the draft',
  );

  // The student: both attempts, the draft's result with the word that it was replaced, and no report of it.
  const student = await studentSees(course, 'replace', 'student-r');
  assert.deepEqual(
    student.attempts.map((a) => [a.attempt, a.similarity, a.replacedBy, a.reports.length > 0]),
    [
      [2, 0, null, true],
      [1, 0, 2, false],
    ],
  );
  assert.ok(student.list.includes(replacedWords(2)), student.list);

  // The teacher: the same, on the student's page of attempts.
  const teacher = await teacherSees(course, 'replace', first.user_id);
  const rows = teacher.split('<tr data-state=').slice(1);
  assert.equal(rows.length, 2);
  assert.ok(!pageText(rows[0]!).includes(replacedWords(2)) && rows[0]!.includes(`/reports/${second.id}/`));
  assert.ok(pageText(rows[1]!).includes(replacedWords(2)), pageText(rows[1]!));
  assert.ok(!rows[1]!.includes(`/reports/${first.id}/`), 'no link to a report that is gone');

  // The draft's report, asked for anyway, says why it is gone.
  const report = await get(`/reports/${first.id}/similarity/view`, await ltikOf(course, 'replace', 'instructor-1'));
  assert.equal(report.status, 404);
  assert.ok(pageText(report.text).includes(en['report.replaced']), pageText(report.text));
});

test('where the teacher keeps every attempt, the revision matches the draft and the draft keeps its report', async () => {
  const course = await openCourse(tool, { clientId: 'revisions', lms, linkId: 'keep' });
  await saveSettings(tool, course, 'keep', (form) => form.set('earlierAttempts', 'keep'));
  const { draft, revision } = drafts('glacierflow');
  const first = await checked(await course.submit('student-k', draft));
  const second = await checked(await course.submit('student-k', revision));

  assert.ok(Number(second.similarity) >= 75, `the revision matches its draft: ${second.similarity}%`);
  const draftNow = await db().selectFrom('submission').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
  assert.equal(draftNow.replaced_at, null);

  const student = await studentSees(course, 'keep', 'student-k');
  assert.deepEqual(
    student.attempts.map((a) => [a.attempt, a.replacedBy, a.reports.length > 0]),
    [
      [2, null, true],
      [1, null, true],
    ],
  );
  assert.ok(!student.list.includes(replacedWords(2)));
  const teacher = pageText(await teacherSees(course, 'keep', first.user_id));
  assert.ok(teacher.includes(en['band.red']), `the teacher reads the revision as very high: ${teacher}`);
  const report = await get(`/reports/${first.id}/similarity/view`, await ltikOf(course, 'keep', 'instructor-1'));
  assert.equal(report.status, 200);
});
