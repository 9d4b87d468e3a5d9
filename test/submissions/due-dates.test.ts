// Dates follow the deadline. Two students hand in before the due date; the teacher then moves the date before their
// papers (the settings page): both read late on the dashboard, in the CSV, on the teacher's page of each student, on
// the student's own page and in the receipt. One student's launch then states an extension (Canvas's
// $Canvas.assignment.dueAt.iso8601, as test/fixtures/lms/canvas/due-date.md quotes it): that student's paper is on
// time again everywhere, the other's stays late. Last, the LMS moves the assignment's date past both (an instructor's
// launch states it): neither is late.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { en } from '../../src/i18n/en.js';
import { toolUrls } from '../../src/lti/provider.js';
import { saveSettings } from '../support/grade-column.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { pageText } from '../support/page-text.js';
import { paper } from '../support/papers.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
let lms: TestPlatform;

before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '200', POLL_SCHEDULE_SECONDS: '1', JOB_POLLING_SECONDS: '0.5' });
  // A Canvas that registers the tool itself: the registration asks it for the two date variables, and it adds them to
  // every launch of the tool, expanded (src/devplatform/custom-variables.ts).
  lms = await startTestPlatform(tool, { clientId: 'due-dates', rules: 'canvas', register: false });
  const registered = await fetch(lms.platform.registrationUrl(toolUrls(tool.url).register));
  assert.equal(registered.status, 200, await registered.text());
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const LINK = 'moving';
const STUDENTS = ['student-ada', 'student-ben'] as const;
const LATE = en['student.late'];

async function ltikOf(course: TestCourse, userId: string): Promise<string> {
  const launched = await launch(course.lms.platform, { userId, resourceLinkId: LINK });
  assert.ok(launched.ltik, `${userId}'s launch: ${launched.status}`);
  return launched.ltik;
}

async function get(path: string, ltik: string): Promise<string> {
  const response = await fetch(`${tool.url}${path}${path.includes('?') ? '&' : '?'}ltik=${encodeURIComponent(ltik)}`);
  assert.equal(response.status, 200, path);
  return response.text();
}

/** Whether each student's paper reads late, on every page and in the CSV: one answer per place, per student. */
async function lateEverywhere(course: TestCourse, submissions: Record<string, string>) {
  const teacher = await ltikOf(course, 'instructor-1');
  const dashboardRows = (await get(`${course.path}/dashboard`, teacher)).split('<tr data-state=').slice(1);
  const csv = (await get(`${course.path}/export.csv`, teacher)).trim().split('\r\n');
  const header = csv[0]!.split(',');
  const db = tool.tool.database.db;
  const read: Record<string, Record<string, boolean>> = {};
  for (const student of STUDENTS) {
    const name = `Student ${student}`;
    const row = dashboardRows.find((html) => pageText(html).includes(name));
    assert.ok(row, `${name} on the dashboard`);
    const cells = csv.find((line) => line.startsWith(`${name},`))!.split(',');
    const { user_id: userId } = await db
      .selectFrom('submission')
      .select('user_id')
      .where('id', '=', submissions[student]!)
      .executeTakeFirstOrThrow();
    const review = await get(`${course.path}/students/${userId}`, teacher);
    const own = await ltikOf(course, student);
    const page = pageText(await get(course.path, own));
    const receipt = await get(`${course.path}/submissions/${submissions[student]}/receipt`, own);
    read[student] = {
      dashboard: pageText(row).includes(LATE),
      csv: cells[header.indexOf('late')] === 'true',
      review: pageText(review).includes(LATE),
      page: page.includes(LATE),
      receipt: receipt.includes(en['receipt.late']),
    };
  }
  return read;
}

const everywhere = (late: boolean) => ({ dashboard: late, csv: late, review: late, page: late, receipt: late });

test('the registration asks Canvas for the due date of each launch and for every due date the assignment has', () => {
  const configuration =
    lms.platform.dynamicRegistrations()[0]!['https://purl.imsglobal.org/spec/lti-tool-configuration'];
  assert.deepEqual((configuration as { custom_parameters: unknown }).custom_parameters, {
    due_at: '$Canvas.assignment.dueAt.iso8601',
    all_due_at: '$Canvas.assignment.allDueAts.iso8601',
  });
});

test('a due date moved after the papers arrived: each paper late or not against the date now in force, on every page and in the CSV', async () => {
  const course = await openCourse(tool, { clientId: 'due-dates', lms, linkId: LINK });
  await saveSettings(tool, course, LINK, (form) => form.set('dueAt', '2099-06-30T12:00'));
  const submissions: Record<string, string> = {};
  for (const student of STUDENTS) submissions[student] = await course.submit(student, paper(student.replace('-', '')));

  // Before: handed in before the due date.
  assert.deepEqual(await lateEverywhere(course, submissions), {
    'student-ada': everywhere(false),
    'student-ben': everywhere(false),
  });

  // The teacher moves the date before both papers.
  await saveSettings(tool, course, LINK, (form) => form.set('dueAt', '2020-01-15T12:00'));
  assert.deepEqual(await lateEverywhere(course, submissions), {
    'student-ada': everywhere(true),
    'student-ben': everywhere(true),
  });

  // Canvas states Ben's own date (an extension) in his launch: his paper is on time again; Ada's stays late. (Until
  // now the launches carried the variables unexpanded: Canvas had no dates, and the settings page's date held.)
  const link = lms.platform.resourceLinks().find((l) => l.id === LINK)!;
  link.dueAt = '2020-01-15T12:00:00Z';
  link.dueAtFor = { 'student-ben': '2099-12-31T23:00:00Z' };
  await ltikOf(course, 'student-ben');
  const read = await lateEverywhere(course, submissions);
  assert.deepEqual(read, { 'student-ada': everywhere(true), 'student-ben': everywhere(false) });
  const bensPage = pageText(await get(course.path, await ltikOf(course, 'student-ben')));
  assert.ok(bensPage.includes('2099'), `Ben's page shows his own due date: ${bensPage}`);

  // The LMS moves the assignment's date past both (the latest date, in the teacher's launch): neither is late.
  link.dueAt = '2099-12-31T23:00:00Z';
  link.dueAtFor = {};
  await ltikOf(course, 'instructor-1');
  assert.deepEqual(await lateEverywhere(course, submissions), {
    'student-ada': everywhere(false),
    'student-ben': everywhere(false),
  });
});
