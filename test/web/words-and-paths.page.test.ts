// What the pages offer is what the tool can do: /dev offers the LMS's own assignments (where an Asset Processor is
// attached) only when the tool is one; an LMS administrator's launch has a way to the tool's administration, a
// teacher's has none; a row offers the gradebook again only for a paper the gradebook has, named for what the
// assignment posts (a comment, or a grade).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { waitUntil } from '../fixtures/sandbox/client.js';
import { launchBrowser } from '../support/browser.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { pageText } from '../support/page-text.js';
import { startTestTool, type TestTool } from '../support/tool.js';

// One tool per process (ltijs is one provider): the default, with the Asset Processor off.
let tool: TestTool;
let course: TestCourse;
before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '200', JOB_POLLING_SECONDS: '0.5', POLL_SCHEDULE_SECONDS: '1,1,2' });
  course = await openCourse(tool, { clientId: 'words-paths' });
});
after(async () => {
  await course?.lms.close();
  await tool?.stop();
});

describe('/dev offers only what the tool has switched on', () => {
  test("with the Asset Processor off, the tool's /dev offers none of the LMS's own assignments; a platform whose tool is one does", async () => {
    assert.equal(tool.config.assetProcessor, false);
    const page = await fetch(`${tool.url}/dev`);
    assert.equal(page.status, 200);
    const text = pageText(await page.text());
    assert.match(text, /Demo essay/, 'the tool itself is offered');
    assert.doesNotMatch(text, /Assignments of the LMS|document processing/, text);
    const other = pageText(await (await fetch(`${course.lms.url}/`)).text());
    assert.match(other, /Assignments of the LMS \(document processing\)/, 'a platform told nothing offers them');
  });
});

describe('paths and words of the instructor pages', () => {
  test("an LMS administrator's launch leads to the tool's administration, for their platform; a teacher's does not", async () => {
    const admin = await launch(course.lms.platform, { userId: 'admin-1', resourceLinkId: 'essay' });
    assert.equal(admin.status, 200, admin.body);
    const link = /<a href="(\/admin\?ltik=[^"]+)">Administration<\/a>/.exec(admin.body);
    assert.ok(link, `no way to the administration: ${pageText(admin.body)}`);
    const page = await fetch(new URL(link[1]!.replace(/&amp;/g, '&'), tool.url));
    assert.equal(page.status, 200);
    assert.match(pageText(await page.text()), /words-paths/, "the administrator's own registration is listed");
    const teacher = await launch(course.lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    assert.equal(teacher.status, 200);
    assert.doesNotMatch(teacher.body, /href="\/admin/);
    assert.match(pageText(teacher.body), /Submissions Check settings/, 'the tabs');
  });

  test('a row offers the gradebook again only for a paper the gradebook has, named for what it posts', async () => {
    const paperId = await course.submit(
      'student-words',
      'A river carves its valley over long ages of floods and drought.',
    );
    const db = tool.tool.database.db;
    const gradeState = async () =>
      (await db.selectFrom('submission').select('grade_state').where('id', '=', paperId).executeTakeFirstOrThrow())
        .grade_state;
    await waitUntil('the result in the gradebook', async () => (await gradeState()) === 'posted', 60_000);
    const dashboard = async () =>
      pageText((await launch(course.lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' })).body);
    const posted = await dashboard();
    // The default posts a comment and no grade: the action says what it sends again.
    assert.match(posted, /Send the result to the gradebook again/);
    assert.doesNotMatch(posted, /Resend grade/);
    // While the gradebook has nothing of the paper yet (its post is queued), nothing is offered to send again.
    await db.updateTable('submission').set({ grade_state: 'pending' }).where('id', '=', paperId).execute();
    assert.doesNotMatch(await dashboard(), /Send the result to the gradebook again|Resend grade/);
  });
});

describe('the framed views fit', () => {
  test("/dev's framed link with Moodle's course index (panel=285) keeps the whole frame in the window", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
      const url = `${course.lms.url}/frame?${new URLSearchParams({ user: 'instructor-1', link: 'essay', panel: '285' })}`;
      await page.goto(url);
      await page.frameLocator('#tool-frame').locator('h1').first().waitFor();
      const panel = (await page.locator('#course-index').boundingBox())!;
      const frame = (await page.locator('#tool-frame').boundingBox())!;
      const width = page.viewportSize()!.width;
      assert.equal(Math.round(panel.width), 285);
      assert.ok(frame.x >= panel.x + panel.width - 1, `the frame starts at ${frame.x}, inside the panel`);
      assert.ok(frame.x + frame.width <= width + 0.5, `the frame ends at ${frame.x + frame.width} of ${width} px`);
      assert.ok(frame.width >= width - 285 - 1, `the frame takes the rest of the window: ${frame.width} px`);
    } finally {
      await browser.close();
    }
  });
});
