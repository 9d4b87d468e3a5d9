// The dev platform's own pages as a person uses them in a browser, for the Asset Processor: the LMS's assignment,
// its submit form, and the SpeedGrader-like view with each file's reports. One set for every dialect the dev platform
// speaks (Canvas's, Blackboard's).
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { People } from './people.js';

export interface BrowserFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** The SpeedGrader view's pages for the LMS at `lmsUrl`, its assignment titled `activity`. */
export function speedGrader(lmsUrl: string, people: People, activity: string) {
  /** The LMS's assignment page, reached from the course as a person does. */
  async function openActivity(page: Page): Promise<void> {
    await page.goto(`${lmsUrl}/`);
    await page.getByRole('link', { name: activity, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: new RegExp(`^${activity}`) }).waitFor();
  }

  /** A student submits on the LMS's submit form; returns the submission id the "Submitted" page names. */
  async function submitAs(name: string, files: BrowserFile[], text = ''): Promise<string> {
    const page = await people.page(name);
    await openActivity(page);
    await page.getByRole('link', { name: `Submit as ${name}` }).click();
    await page.getByRole('heading', { level: 1, name: `Submit ${activity}` }).waitFor();
    await page.getByLabel(/^Files/).setInputFiles(files);
    if (text) await page.getByLabel('Text entry').fill(text);
    await page.getByRole('button', { name: 'Submit assignment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Submitted' }).waitFor();
    const shown = await page.locator('body').innerText();
    const said = shown.match(/submission (\S+:\d+), (\d+) asset\(s\)/);
    assert.ok(said, 'the Submitted page names the submission');
    assert.match(shown, /The tool's notice handler answered 200\./, 'the tool took the notice');
    assert.equal(Number(said[2]), files.length + (text ? 1 : 0), 'each file and the text entry became an asset');
    await page.close();
    return said[1]!;
  }

  /** The instructor's SpeedGrader view of the student's submission, from the LMS's assignment page. */
  async function openSpeedGrader(
    instructor: Page,
    studentName: string,
    instructorName = 'Iris Instructor',
  ): Promise<void> {
    await openActivity(instructor);
    await instructor
      .getByRole('row', { name: new RegExp(studentName) })
      .last()
      .getByRole('link', { name: `SpeedGrader as ${instructorName}` })
      .click();
    await instructor.getByRole('heading', { level: 1, name: `${studentName}: ${activity}` }).waitFor();
  }

  return { openActivity, submitAs, openSpeedGrader };
}

/** The section of the SpeedGrader view for one asset: a file by its name, or "Text entry". */
export const assetSection = (page: Page, name: string) =>
  page
    .locator('section.asset')
    .filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${name.replace('.', '\\.')}\\b`) }) });
/** The asset's row for a report ("Originality", "AI content"). */
export const reportRow = (page: Page, section: Locator, title: string) =>
  section.getByRole('row').filter({ has: page.getByRole('cell', { name: title, exact: true }) });
export const cells = async (row: Locator) => (await row.locator('td').allInnerTexts()).map((text) => text.trim());
/** The Progress column's word, without the priority that may follow it. */
export const progressWord = (cell: string | undefined) => cell?.split(/\s/)[0] ?? '';

/** What the Progress column says of each asset's report of `title` ('' while there is none). */
export async function progressOf(page: Page, assets: string[], title = 'Originality'): Promise<string[]> {
  return Promise.all(
    assets.map(async (name) => {
      const row = reportRow(page, assetSection(page, name), title);
      return (await row.count()) === 1 ? progressWord((await cells(row))[3]) : '';
    }),
  );
}

/** Reloads the page, as a person waiting for reports does, until `done` holds; bounded. */
export async function reloadUntil(
  page: Page,
  done: () => Promise<boolean>,
  what: string,
  timeoutMs = 90_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await done()) return;
    if (Date.now() > deadline)
      assert.fail(`${what} was not shown in time; the page reads:\n${await page.locator('body').innerText()}`);
    await page.waitForTimeout(1000);
    await page.reload();
  }
}
