// The student's page in the LMS's frame at each size, with a checked paper and before the first one (one launch
// each, seen in every LMS's frame in turn), and the pages no LMS frames (the admin page, a message) in the window at
// both sizes. test/support/frame-fit.ts says what is checked.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame, Locator } from 'playwright-core';
import { screenshot } from '../support/browser.js';
import {
  ADMIN_TOKEN,
  applyLook,
  assertFits,
  assertLayout,
  browser,
  course,
  frameUrl,
  LOOKS,
  openFramed,
  probe,
  startFrameCourse,
  stopFrameCourse,
  TITLE,
  tool,
  type Layout,
  type Look,
} from '../support/frame-fit.js';

before(() => startFrameCourse());
after(stopFrameCourse);

for (const [user, name] of [
  ['student-long', 'student-checked'],
  ['student-new', 'student-empty'],
] as const) {
  test(`the student's page (${name}) in every frame`, async () => {
    const { page, frame } = await openFramed(LOOKS[0]!, frameUrl(LOOKS[0]!, user), TITLE);
    try {
      for (const look of LOOKS) {
        await applyLook(page, await frame(), look, TITLE);
        await assertFits(look, page, await frame(), name);
      }
    } finally {
      await page.context().close();
    }
  });
}

// Moodle 4.5 (Boost) at 1366×900 frames the tool about 650 px tall and ignores lti.frameResize: the page scrolls
// inside the frame, which a student rarely notices. What they came for must be in the frame as it opens.
const MOODLE_900: Look = {
  name: 'moodle-1366x900',
  window: { width: 1366, height: 900 },
  frame: { width: 1000, height: 650 },
  resizes: false,
};

// What the functions handed to the browser see (this project compiles without the DOM library).
declare const document: { scrollingElement: { scrollTop: number } };

/** Whether `element` is wholly inside the frame's 650 px as the frame shows it now, and the frame is not scrolled. */
async function inFrameUnscrolled(frame: Frame, element: Locator, what: string): Promise<void> {
  const box = await element.evaluate((e) => {
    const r = (e as unknown as { getBoundingClientRect(): { top: number; bottom: number } }).getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  });
  assert.equal(await frame.evaluate(() => document.scrollingElement.scrollTop), 0, `${what}: the frame was scrolled`);
  assert.ok(
    box.top >= 0 && box.bottom <= MOODLE_900.frame.height,
    `${what} is at ${Math.round(box.top)}–${Math.round(box.bottom)} px, outside the ${MOODLE_900.frame.height} px frame`,
  );
}

test("Moodle's 650 px frame at 1366×900: after a result, the student sees it and reaches Submit without scrolling", async () => {
  const { page, frame } = await openFramed(MOODLE_900, frameUrl(MOODLE_900, 'student-long'), TITLE);
  try {
    const framed = page.frameLocator('#tool-frame');
    await framed.locator('#result-card .result-score').waitFor();
    await inFrameUnscrolled(await frame(), framed.locator('#result-card'), 'the result card');
    // A new attempt is one click away, and its Submit button in the frame once it opens.
    await framed.getByText('Submit a new attempt').click();
    await inFrameUnscrolled(await frame(), framed.getByRole('button', { name: 'Submit' }), 'Submit');
    await inFrameUnscrolled(await frame(), framed.getByLabel('Choose a file, or drop it here'), 'the file chooser');
    await screenshot(page, 'frame-moodle-1366x900-student-after-result');
  } finally {
    await page.context().close();
  }
});

test("Moodle's 650 px frame at 1366×900: the instructor's first rows in view", async () => {
  const { page, frame } = await openFramed(MOODLE_900, frameUrl(MOODLE_900, 'instructor-1'), TITLE);
  try {
    const framed = page.frameLocator('#tool-frame');
    const rows = framed.locator('main table tbody tr');
    await rows.first().waitFor();
    assert.ok((await rows.count()) >= 2);
    await inFrameUnscrolled(await frame(), rows.nth(1), "the dashboard's second row");
    await screenshot(page, 'frame-moodle-1366x900-dashboard');
  } finally {
    await page.context().close();
  }
});

// The admin pages are framed by nothing but the tool itself: they are checked in the window, at both sizes.
for (const size of [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
]) {
  test(`${size.width}: the admin page and a message page, in the window`, async () => {
    const context = await browser.newContext({ viewport: size });
    try {
      const page = await context.newPage();
      await page.goto(`${tool.url}/admin`);
      await assertLayout(page, `admin sign-in at ${size.width}`, (await page.evaluate(probe)) as Layout);
      await page.getByLabel('Bootstrap token').fill(ADMIN_TOKEN);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Registered platforms' }).waitFor();
      await assertLayout(page, `admin at ${size.width}`, (await page.evaluate(probe)) as Layout);
      await screenshot(page, `window-${size.width}-admin`);
      await page.goto(`${tool.url}${course.path}/dashboard`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await assertLayout(page, `message at ${size.width}`, (await page.evaluate(probe)) as Layout);
      await screenshot(page, `window-${size.width}-message`);
    } finally {
      await context.close();
    }
  });
}
