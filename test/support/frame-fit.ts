// Every page as it sits in an LMS's frame, for test/frame-fit-*.test.ts: the dev platform frames the launch at the
// size of Moodle's frame (fixed height, no messages) and of Canvas's (it follows lti.frameResize), in a 1366×768
// window and on a 390×844 phone, and at the 320 px the pages promise to fit. On each page: no table header broken
// inside a word, nothing wider than the frame, nothing cut off, no scroll box inside the page, its end in reach, the
// height posted to the parent equal to the page's, and axe clean. Screenshots go to test-artifacts/browser/frame-*.png.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { artifactsDir, launchBrowser, seriousAxeViolations } from './browser.js';
import { openCourse, type TestCourse } from './course.js';
import { startTestPlatform, type ServedPlatform } from './platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from './tool.js';
import { payloadOf } from './id-token.js';
import { eventually } from './wait.js';

const PRESENTATION = 'https://purl.imsglobal.org/spec/lti/claim/launch_presentation';

// What the functions handed to the browser see (this project compiles without the DOM library).
declare const window: {
  top: unknown;
  addEventListener(type: string, listener: (event: { data: unknown }) => void): void;
  posted?: Array<{ subject: string; height?: number }>;
};
declare const document: {
  getElementById(id: string): {
    clientHeight: number;
    clientWidth: number;
    style: Record<string, string>;
    dataset: Record<string, string>;
  } | null;
};

export interface Look {
  name: string;
  window: { width: number; height: number };
  frame: { width: number; height: number };
  /** Canvas follows lti.frameResize and answers lti.scrollToTop; Moodle's frame keeps its height. */
  resizes: boolean;
  /** A side panel of this width beside the frame (Moodle's course index, open on a wide screen). */
  panel?: number;
}

// The frame's size approximates the content area each LMS gives a tool at that window size: Moodle 4.5 (Boost,
// course index open on a wide screen) sizes its frame to the window's height below its headers; Canvas starts at
// a fixed height and then follows the tool.
export const LOOKS: Look[] = [
  { name: 'moodle-1366', window: { width: 1366, height: 768 }, frame: { width: 1000, height: 430 }, resizes: false },
  { name: 'canvas-1366', window: { width: 1366, height: 768 }, frame: { width: 990, height: 450 }, resizes: true },
  { name: 'moodle-390', window: { width: 390, height: 844 }, frame: { width: 358, height: 480 }, resizes: false },
  { name: 'canvas-390', window: { width: 390, height: 844 }, frame: { width: 366, height: 450 }, resizes: true },
  { name: 'narrowest-320', window: { width: 320, height: 640 }, frame: { width: 320, height: 450 }, resizes: false },
];

export const ADMIN_TOKEN = 'frame-fit-admin-token-0123456789';
export const TITLE = 'Research essay on the long retreat of glaciers';
export const probe = readFileSync(new URL('./layout-probe.js', import.meta.url), 'utf8');

export interface Layout {
  brokenHeaders: string[];
  overflowsSideways: string | null;
  cutOff: string[];
  scrollTraps: string[];
  endInSight: boolean;
  height: number;
}

export let tool: TestTool;
let lms: ServedPlatform;
export let course: TestCourse;
export let browser: Browser;

/** The launch of `user` into the course's assignment (or deep linking), framed as `look`'s LMS frames it. */
export function frameUrl(
  look: Look,
  user: string,
  type: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest' = 'LtiResourceLinkRequest',
): string {
  const query = new URLSearchParams({
    user,
    type,
    width: String(look.frame.width),
    height: String(look.frame.height),
    ...(type === 'LtiResourceLinkRequest' ? { link: 'essay' } : {}),
    ...(look.resizes ? {} : { resize: 'off' }),
    ...(look.panel ? { panel: String(look.panel) } : {}),
  });
  return `${lms.url}/frame?${query}`;
}

/** The reader: the language the LMS launches in (launch_presentation.locale, and the browser's), and the browser's time zone. */
export interface Reader {
  locale?: string;
  timezoneId?: string;
  /** False for a reader whose browser runs no scripts. */
  javaScriptEnabled?: boolean;
}

