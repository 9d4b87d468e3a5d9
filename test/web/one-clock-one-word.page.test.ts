// One clock and one word. A teacher and a student whose browsers are in Berlin read every time on the student page, the
// dashboard, the submission review, the history and the settings on Berlin's clock, with the zone named; the same
// pages read without scripts say UTC, and every time there is UTC's. The due date a teacher types in Berlin is the
// one the student reads. One paper's state reads the same word on the student page, the dashboard, the CSV, the
// submission review and the history, in English and in German.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame } from 'playwright-core';
import {
  TITLE,
  frameUrl,
  openFramed,
  startFrameCourse,
  stopFrameCourse,
  tool,
  type Look,
} from '../support/frame-fit.js';

const MOODLE: Look = {
  name: 'moodle-1366x900',
  window: { width: 1366, height: 900 },
  frame: { width: 1000, height: 650 },
  resizes: false,
};

before(() => startFrameCourse());
after(stopFrameCourse);

interface ShownTime {
  datetime: string;
  text: string;
}

// Read with the driver's own selectors, which work where the page runs no scripts.
async function timesOn(frame: Frame): Promise<ShownTime[]> {
  const shown: ShownTime[] = [];
  for (const time of await frame.locator('time').all())
    shown.push({ datetime: (await time.getAttribute('datetime')) ?? '', text: (await time.textContent()) ?? '' });
  return shown;
}

/** The wall clock of `zone` at an instant, as the test reads it (hour and minute, 24-hour). */
function wallClock(iso: string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  return `${parts.find((p) => p.type === 'hour')!.value}:${parts.find((p) => p.type === 'minute')!.value}`;
}

/** Every time on the frame's page reads `zone`'s clock and names `named`; the page says no other zone. */
async function assertClock(frame: Frame, where: string, zone: string, named: string, other: string): Promise<number> {
  const times = await timesOn(frame);
  for (const { datetime, text } of times) {
    assert.ok(text.endsWith(` ${named}`), `${where}: "${text}" does not name ${named}`);
    // 18:05 in a German page, 6:05 PM in an English one.
    const [hour, minute] = wallClock(datetime, zone).split(':').map(Number) as [number, number];
    const twelve = `${((hour + 11) % 12) + 1}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
    const clock = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
    assert.ok(
      text.includes(twelve) || text.includes(clock),
      `${where}: "${text}" is not ${datetime} on ${zone}'s clock (${clock})`,
    );
  }
  const body = await frame.locator('main').innerText();
  assert.ok(!body.includes(other), `${where} still says ${other}: ${body}`);
  return times.length;
}

/** The text of the first receipt the student page links to, fetched as its link says. */
async function receiptOf(frame: Frame): Promise<string> {
  const href = await frame.locator('a[href*="/receipt?"]').first().getAttribute('href');
  return (await fetch(new URL(href!, frame.url()))).text();
}

async function instructorPages(frame: Frame): Promise<{ dashboard: string; settings: string; review: string }> {
  const dashboard = new URL(frame.url());
  const base = `${dashboard.origin}${dashboard.pathname.replace(/\/dashboard$/, '')}`;
  const student = await tool.tool.database.db
    .selectFrom('lti_user')
    .select('id')
    .where('subject', '=', 'student-long')
    .executeTakeFirstOrThrow();
  return {
    dashboard: dashboard.href,
    settings: `${base}/settings${dashboard.search}`,
    review: `${base}/students/${student.id}${dashboard.search}`,
  };
}

test("a teacher and a student in Berlin read every time on Berlin's clock, the zone named", async () => {
  const teacher = await openFramed(MOODLE, frameUrl(MOODLE, 'instructor-1'), TITLE, {
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
  });
  try {
    const frame = await teacher.frame();
    const pages = await instructorPages(frame);
    // The due date, typed on Berlin's clock in the settings.
    await frame.goto(pages.settings);
    const framed = teacher.page.frameLocator('#tool-frame');
    await framed.locator('form.settings-form').waitFor();
    assert.equal(await framed.locator('#dueAt-zone').innerText(), 'Zeitzone: Berlin');
    await framed.getByLabel('Abgabetermin', { exact: true }).fill('2099-12-01T18:00');
    assert.equal(await framed.locator('#dueAt-reads').innerText(), '01.12.2099, 18:00 Berlin');
    await framed.getByRole('button', { name: 'Einstellungen speichern' }).click();
    await framed.getByText('Gespeichert.').waitFor();
    assert.equal(await framed.getByLabel('Abgabetermin', { exact: true }).inputValue(), '2099-12-01T18:00');

    await frame.goto(pages.dashboard);
    await framed.locator('table').first().waitFor();
    assert.ok((await assertClock(await teacher.frame(), 'dashboard', 'Europe/Berlin', 'Berlin', 'UTC')) >= 2);
    // The history of the long paper, from its state on the dashboard.
    await framed.locator('tr', { hasText: 'Maximiliane' }).locator('a.badge').click();
    await framed.locator('time[data-clock="second"]').nth(2).waitFor();
    assert.ok((await assertClock(await teacher.frame(), 'history', 'Europe/Berlin', 'Berlin', 'UTC')) >= 3);
    await (await teacher.frame()).goto(pages.review);
    await framed.getByRole('heading', { name: /Maximiliane/ }).waitFor();
    assert.ok((await assertClock(await teacher.frame(), 'review', 'Europe/Berlin', 'Berlin', 'UTC')) >= 1);
  } finally {
    await teacher.page.context().close();
  }

  const student = await openFramed(MOODLE, frameUrl(MOODLE, 'student-long'), TITLE, { timezoneId: 'Europe/Berlin' });
  try {
    const frame = await student.frame();
    await frame.locator('#result-card').waitFor();
    const text = await frame.locator('main').innerText();
    assert.match(text, /Dec 1, 2099, 6:00 PM Berlin/);
    assert.ok((await assertClock(frame, 'student page', 'Europe/Berlin', 'Berlin', 'UTC')) >= 3);
    // The receipt, a file the server writes, is on the reader's clock too: its link names the reader's zone.
    const receipt = await receiptOf(frame);
    assert.match(receipt, /^Received at: +[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2} [AP]M Berlin \(\S+Z\)$/m);
  } finally {
    await student.page.context().close();
  }
});

