// The settings page as an instructor decides, in Moodle's frame at 1366×900: the due date, who sees results, the
// files and the attempts first, in sight as the page opens; the checking service's comparison options folded under
// "Advanced", which opens by itself when it holds something to correct; a Save in reach at every scroll position
// that covers no field; and the due date shown and typed on the reader's own clock, stored as one instant.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame, FrameLocator } from 'playwright-core';
import { englishFragments, englishIn } from '../support/english-words.js';
import {
  TITLE,
  frameUrl,
  openFramed,
  startFrameCourse,
  stopFrameCourse,
  tool,
  type Look,
  type Reader,
} from '../support/frame-fit.js';

// What the functions handed to the browser see (this project compiles without the DOM library).
interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}
declare const document: {
  querySelector(selector: string): { getBoundingClientRect(): Box } | null;
  querySelectorAll(
    selector: string,
  ): Iterable<{ getBoundingClientRect(): Box; closest(selector: string): unknown; offsetParent: unknown }>;
  documentElement: { scrollHeight: number; clientHeight: number };
};
declare const window: { scrollTo(x: number, y: number): void; innerHeight: number };

const MOODLE: Look = {
  name: 'moodle-1366x900',
  window: { width: 1366, height: 900 },
  frame: { width: 1000, height: 562 },
  resizes: false,
};

before(() => startFrameCourse());
after(stopFrameCourse);

/** The instructor's settings page in Moodle's frame, as `reader` reads it. */
async function openSettings(
  reader: Reader = {},
): Promise<{ frame: Frame; framed: FrameLocator; close(): Promise<void> }> {
  const { page, frame } = await openFramed(MOODLE, frameUrl(MOODLE, 'instructor-1'), TITLE, reader);
  const dashboard = new URL((await frame()).url());
  await (
    await frame()
  ).goto(`${dashboard.origin}${dashboard.pathname.replace(/\/dashboard$/, '/settings')}${dashboard.search}`);
  const framed = page.frameLocator('#tool-frame');
  await framed.locator('form.settings-form').waitFor();
  return { frame: await frame(), framed, close: () => page.context().close() };
}

const dueAt = async () => {
  const row = await tool.tool.database.db
    .selectFrom('assignment')
    .select('settings')
    .where('resource_link_id', '=', 'essay')
    .executeTakeFirstOrThrow();
  return (row.settings as { dueAt: string | null }).dueAt;
};

test("settings in the order people decide: the first decisions in sight, the service's options under Advanced, Save always in reach", async () => {
  const { frame, framed, close } = await openSettings();
  try {
    // The parts in the order people decide; the service's comparison options come last, folded.
    const legends = await framed.locator('form.settings-form > fieldset > legend').allInnerTexts();
    assert.deepEqual(legends, [
      'Due date and attempts',
      'Who sees results',
      'Earlier attempts at the checking service',
      'Files and instructions',
      'Gradebook column',
      'Similarity colour bands',
    ]);
    const advanced = framed.locator('details.advanced');
    assert.equal(await advanced.getAttribute('open'), null, 'Advanced is folded as the page opens');
    assert.equal(await framed.getByLabel('Small sources').isVisible(), false);
    assert.equal(await advanced.locator('summary').innerText(), 'Advanced: what the checking service compares');

    // As the page opens, the due date and who sees results are in sight in the frame, and so is Save, though the
    // form is longer than the frame.
    const fold = await frame.evaluate(() => ({
      height: window.innerHeight,
      page: document.documentElement.scrollHeight,
    }));
    assert.ok(
      fold.page > fold.height,
      `the form (${fold.page} px) fits the ${fold.height} px frame: nothing to keep in reach`,
    );
    for (const label of ['Due date', 'Instructors only']) {
      const box = (await framed.getByLabel(label, { exact: true }).boundingBox())!;
      assert.ok(
        box.y + box.height <= MOODLE.frame.height + (await framed.locator('body').boundingBox())!.y,
        `"${label}" is below the frame's fold`,
      );
    }
    const save = framed.getByRole('button', { name: 'Save settings' });
    const inSight = () =>
      frame.evaluate(() => {
        const bar = document.querySelector('.save-bar')!.getBoundingClientRect();
        return bar.top >= 0 && bar.bottom <= window.innerHeight + 0.5;
      });
    assert.ok(await inSight(), 'Save is not in sight as the page opens');

    // At every scroll position Save stays in sight; at the end of the form it covers no field.
    for (let y = 0; y <= fold.page; y += 200) {
      await frame.evaluate((to) => window.scrollTo(0, to), y);
      assert.ok(await inSight(), `Save is out of sight scrolled to ${y} px`);
    }
    const covered = await frame.evaluate(() => {
      const bar = document.querySelector('.save-bar')!.getBoundingClientRect();
      return [
        ...document.querySelectorAll(
          'form.settings-form :is(input:not([type="hidden"]), select, textarea, label, summary)',
        ),
      ]
        .filter((field) => field.offsetParent !== null && !field.closest('.save-bar'))
        .map((field) => field.getBoundingClientRect())
        .filter((box) => box.bottom > bar.top && box.top < bar.bottom).length;
    });
    assert.equal(covered, 0, 'at the end of the form, the Save bar lies over a field');
    // A field reached by the keyboard scrolls clear of the bar.
    await frame.evaluate(() => window.scrollTo(0, 0));
    await framed.getByLabel('Red (very high) from').focus();
    const field = (await framed.getByLabel('Red (very high) from').boundingBox())!;
    const bar = (await framed.locator('.save-bar').boundingBox())!;
    assert.ok(
      field.y + field.height <= bar.y,
      `the focused field ends at ${field.y + field.height}, under the bar from ${bar.y}`,
    );

    // An error outside Advanced leaves it folded; one inside opens it, with the field in sight.
    await framed.getByLabel('Yellow (moderate) from').fill('90');
    await save.click();
    await framed.getByRole('alert').filter({ hasText: 'Each colour band starts' }).waitFor();
    assert.equal(await framed.locator('details.advanced').getAttribute('open'), null);
    await framed.getByLabel('Yellow (moderate) from').fill('25');
    await framed.locator('details.advanced summary').click();
    await framed
      .getByLabel('Phrases to ignore')
      .fill(Array.from({ length: 16 }, (_, i) => `Phrase number ${i + 1}`).join('\n'));
    await framed.locator('details.advanced summary').click();
    assert.equal(await framed.getByLabel('Phrases to ignore').isVisible(), false);
    await framed.getByRole('button', { name: 'Save settings' }).click();
    await framed.getByRole('alert').filter({ hasText: 'Up to 15 excluded phrases' }).waitFor();
    assert.equal(await framed.locator('details.advanced').getAttribute('open'), '');
    assert.equal(await framed.getByLabel('Phrases to ignore').isVisible(), true);

    // A field the browser itself refuses (the papers' language left empty) opens the folded part to show it.
    await framed.getByLabel('Phrases to ignore').fill('');
    await framed.getByLabel('Language of the papers').fill('');
    await framed.locator('details.advanced summary').click();
    assert.equal(await framed.locator('details.advanced').getAttribute('open'), null);
    await framed.getByRole('button', { name: 'Save settings' }).click();
    await framed.locator('details.advanced[open]').waitFor();
    assert.equal(await framed.getByLabel('Language of the papers').isVisible(), true);
  } finally {
    await close();
  }
});

