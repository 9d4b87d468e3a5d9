// The instructor's pages in the LMS's frame at each size (test/support/frame-fit.ts says what is checked): the
// dashboard, the settings, a paper's history, and the deep-linking page that adds the assignment. One launch each,
// seen in every LMS's frame in turn.
import { after, before, test } from 'node:test';
import {
  applyLook,
  assertFits,
  forgetMessages,
  frameUrl,
  LOOKS,
  openFramed,
  startFrameCourse,
  stopFrameCourse,
  TITLE,
} from '../support/frame-fit.js';

before(() => startFrameCourse());
after(stopFrameCourse);

test("the instructor's dashboard, settings and a paper's history in every frame", async () => {
  const { page, frame } = await openFramed(LOOKS[0]!, frameUrl(LOOKS[0]!, 'instructor-1'), TITLE);
  const framed = page.frameLocator('#tool-frame');
  try {
    for (const look of LOOKS) {
      await framed.getByRole('navigation', { name: 'Assignment' }).getByRole('link', { name: 'Submissions' }).click();
      await framed.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      await applyLook(page, await frame(), look, TITLE);
      await assertFits(look, page, await frame(), 'dashboard');
      await forgetMessages(page);
      await framed.getByRole('navigation', { name: 'Assignment' }).getByRole('link', { name: 'Settings' }).click();
      await framed.getByRole('heading', { level: 1, name: /^Check settings/ }).waitFor();
      await assertFits(look, page, await frame(), 'settings');
      await forgetMessages(page);
      await framed.getByRole('navigation', { name: 'Assignment' }).getByRole('link', { name: 'Submissions' }).click();
      await framed
        .getByRole('row', { name: /Maximiliane/ })
        .getByRole('link', { name: /Checked/ })
        .click();
      await framed.getByRole('heading', { level: 1, name: /^History of/ }).waitFor();
      await assertFits(look, page, await frame(), 'history');
    }
  } finally {
    await page.context().close();
  }
});

// The deep-linking page answers the launch's POST and cannot be opened again: one launch in each frame.
for (const look of LOOKS) {
  test(`${look.name}: the deep-linking page`, async () => {
    const heading = 'Add a similarity-checked assignment';
    const { page, frame } = await openFramed(look, frameUrl(look, 'instructor-1', 'LtiDeepLinkingRequest'), heading);
    try {
      await assertFits(look, page, await frame(), 'deep-linking');
    } finally {
      await page.context().close();
    }
  });
}
