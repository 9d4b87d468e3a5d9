// The words a teacher trips on, read as the teacher reads the dashboard: no red badge when nobody is in the red band,
// no "send all scores again" before there is a score to send; and around the pages, /dev styled under the tool's own
// CSP, a favicon, and a paper analysed by the sandbox logged as the routine event it is (INFO, not WARN).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

let tool: TestTool;
let course: TestCourse;

before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '200', POLL_SCHEDULE_SECONDS: '1,1,2', JOB_POLLING_SECONDS: '0.5' });
  course = await openCourse(tool, { clientId: 'teacher-words' });
});
after(async () => {
  await course?.lms.close();
  await tool?.stop();
});

async function dashboard(): Promise<string> {
  const teacher = await launch(course.lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
  assert.equal(teacher.status, 200);
  return teacher.body;
}

/** The summary's count of papers in the red band, and whether it is painted red. */
function redBadge(page: string): { text: string; red: boolean } {
  const match = /<span class="([^"]*)">(\d+ at [^<]+ or above)<\/span>/.exec(page);
  assert.ok(match, 'the summary says how many papers are at the red band or above');
  return { text: match[2]!, red: match[1]!.split(' ').includes('band-red') };
}

test('a class with nobody in the red band has no red badge, and no "send again" before a score exists', async () => {
  const before = await dashboard();
  assert.equal(redBadge(before).red, false, 'a red badge for nobody');
  assert.doesNotMatch(before, /Send all scores to the gradebook again/);

  await course.submit('student-1', 'An original paper about the rivers of the north and their floods in spring.');
  await eventually(
    async () =>
      (await tool.tool.database.db.selectFrom('submission').select('similarity').executeTakeFirst())?.similarity !==
      null,
    'the paper was checked',
    60_000,
    250,
  );
  const after = await dashboard();
  assert.deepEqual(redBadge(after), { text: '0 at 75% or above', red: false });
  assert.match(after, /Send all scores to the gradebook again/);
});

test("/dev is styled by a stylesheet the tool's CSP allows, and /favicon.ico is an icon", async () => {
  const home = await fetch(`${tool.url}/dev/`);
  assert.equal(home.status, 200);
  const csp = home.headers.get('content-security-policy') ?? '';
  assert.match(csp, /style-src 'self'/);
  const page = await home.text();
  assert.doesNotMatch(page, /<style|style="/, 'an inline style the CSP refuses');
  const sheet = /<link rel="stylesheet" href="([^"]+)">/.exec(page)?.[1];
  assert.ok(sheet, 'the page names a stylesheet');
  const css = await fetch(new URL(sheet, `${tool.url}/dev/`));
  assert.equal(css.status, 200);
  assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
  assert.match(await css.text(), /body \{ font:/);

  const icon = await fetch(`${tool.url}/favicon.ico`);
  assert.equal(icon.status, 200);
  assert.match(icon.headers.get('content-type') ?? '', /^image\//);
  assert.deepEqual([...new Uint8Array(await icon.arrayBuffer()).slice(0, 4)], [0, 0, 1, 0], 'an ICO file');
});
