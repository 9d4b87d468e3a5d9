// Told when it is done. With the sandbox as the checking service: a teacher who opens the dashboard again reads how
// many results arrived since their last visit, and which (each instructor their own visits; sorting within one visit
// keeps it); the student's page says when their result arrived; and the class's similarity reports download as one
// ZIP, each the very report a single download gives, for the course's instructors only.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { unzipSync } from 'fflate';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { en } from '../../src/i18n/en.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { pageText } from '../support/page-text.js';
import { paper } from '../support/papers.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

let tool: TestTool;
let course: TestCourse;

before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '200', POLL_SCHEDULE_SECONDS: '1', JOB_POLLING_SECONDS: '0.5' });
  course = await openCourse(tool, { clientId: 'told-when-done' });
  course.lms.platform.addUser({
    id: 'instructor-2',
    name: 'Second Teacher',
    email: 'second@example.edu',
    roles: ROLES.instructor,
  });
});
after(async () => {
  await course.lms.close();
  await tool.stop();
});

async function ltikOf(userId: string): Promise<string> {
  const launched = await launch(course.lms.platform, { userId, resourceLinkId: 'essay' });
  assert.ok(launched.ltik, `${userId}'s launch: ${launched.status}`);
  return launched.ltik;
}

const withLtik = (path: string, ltik: string) =>
  `${tool.url}${path}${path.includes('?') ? '&' : '?'}ltik=${encodeURIComponent(ltik)}`;

async function dashboard(ltik: string, query = '') {
  const response = await fetch(withLtik(`${course.path}/dashboard${query}`, ltik));
  assert.equal(response.status, 200);
  const html = await response.text();
  // What arrived since the last visit is said right under the class's summary line.
  const summary = pageText(/<p id="since-visit"[\s\S]*?<\/p>/.exec(html)?.[0] ?? '');
  const newRows = html
    .split('<tr data-state=')
    .slice(1)
    .filter((row) => row.includes('class="new-result"'))
    .map((row) => /<span class="name">([^<]*)</.exec(row)![1]!.trim());
  return { html, summary, newRows: newRows.sort() };
}

const arrived = (count: number) => `${count} results arrived since your last visit`;
const nothingNew = en['dashboard.summary.nothingNew'].replace(/ \(\{time\}\)$/, '');

/** A PDF without what the sandbox's PDF library writes anew each time it makes one (its creation time, its id). */
const comparable = (pdf: Uint8Array) =>
  Buffer.from(pdf)
    .toString('latin1')
    .replace(/\(D:\d{14}[^)]*\)/g, '')
    .replace(/\/ID \[<[0-9a-f]+> ?<[0-9a-f]+>\]/gi, '');

async function checked(submissionId: string) {
  await eventually(
    async () => {
      const row = await tool.tool.database.db
        .selectFrom('submission')
        .select('state')
        .where('id', '=', submissionId)
        .executeTakeFirst();
      return row?.state === 'scored' || row?.state === 'graded';
    },
    `submission ${submissionId} was never checked`,
    60_000,
    100,
  );
}

test("the teacher sees what arrived since their own last visit, the student when the result arrived, the class's reports in one archive", async () => {
  // The first teacher's first visit was the course's opening; the second teacher's is now: no visit before it.
  const second = await dashboard(await ltikOf('instructor-2'));
  assert.ok(!second.summary.includes('since your last visit'), second.summary);
  const before = await dashboard(await ltikOf('instructor-1'));
  assert.ok(before.summary.includes(nothingNew), before.summary);

  const ids = [
    await course.submit('student-a', paper('toldalpha')),
    await course.submit('student-b', paper('toldbeta')),
  ];
  for (const id of ids) await checked(id);

  // The next visit: both results are new, and sorting within the visit keeps them so.
  const visit = await ltikOf('instructor-1');
  const now = await dashboard(visit);
  assert.ok(now.summary.includes(arrived(2)), now.summary);
  assert.deepEqual(now.newRows, ['Student student-a', 'Student student-b']);
  assert.match(now.summary, /since your last visit \(.*\d.*\)/, 'the summary names when the last visit was');
  const sorted = await dashboard(visit, '?sort=name&dir=asc');
  assert.ok(sorted.summary.includes(arrived(2)), sorted.summary);
  // A visit after that: nothing new.
  const later = await dashboard(await ltikOf('instructor-1'));
  assert.ok(later.summary.includes(nothingNew), later.summary);
  assert.deepEqual(later.newRows, []);
  // The second teacher's own last visit was before the results: both are new to them.
  const secondAgain = await dashboard(await ltikOf('instructor-2'));
  assert.ok(secondAgain.summary.includes(arrived(2)), secondAgain.summary);

  // The student's page says when the result arrived.
  const student = await ltikOf('student-a');
  const page = await (await fetch(withLtik(course.path, student))).text();
  const card = /<div class="result-card"[\s\S]*?<\/div>/.exec(page)![0];
  assert.match(card, /<p class="result-at">Result arrived <time datetime="[^"]+"/, card);
  const own = (await (await fetch(withLtik(`${course.path}/my-submissions`, student))).json()) as {
    submissions: Array<{ resultAt: string | null }>;
  };
  const scoredAt = await tool.tool.database.db
    .selectFrom('submission')
    .select('scored_at')
    .where('id', '=', ids[0]!)
    .executeTakeFirstOrThrow();
  assert.equal(own.submissions[0]!.resultAt, scoredAt.scored_at!.toISOString());

  // The class's reports in one archive, each the report a single download gives; offered on the dashboard.
  assert.ok(later.html.includes('/reports.zip?'), 'the dashboard offers the archive');
  assert.ok(pageText(later.html).includes(en['dashboard.downloadReports']));
  const teacher = await ltikOf('instructor-1');
  const archive = await fetch(withLtik(`${course.path}/reports.zip`, teacher));
  assert.equal(archive.status, 200);
  assert.equal(archive.headers.get('content-type'), 'application/zip');
  assert.match(archive.headers.get('content-disposition') ?? '', /^attachment; filename=".+-reports\.zip"$/);
  const entries = unzipSync(new Uint8Array(await archive.arrayBuffer()));
  assert.deepEqual(Object.keys(entries).sort(), [
    'Student-student-a-attempt-1-similarity-report.pdf',
    'Student-student-b-attempt-1-similarity-report.pdf',
  ]);
  for (const [index, id] of ids.entries()) {
    const single = await fetch(withLtik(`/reports/${id}/similarity`, teacher));
    assert.equal(single.status, 200);
    const bytes = new Uint8Array(await single.arrayBuffer());
    const entry = entries[`Student-student-${index === 0 ? 'a' : 'b'}-attempt-1-similarity-report.pdf`]!;
    assert.equal(new TextDecoder().decode(entry.slice(0, 5)), '%PDF-');
    assert.equal(comparable(entry), comparable(bytes), 'the same report as a single download');
  }

  // A student may not download the class's reports.
  const refused = await fetch(withLtik(`${course.path}/reports.zip`, student));
  assert.equal(refused.status, 403);
  assert.ok(!(refused.headers.get('content-type') ?? '').includes('zip'));
});
