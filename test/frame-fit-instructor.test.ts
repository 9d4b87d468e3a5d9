// The instructor's pages in the LMS's frame at each size (test/support/frame-fit.ts says what is checked): the
// dashboard, the settings, a paper's history, and the deep-linking page that adds the assignment.
import { after, before, test } from 'node:test';
import { assertFits, forgetMessages, frameUrl, LOOKS, openFramed, startFrameCourse, stopFrameCourse, TITLE } from './support/frame-fit.js';

before(startFrameCourse);
after(stopFrameCourse);

for (const look of LOOKS) {
  test(`${look.name}: the instructor's dashboard, settings and a paper's history; deep linking`, async () => {
    const { page, frame } = await openFramed(look, frameUrl(look, 'instructor-1'), TITLE);
    try {
      await assertFits(look, page, frame(), 'dashboard');
      const framed = page.frameLocator('#tool-frame');
      await forgetMessages(page);
      await framed.getByRole('navigation', { name: 'Assignment' }).getByRole('link', { name: 'Settings' }).click();
      await framed.getByRole('heading', { level: 1, name: /^Settings/ }).waitFor();
      await assertFits(look, page, frame(), 'settings');
      await forgetMessages(page);
      await framed.getByRole('navigation', { name: 'Assignment' }).getByRole('link', { name: 'Submissions' }).click();
      await framed.getByRole('row', { name: /Maximiliane/ }).getByRole('link', { name: /scored|graded/ }).click();
      await framed.getByRole('heading', { level: 1, name: /^History of/ }).waitFor();
      await assertFits(look, page, frame(), 'history');
    } finally {
      await page.context().close();
    }
    const picker = await openFramed(look, frameUrl(look, 'instructor-1', 'LtiDeepLinkingRequest'), 'Add a similarity-checked assignment');
    try {
      await assertFits(look, picker.page, picker.frame(), 'deep-linking');
    } finally {
      await picker.page.context().close();
    }
  });
}