export async function openFramed(
  look: Look,
  url: string,
  heading: string | RegExp,
  reader: Reader = {},
): Promise<{ page: Page; frame: () => Promise<Frame> }> {
  const context = await browser.newContext({ viewport: look.window, ...reader });
  // The LMS's window writes down every lti.* message the tool's frame posts to it.
  await context.addInitScript(() => {
    if (window.top !== window) return;
    window.posted = [];
    window.addEventListener('message', (event) => {
      const data = event.data as { subject?: unknown; height?: unknown } | null;
      if (data && typeof data.subject === 'string' && data.subject.startsWith('lti.'))
        window.posted!.push({
          subject: data.subject,
          ...(typeof data.height === 'number' ? { height: data.height } : {}),
        });
    });
  });
  const page = await context.newPage();
  const requests: string[] = [];
  const note = (what: string) => (request: { method(): string; url(): string }) =>
    void requests.push(`${what} ${request.method()} ${new URL(request.url()).pathname}`);
  page.on('request', note('asked'));
  page.on('requestfinished', note('answered'));
  page.on('requestfailed', note('failed'));
  // The launch itself (login, the LMS's authorization, the posted id_token) is made over HTTP by the dev platform's
  // agent, and the frame is sent straight to the page it ends on: these tests judge the pages in the frame, and the
  // launch's six loads in one frame are where the browser driver has been seen to lose the frame on a busy machine
  // (the launch in a frame is test/lti/login-csrf.page.test.ts's subject).
  const asked = new URL(url).searchParams;
  const messageType =
    asked.get('type') === 'LtiDeepLinkingRequest' ? 'LtiDeepLinkingRequest' : 'LtiResourceLinkRequest';
  const withLocale = async (idToken: string) => {
    const payload = payloadOf(idToken);
    payload[PRESENTATION] = { ...(payload[PRESENTATION] as object), locale: reader.locale };
    return lms.platform.sign(payload);
  };
  const launched = await launch(lms.platform, {
    userId: asked.get('user')!,
    messageType,
    ...(asked.get('link') ? { resourceLinkId: asked.get('link')! } : {}),
    ...(reader.locale ? { replaceIdToken: withLocale } : {}),
  });
  assert.equal(
    launched.status,
    200,
    `${look.name}: the launch answered ${launched.status}: ${launched.body.slice(0, 300)}`,
  );
  await page.route(`${tool.url}/lti/login?**`, (route) =>
    messageType === 'LtiResourceLinkRequest'
      ? route.fulfill({ status: 302, headers: { location: launched.url } })
      : route.fulfill({
          status: 200,
          body: launched.body,
          headers: Object.fromEntries(
            Object.entries(launched.headers)
              .filter(([name]) => ['content-type', 'content-security-policy'].includes(name))
              .map(([name, value]) => [name, String(value)]),
          ),
        }),
  );
  await page.goto(url);
  // The frame the LMS's iframe shows now (asked of the element, so never a frame it has left).
  const frame = async (): Promise<Frame> => (await (await page.$('#tool-frame'))!.contentFrame())!;
  // A launch is six requests between the LMS and the tool, each a page load in the frame: a minute on a busy
  // machine; a launch that stops on its way says where.
  try {
    await page
      .frameLocator('#tool-frame')
      .getByRole('heading', { level: 1, name: heading })
      .waitFor({ timeout: 60_000 });
  } catch (error) {
    const where = await frame().catch(() => null);
    assert.fail(
      `${look.name}: the frame did not reach "${heading}" but shows ${where?.url()}: ${await where
        ?.locator('body')
        .innerText()
        .catch(() => '')}\nits requests: ${requests.slice(-8).join('; ')}\n${String(error)}`,
    );
  }
  return { page, frame };
}

/**
 * The same launch seen in another LMS's frame: the window and the frame take `look`'s sizes, the LMS follows
 * lti.frameResize or not, and the framed page opens again (a navigation, as a click in the LMS would make).
 */
export async function applyLook(page: Page, frame: Frame, look: Look, heading: string | RegExp): Promise<void> {
  await page.setViewportSize(look.window);
  await page.evaluate(
    (size) => {
      const el = document.getElementById('tool-frame')!;
      el.style.width = `${size.width}px`;
      el.style.height = `${size.height}px`;
      el.dataset.resize = String(size.resizes);
      // The course index stands beside the frame where the look has it (Moodle closes it on narrow screens).
      const panel = document.getElementById('course-index');
      if (panel) panel.style.display = size.panel ? 'block' : 'none';
    },
    { ...look.frame, resizes: look.resizes, panel: look.panel ?? 0 },
  );
  await forgetMessages(page);
  await frame.goto(frame.url());
  await page.frameLocator('#tool-frame').getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** The LMS's window forgets the messages the frame posted so far (before the frame opens another page). */
export async function forgetMessages(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.posted = [];
  });
}

