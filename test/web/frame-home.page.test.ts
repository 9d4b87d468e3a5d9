// The pages at home in the LMS that shows them, in Chromium: the type of the LMS the platform registered as
// (Canvas's Lato, else the tool's own), the assignment's title shown by the page only outside a frame, and the
// sentence of a session that ended shown inside the registered LMS's frame, while a frame on any other site is
// refused it; a refused launch's sentence (an unknown message type) shown inside any frame. (Moodle's type and the dashboard in Moodle's frame:
// test/web/dashboard-glance.page.test.ts.)
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launch } from '../../src/devplatform/agent.js';
import { toolUrls } from '../../src/lti/provider.js';
import { wordsFor } from '../../src/i18n/index.js';
import { launchBrowser, screenshot, seriousAxeViolations } from '../support/browser.js';
import { openCourse } from '../support/course.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

declare const document: { forms: Array<{ submit(): void }> };

let tool: TestTool;
let canvas: ServedPlatform;
let plain: ServedPlatform;
let browser: Browser;
const { t } = wordsFor('en');
/** A site that is no registered platform, and the registered LMS's own site, each with pages that frame the tool. */
let stranger: Server;
let strangerSite = '';
let lmsSite = '';

before(async () => {
  tool = await startTestTool();
  canvas = await startTestPlatform(tool, { rules: 'canvas', clientId: 'home-canvas', productFamily: 'canvas' });
  plain = await startTestPlatform(tool, { clientId: 'home-plain' });
  await openCourse(tool, { lms: canvas, clientId: 'home-canvas', title: 'Essay in Canvas' });
  await openCourse(tool, { lms: plain, clientId: 'home-plain', title: 'Essay elsewhere' });
  lmsSite = `${new URL(canvas.url).origin}/home`;
  canvas.app.get(['/home/course-page', '/home/post'], framingPages);
  stranger = createServer(framingPages);
  stranger.listen(0, '127.0.0.1');
  await once(stranger, 'listening');
  strangerSite = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  stranger?.close();
  await canvas?.close();
  await plain?.close();
  await tool?.stop();
});

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The launches' fields that a course page's frame posts (by id). */
const posts = new Map<string, Record<string, string>>();

/**
 * A site's pages that frame the tool (an LMS's course page, or a stranger's): `/course-page?src=` frames `src`
 * beside a 285 px course index; with `post=<id>` the frame posts those fields to `src` instead, as an LMS's
 * authorization endpoint answers (OIDC form_post). (Real servers: Chromium refuses a page the test answers itself
 * the frames of a local address.)
 */
function framingPages(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://site');
  const src = url.searchParams.get('src') ?? '';
  const fields = posts.get(url.searchParams.get('post') ?? '');
  res.setHeader('content-type', 'text/html');
  if (url.pathname.endsWith('/post') && fields) {
    return void res.end(
      `<!doctype html><form method="post" action="${escape(src)}">${Object.entries(fields)
        .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
        .join('')}</form><script>document.forms[0].submit()</script>`,
    );
  }
  const frameSrc = fields ? `${url.pathname.replace(/course-page$/, 'post')}?${url.searchParams}` : src;
  res.end(
    `<!doctype html><html lang="en"><title>Course</title><body style="margin:0;display:flex"><nav style="width:285px;flex:none">Course index</nav><iframe id="tool-frame" title="The tool" src="${escape(frameSrc)}" style="width:1000px;height:562px;border:0;flex:none"></iframe></body></html>`,
  );
}