test('choosing another gradebook column says, before Save, what saving it posts; the current one posts nothing', async () => {
  const { framed, close } = await openSettings();
  try {
    const preview = framed.locator('#column-preview');
    assert.equal(await preview.getAttribute('role'), 'status');
    await framed.getByLabel("The similarity as the assignment's grade").check();
    assert.match(
      await preview.innerText(),
      /^If you save this choice: (No paper is checked yet|Saving this choice posts)/,
    );
    await framed.getByLabel('A comment beside the submission, no grade (recommended)').check();
    assert.equal(await preview.innerText(), '');
  } finally {
    await close();
  }
});

test("the due date on the reader's clock: typed in Berlin, stored as one instant, shown in New York on New York's clock", async () => {
  const berlin = await openSettings({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  try {
    const { frame, framed } = berlin;
    // Saving answers with the settings page again; the one before may still say "Gespeichert.", so each save waits
    // for the page that answers it.
    const save = async () => {
      await Promise.all([
        frame.waitForNavigation(),
        framed.getByRole('button', { name: 'Einstellungen speichern' }).click(),
      ]);
      await framed.getByText('Gespeichert.').waitFor();
    };
    assert.equal(await framed.locator('#dueAt-zone').innerText(), 'Zeitzone: Berlin');
    // A winter date (UTC+1) and a summer one (UTC+2): each is the instant the clocks in Berlin show.
    await framed.getByLabel('Abgabetermin', { exact: true }).fill('2099-12-01T18:00');
    await save();
    assert.equal(await dueAt(), '2099-12-01T17:00:00.000Z');
    assert.equal(await framed.getByLabel('Abgabetermin', { exact: true }).inputValue(), '2099-12-01T18:00');
    assert.equal(await framed.locator('#dueAt-reads').innerText(), '01.12.2099, 18:00 Berlin');
    await framed.getByLabel('Abgabetermin', { exact: true }).fill('2099-07-01T18:00');
    await save();
    assert.equal(await dueAt(), '2099-07-01T16:00:00.000Z');

    // The German settings page, every part of it, says nothing in English.
    await framed.locator('details.advanced summary').click();
    const text = await framed.locator('main').innerText();
    assert.deepEqual(
      englishIn(
        text,
        englishFragments((key) => /^(settings|check|nav|defaults)\./.test(key)),
        [TITLE],
      ),
      [],
      text,
    );
  } finally {
    await berlin.close();
  }

  const newYork = await openSettings({ timezoneId: 'America/New_York' });
  try {
    assert.equal(await newYork.framed.locator('#dueAt-zone').innerText(), 'Time zone: New York');
    assert.equal(await newYork.framed.getByLabel('Due date', { exact: true }).inputValue(), '2099-07-01T12:00');
    assert.equal(await newYork.framed.locator('#dueAt-reads').innerText(), 'Jul 1, 2099, 12:00 PM New York');
  } finally {
    await newYork.close();
  }
});
