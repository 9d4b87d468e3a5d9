// The student's page in the LMS's frame at each size, with a checked paper and before the first one (one launch
// each, seen in every LMS's frame in turn), and the pages no LMS frames (the admin page, a message) in the window at
// both sizes. test/support/frame-fit.ts says what is checked.
import { after, before, test } from 'node:test';
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