async function framingPage(): Promise<Page> {
  return (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
}

/** Opens `site`'s course page framing `src` (posting `post` to it) and gives the tool's answer and where the frame ended. */
async function openFraming(
  page: Page,
  site: string,
  src: string,
  post?: Record<string, string>,
): Promise<{ status: number; frameUrl: string }> {
  const query = new URLSearchParams({ src });
  if (post) {
    const id = String(posts.size + 1);
    posts.set(id, post);
    query.set('post', id);
  }
  const toolAnswer = page.waitForResponse(
    (response) => response.url().startsWith(tool.url) && response.request().isNavigationRequest(),
  );
  await page.goto(`${site}/course-page?${query}`);
  const status = (await toolAnswer).status();
  let frameUrl = '';
  await eventually(
    async () => {
      const frame = await (await page.$('#tool-frame'))?.contentFrame();
      frameUrl = frame?.url() ?? '';
      return frameUrl.startsWith(tool.url) || frameUrl.startsWith('chrome-error:');
    },
    'the frame did not load',
    15_000,
    100,
  );
  return { status, frameUrl };
}

/** The sentence is in sight inside the LMS's frame: drawn, and within the frame's box. */
async function assertSentenceInFrame(page: Page, sentence: string, name: string): Promise<void> {
  const text = page.frameLocator('#tool-frame').getByText(sentence);
  await text.waitFor({ state: 'visible', timeout: 15_000 });
  const box = (await text.boundingBox())!;
  const frame = (await page.locator('#tool-frame').boundingBox())!;
  assert.ok(
    box.x >= frame.x &&
      box.y >= frame.y &&
      box.x + box.width <= frame.x + frame.width &&
      box.y + box.height <= frame.y + frame.height,
    `the sentence is drawn at ${JSON.stringify(box)}, outside the frame ${JSON.stringify(frame)}`,
  );
  const framed = (await (await page.$('#tool-frame'))!.contentFrame())!;
  assert.deepEqual(await seriousAxeViolations(framed), []);
  await screenshot(page, `frame-home-${name}`);
}

/** A launch's posted fields, taken before they reach the tool (the dev platform's own post is refused unused). */
async function unpostedLaunch(
  platform: ServedPlatform,
  options: Omit<Parameters<typeof launch>[1], 'editForm'>,
): Promise<Record<string, string>> {
  let fields: Record<string, string> = {};
  await launch(platform.platform, {
    ...options,
    editForm: (posted) => ((fields = posted), { ...posted, state: 'kept-for-the-browser' }),
  });
  assert.ok(fields.id_token && fields.state, 'the platform issued a launch');
  return fields;
}

test("the type of the LMS the platform registered as: Canvas's Lato, else the tool's own; the title shown outside a frame", async () => {
  for (const [lms, family, title] of [
    [canvas, /^"Lato Extended", Lato, /, 'Essay in Canvas'],
    [plain, /^system-ui, /, 'Essay elsewhere'],
  ] as const) {
    const student = await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay' });
    assert.equal(student.status, 200, student.body.slice(0, 300));
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    try {
      await page.goto(
        student.url.includes('ltik=') ? student.url : `${student.url}?ltik=${encodeURIComponent(student.ltik!)}`,
      );
      const type = await page.locator('body').evaluate((body) => {
        const style = (
          globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string; fontFamily: string } }
        ).getComputedStyle(body);
        return { size: style.fontSize, family: style.fontFamily };
      });
      assert.match(type.family, family);
      assert.equal(type.size, '16px');
      // In a window of its own no LMS shows the title: the page does.
      const heading = page.getByRole('heading', { level: 1, name: title });
      assert.ok(await heading.isVisible());
      assert.ok(((await heading.boundingBox())?.height ?? 0) > 10);
    } finally {
      await page.context().close();
    }
  }
});

/**
 * The tool's answer at `src` (posted `post()`'s fields, when given), framed by the registered LMS's course page and
 * by a stranger's: its sentence is in sight in the first, and the browser refuses the second the tool's answer.
 */
async function assertShownInLmsOnly(
  what: string,
  src: string,
  status: number,
  sentence: string,
  post?: () => Promise<Record<string, string>>,
): Promise<void> {
  const inLms = await framingPage();
  try {
    const answer = await openFraming(inLms, lmsSite, src, await post?.());
    assert.equal(answer.status, status);
    await assertSentenceInFrame(inLms, sentence, `${what}-in-lms`);
  } finally {
    await inLms.context().close();
  }
  const elsewhere = await framingPage();
  try {
    const answer = await openFraming(elsewhere, strangerSite, src, await post?.());
    assert.equal(answer.status, status, 'the tool answered');
    assert.match(answer.frameUrl, /^chrome-error:/, "the browser showed the tool's answer in a stranger's frame");
    assert.equal(await elsewhere.frameLocator('#tool-frame').getByText(sentence).count(), 0);
  } finally {
    await elsewhere.context().close();
  }
}

test("a launch of a message type the tool does not take: a refused launch's sentence shows in any LMS's frame, the registered one's or one the tool does not know (it holds nothing that acts: test/lti/launch-attacks.security.test.ts)", async () => {
  const settingsLaunch = {
    userId: 'instructor-1',
    assetProcessor: { messageType: 'LtiAssetProcessorSettingsRequest' as const, activityId: 'a1' },
  };
  for (const [where, site] of [
    ['in-lms', lmsSite],
    ['elsewhere', strangerSite],
  ] as const) {
    const page = await framingPage();
    try {
      const answer = await openFraming(
        page,
        site,
        toolUrls(tool.url).launch,
        await unpostedLaunch(canvas, settingsLaunch),
      );
      assert.equal(answer.status, 401);
      await assertSentenceInFrame(page, t('launch.notOffered'), `unknown-message-${where}`);
    } finally {
      await page.context().close();
    }
  }
});

test("a session that ended: the sentence shows in the registered LMS's frame, and a stranger's frame is refused it", async () => {
  const student = await launch(canvas.platform, { userId: 'student-1', resourceLinkId: 'essay' });
  assert.ok(student.ltik, student.body.slice(0, 300));
  const page = new URL(student.url);
  page.searchParams.set('ltik', student.ltik);
  // The LMS session's record expires (after a day); the page's key stays in the frame.
  await tool.tool.database.db.deleteFrom('lti_record').where('collection', '=', 'session').execute();
  await assertShownInLmsOnly('session-ended', page.toString(), 401, t('session.ended'));
});