/** Checks the framed page as it is now, and saves its picture as frame-<look>-<name>. */
export async function assertFits(look: Look, page: Page, frame: Frame, name: string): Promise<void> {
  const where = `${name} in ${look.name}`;
  await frame.waitForLoadState('load');
  // The height posted last is the page's height, once the page has settled.
  let layout = (await frame.evaluate(probe)) as Layout;
  await eventually(async () => {
    layout = (await frame.evaluate(probe)) as Layout;
    const posted = (await page.evaluate(() => window.posted ?? [])).filter((m) => m.subject === 'lti.frameResize');
    return posted.at(-1)?.height === layout.height;
  }, `${where}: no lti.frameResize with the page's height reached the LMS`);
  const frameBox = await page.evaluate(() => {
    const el = document.getElementById('tool-frame')!;
    return { width: el.clientWidth, height: el.clientHeight };
  });
  if (look.resizes) {
    assert.equal(frameBox.height, layout.height, `${where}: the LMS's frame is not as tall as the page`);
    const subjects = (await page.evaluate(() => window.posted ?? [])).map((m) => m.subject);
    assert.ok(subjects.includes('lti.scrollToTop'), `${where}: no lti.scrollToTop after the page opened`);
  } else {
    assert.equal(frameBox.height, look.frame.height, `${where}: the frame changed its height where the LMS keeps it`);
  }
  await assertLayout(frame, where, layout);
  // The frame as the LMS shows it, whole (a full-page picture of the LMS's window leaves a tall frame unpainted).
  mkdirSync(artifactsDir, { recursive: true });
  await page.locator('#tool-frame').screenshot({ path: join(artifactsDir, `frame-${look.name}-${name}.png`) });
}

/** What a reader would notice in the page's layout, and axe's verdict. */
export async function assertLayout(page: Page | Frame, where: string, layout: Layout): Promise<void> {
  assert.deepEqual(layout.brokenHeaders, [], `${where}: table header words broken across lines`);
  assert.deepEqual(layout.cutOff, [], `${where}: cut off at the edge`);
  assert.equal(layout.overflowsSideways, null, `${where}: the page is wider than its window`);
  assert.deepEqual(layout.scrollTraps, [], `${where}: a box scrolls on its own inside the page`);
  assert.ok(layout.endInSight, `${where}: the end of the page cannot be scrolled to`);
  assert.deepEqual(await seriousAxeViolations(page), [], `${where}: axe found serious or critical problems`);
}

/** The tool, a course with two checked papers and a student who has sent none, and the browser; the course's LMS registered as `productFamily` when given. */
export async function startFrameCourse(options: { productFamily?: string } = {}): Promise<void> {
  tool = await startTestTool({
    ADMIN_TOKEN,
    SANDBOX_DELAY_MS: '300',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
  });
  lms = await startTestPlatform(tool, options);
  course = await openCourse(tool, { lms, clientId: 'frame-fit', title: TITLE });
  const essay = (topic: string) =>
    Array.from({ length: 40 }, (_, i) => `Sentence ${i} about ${topic} with its own evidence number ${i * 7}.`).join(
      ' ',
    );
  lms.platform.addUser({
    id: 'student-long',
    name: 'Maximiliane Gonçalves-Oyelaran-Vandenberghe',
    email: 'maximiliane.goncalves-oyelaran-vandenberghe@students.example.edu',
    roles: ROLES.learner,
  });
  await course.submit('student-long', essay('the long retreat of glaciers in the Alps since the little ice age'));
  await course.submit('student-2', essay('urban heat islands'));
  lms.platform.addUser({ id: 'student-new', name: 'Noa New', email: 'noa@example.edu', roles: ROLES.learner });
  await eventually(
    async () => {
      const states = await tool.tool.database.db.selectFrom('submission').select('state').execute();
      return states.length === 2 && states.every((s) => s.state === 'scored' || s.state === 'graded');
    },
    'the two papers were not checked in time',
    60_000,
    250,
  );
  browser = await launchBrowser();
}

export async function stopFrameCourse(): Promise<void> {
  await browser?.close();
  await lms?.close();
  await tool?.stop();
}