test('without scripts every time reads UTC and says so', async () => {
  const student = await openFramed(MOODLE, frameUrl(MOODLE, 'student-long'), TITLE, {
    timezoneId: 'Europe/Berlin',
    javaScriptEnabled: false,
  });
  try {
    const frame = await student.frame();
    assert.ok((await assertClock(frame, 'student page without scripts', 'UTC', 'UTC', 'Berlin')) >= 2);
    assert.match(await receiptOf(frame), /^Received at: +.+ UTC \(\S+Z\)$/m);
  } finally {
    await student.page.context().close();
  }
  const teacher = await openFramed(MOODLE, frameUrl(MOODLE, 'instructor-1'), TITLE, {
    timezoneId: 'Europe/Berlin',
    javaScriptEnabled: false,
  });
  try {
    assert.ok((await assertClock(await teacher.frame(), 'dashboard without scripts', 'UTC', 'UTC', 'Berlin')) >= 2);
  } finally {
    await teacher.page.context().close();
  }
});

test('one paper, one word for its state on every page, in English and in German', async () => {
  const { db } = tool.tool.database;
  const paper = await db
    .selectFrom('submission')
    .innerJoin('lti_user', 'lti_user.id', 'submission.user_id')
    .select(['submission.id', 'submission.state', 'submission.grade_state'])
    .where('lti_user.subject', '=', 'student-long')
    .executeTakeFirstOrThrow();
  assert.ok(['scored', 'graded'].includes(paper.state), paper.state);
  for (const [locale, word, inGradebook] of [
    ['en-US', 'Checked', 'Sent to the gradebook'],
    ['de-DE', 'Geprüft', 'An die Bewertungsübersicht gesendet'],
  ] as const) {
    const student = await openFramed(MOODLE, frameUrl(MOODLE, 'student-long'), TITLE, { locale });
    try {
      const frame = await student.frame();
      assert.equal(await frame.locator('#result-card .badge').innerText(), word, `${locale}: the student's card`);
      assert.deepEqual(await frame.locator('#attempt-list .badge').allInnerTexts(), [word], `${locale}: the list`);
    } finally {
      await student.page.context().close();
    }
    const teacher = await openFramed(MOODLE, frameUrl(MOODLE, 'instructor-1'), TITLE, { locale });
    try {
      const framed = teacher.page.frameLocator('#tool-frame');
      const row = framed.locator('tr', { hasText: 'Maximiliane' });
      assert.equal(await row.locator('.badge').innerText(), word, `${locale}: the dashboard`);
      // What the gradebook received is said beside the state, not instead of it.
      if (paper.grade_state === 'posted') assert.equal(await row.locator('.fact').innerText(), inGradebook);
      const pages = await instructorPages(await teacher.frame());
      const csv = await (await fetch(pages.dashboard.replace('/dashboard?', '/export.csv?'))).text();
      assert.match(csv, new RegExp(`^Maximiliane[^\\r\\n]*,${word},`, 'm'), `${locale}: the CSV`);
      await (await teacher.frame()).goto(pages.review);
      await framed.getByRole('heading', { name: /Maximiliane/ }).waitFor();
      assert.deepEqual(await framed.locator('main .badge').allInnerTexts(), [word], `${locale}: the review`);
      await framed.locator('main a.badge').click();
      await framed.locator('time[data-clock="second"]').nth(2).waitFor();
      const steps = await framed.locator('main table tbody td:nth-child(3) .badge').allInnerTexts();
      assert.equal(steps.at(-1), word, `${locale}: the history's last step`);
    } finally {
      await teacher.page.context().close();
    }
  }
});
