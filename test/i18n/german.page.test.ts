// The instructor's and the student's pages in German, as a browser shows them in Moodle's frame to a launch in
// "de-DE": the dashboard, a paper's history and the report viewer's header with no English word of the catalogue
// in what the page shows (names, titles and files people gave aside), and the student's attempts, turned into
// cards on a phone, labelled in German.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame, FrameLocator } from 'playwright-core';
import { englishFragments, englishIn } from '../support/english-words.js';
import {
  TITLE,
  course,
  frameUrl,
  openFramed,
  startFrameCourse,
  stopFrameCourse,
  tool,
  type Look,
} from '../support/frame-fit.js';
import { eventually } from '../support/wait.js';

const WIDE: Look = {
  name: 'moodle-1366x900',
  window: { width: 1366, height: 900 },
  frame: { width: 1000, height: 562 },
  resizes: false,
};
const PHONE: Look = {
  name: 'moodle-390',
  window: { width: 390, height: 844 },
  frame: { width: 358, height: 480 },
  resizes: false,
};
const GERMAN = { locale: 'de-DE', timezoneId: 'Europe/Berlin' };

before(() => startFrameCourse());
after(stopFrameCourse);

/** What people gave the tool, which may be in any language: the course's names and e-mails, the title, the files. */
const theirs = () => [
  TITLE,
  ...course.lms.platform
    .users()
    .flatMap((user) => [user.name, user.email ?? ''])
    .filter(Boolean),
  'student-long.txt',
  'student-2.txt',
];
const english = englishFragments();

async function assertGerman(framed: FrameLocator, where: string, recorded: string[] = []): Promise<void> {
  const text = await framed.locator('main').innerText();
  assert.deepEqual(englishIn(text, english, [...theirs(), ...recorded]), [], `English on the German ${where}: ${text}`);
}

/** Goes in the frame to the page a link of the current page points to. */
async function follow(frame: Frame, selector: string): Promise<void> {
  const href = await frame.locator(selector).first().getAttribute('href');
  assert.ok(href, `no link ${selector}`);
  await frame.goto(new URL(href, frame.url()).toString());
}

test("the instructor's pages in German: dashboard, a paper's history, the report viewer's header", async () => {
  // The history's last step is the score's arrival in the gradebook, which may come after the course is set up.
  await eventually(
    async () => {
      const states = await tool.tool.database.db.selectFrom('submission').select('state').execute();
      return states.length === 2 && states.every((s) => s.state === 'graded');
    },
    'both papers in the gradebook',
    30_000,
  );
  const { page, frame } = await openFramed(WIDE, frameUrl(WIDE, 'instructor-1'), TITLE, GERMAN);
  const framed = page.frameLocator('#tool-frame');
  try {
    assert.equal(await framed.locator('html').getAttribute('lang'), 'de-DE', "German, with the browser's region");
    await framed.locator('#class-summary').waitFor();
    assert.match(
      await framed.locator('#class-summary').innerText(),
      /^2 von \d+ abgegeben · \d+ fehlen · \d+ bei 75\s%\soder mehr$/u,
    );
    await assertGerman(framed, 'dashboard');

    const dashboard = (await frame()).url();
    await follow(await frame(), 'a[href*="/history"]');
    await framed.locator('main table').waitFor();
    // The reasons in the history are the record's own words, written in English when each step happened (as a log
    // line is); everything around them is in the reader's language.
    const reasons = await framed.locator('main table tbody td:nth-child(4)').allInnerTexts();
    assert.ok(reasons.length >= 3, `the history has ${reasons.length} steps`);
    assert.deepEqual(await framed.locator('main table tbody td:nth-child(3) .badge').allInnerTexts(), [
      'Eingegangen',
      'Zur Prüfung gesendet',
      'Wird geprüft',
      'Geprüft',
      // What the gradebook received is the step's reason, not a state of its own: the paper stays "Geprüft".
      'Geprüft',
    ]);
    await assertGerman(framed, 'history', reasons);

    await (await frame()).goto(dashboard);
    await follow(await frame(), 'a[href*="/view?"]');
    await framed.locator('.report-facts').waitFor();
    await assertGerman(framed, 'report viewer');
  } finally {
    await page.context().close();
  }
});

test("the student's attempts on a phone, as cards labelled in German", async () => {
  const { page } = await openFramed(PHONE, frameUrl(PHONE, 'student-2'), TITLE, GERMAN);
  const framed = page.frameLocator('#tool-frame');
  try {
    const labels = await framed.locator('.attempt-table tbody tr').first().locator('.cell-label').allInnerTexts();
    assert.deepEqual(
      labels.map((label) => label.trim()),
      ['Versuch:', 'Datei:', 'Eingegangen:', 'Status:', 'Ähnlichkeit:', 'Berichte:', 'Quittung:'],
    );
    // Drawn as labels: the header row is out of sight on a phone, so the labels say what each value is.
    assert.equal(await framed.locator('.attempt-table tbody .cell-label').first().isVisible(), true);
    await assertGerman(framed, 'student page');
  } finally {
    await page.context().close();
  }
});
