// The Asset Processor as people meet it, in a real headless Chromium driven through the dev platform's pages (it
// stands in for Canvas; the sandbox for the checking service): the instructor adds the document processing app to
// the LMS's assignment and accepts the tool's settings; a student submits two files and a text entry; the
// SpeedGrader view shows each Processed, with the band's colour, alt text naming the percent, and the percent;
// "View report" opens the tool's report viewer; a file over the assignment's limit shows ASSET_TOO_LARGE; the same
// notice sent again uploads nothing twice; a file the LMS cannot serve shows DOWNLOAD_FAILED, and "Resubmit all
// files" checks it again. Screenshots in test-artifacts/browser/.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BAND_COLOUR, bandOf, defaultSettings } from '../../src/assignments/settings.js';
import { launchBrowser, screenshot } from '../support/browser.js';
import { browserPeople, type People } from '../support/people.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import {
  assetSection,
  cells,
  progressOf,
  progressWord,
  reloadUntil,
  reportRow,
  speedGrader,
} from '../support/speedgrader.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { postNotices } from '../support/asset-processor.js';
import { essay as essayOf } from '../support/papers.js';

/** The dev platform's own assignment (its default course has it). */
const ACTIVITY = 'Essay on rivers';
const STEP_MS = 60_000;

let tool: TestTool;
let lms: ServedPlatform;
let browser: Browser;
let people: People;
/** The instructor's page, kept open across the tests. */
let iris: Page;
/** Sam's submission: its LMS id, as the "Submitted" page names it. */
let samSubmission: string;

const essay = (topic: string) =>
  essayOf(topic, {
    heading: `${topic}\n`,
    sentence: (i) => `Sentence ${i} about ${topic} explores a different angle with evidence number ${i * 7}.`,
  });
const txt = (name: string, topic: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(essay(topic)) });

const db = () => tool.tool.database.db;
const assignment = () =>
  db()
    .selectFrom('assignment')
    .select(['id', 'settings'])
    .where('kind', '=', 'asset-processor')
    .executeTakeFirstOrThrow();
const papers = async () =>
  (
    await db()
      .selectFrom('submission')
      .select('id')
      .where('assignment_id', '=', (await assignment()).id)
      .execute()
  ).length;

async function setSettings(change: Record<string, unknown>) {
  const row = await assignment();
  await db()
    .updateTable('assignment')
    .set({ settings: JSON.stringify({ ...(row.settings as object), ...change }) })
    .where('id', '=', row.id)
    .execute();
}

/** "#2E7D32" as the browser computes a background colour: "rgb(46, 125, 50)". */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).join(', ')})`;

before(async () => {
  tool = await startTestTool({
    ASSET_PROCESSOR: 'on',
    SANDBOX_DELAY_MS: '300',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '20',
  });
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'ap-browser' });
  browser = await launchBrowser();
  people = browserPeople(browser, lms.url);
  iris = await people.page('iris');
  ({ openActivity, submitAs, openSpeedGrader: openSpeedGraderOf } = speedGrader(lms.url, people, ACTIVITY));
});
let openActivity: ReturnType<typeof speedGrader>['openActivity'];
let submitAs: ReturnType<typeof speedGrader>['submitAs'];
let openSpeedGraderOf: ReturnType<typeof speedGrader>['openSpeedGrader'];
const openSpeedGrader = (studentName: string) => openSpeedGraderOf(iris, studentName);
after(async () => {
  await browser?.close();
  await lms?.close();
  await tool?.stop();
});

describe('the Asset Processor through the dev platform, in a browser', () => {
  test('the instructor adds the document processing app to the LMS assignment and accepts the settings in one click', async () => {
    await openActivity(iris);
    await iris.getByText('No document processing app is attached yet.').waitFor();
    await iris.getByRole('link', { name: 'Add document processing app as Iris Instructor' }).click();
    await iris
      .getByRole('heading', { level: 1, name: "Check this assignment's submissions" })
      .waitFor({ timeout: STEP_MS });
    assert.equal(
      await iris.getByLabel('Title of the check').inputValue(),
      ACTIVITY,
      'the check is named after the assignment',
    );
    await iris.getByRole('button', { name: 'Attach the check' }).click();
    // The tool's answer returns to the LMS on its own (a form the page submits).
    await iris.getByText('Added the document processing app to the assignment.').waitFor({ timeout: STEP_MS });
    await openActivity(iris);
    assert.equal(await iris.getByText('No document processing app is attached yet.').count(), 0);
    assert.match(
      await iris.locator('h2:has-text("Document processing") + ul').innerText(),
      new RegExp(`^${ACTIVITY}: Similarity and AI-content check`),
    );
    assert.equal(lms.platform.assetProcessors().length, 1);
    await screenshot(iris, 'asset-processor-attached');
  });

  test('a student submits two files and a text entry; SpeedGrader shows each Processed with the band colour, alt text and percent', async () => {
    samSubmission = await submitAs(
      'Sam Student',
      [txt('glaciers.txt', 'glaciers'), txt('deltas.txt', 'river deltas')],
      `${essay('floodplains')}\n\nA second paragraph on floodplains and their soils.`,
    );
    await openSpeedGrader('Sam Student');
    const assets = ['glaciers.txt', 'deltas.txt', 'Text entry'];
    assert.equal(await iris.locator('section.asset').count(), 3);
    const allProcessed = async () =>
      [...(await progressOf(iris, assets)), ...(await progressOf(iris, assets, 'AI content'))].every(
        (progress) => progress === 'Processed',
      );
    await reloadUntil(iris, allProcessed, 'Processed reports on the three assets');
    const colours = Object.values(BAND_COLOUR).map(rgb);
    const bands = defaultSettings().similarityBands;
    for (const name of assets) {
      const row = reportRow(iris, assetSection(iris, name), 'Originality');
      const [indication, title, result, progress] = await cells(row);
      assert.equal(title, 'Originality');
      assert.equal(progressWord(progress), 'Processed');
      assert.match(result ?? '', /^\d+(\.\d)?%$/, `${name}: the result is a percent`);
      const swatch = row.getByRole('img');
      const alt = (await swatch.getAttribute('aria-label')) ?? '';
      assert.ok(alt.includes(result!), `${name}: the swatch's alt text "${alt}" names ${result}`);
      assert.equal(indication, alt, 'the alt text is written beside the swatch');
      const painted = await swatch.evaluate(
        (element) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(
            element,
          ).backgroundColor,
      );
      assert.ok(colours.includes(painted), `${name}: the swatch is painted ${painted}, not a band colour`);
      // The settings accepted as they came: the colour is the band of the percent shown.
      assert.equal(
        painted,
        rgb(BAND_COLOUR[bandOf(parseFloat(result!), bands)]),
        `${name}: ${result} painted ${painted}`,
      );
      assert.equal(await row.getByRole('link', { name: 'View report' }).count(), 1);
    }
    assert.equal(
      await iris.getByRole('button', { name: 'Resubmit all files' }).count(),
      0,
      'nothing to resubmit once every report is Processed',
    );
    await screenshot(iris, 'asset-processor-speedgrader-processed');
  });

  test('"View report" opens the tool\'s report viewer with the file\'s report', async () => {
    const row = reportRow(iris, assetSection(iris, 'glaciers.txt'), 'Originality');
    // Several hops (the tool's login, the LMS's authorization, the launch): the viewer is recognised by its response.
    const viewer = iris.waitForResponse(
      (response) => /\/reports\/[0-9a-f-]{36}\/similarity\/view\?ltik=/.test(response.url()),
      { timeout: STEP_MS },
    );
    await row.getByRole('link', { name: 'View report' }).click();
    const shown = await viewer;
    assert.equal(shown.status(), 200);
    assert.ok(shown.url().startsWith(tool.url));
    await iris.getByRole('heading', { level: 1, name: 'Similarity report' }).waitFor({ timeout: STEP_MS });
    // The launch from the LMS's "View report" opens the same viewer, its header stating the result in words. The
    // student is named as the tool knows them: a file the LMS announced names only the LMS's user id.
    const facts = await iris.locator('.report-facts').innerText();
    assert.match(
      facts,
      /^Student\s+student-1\s+File\s+glaciers\.txt\s+Checked\s+.+UTC\s+Similarity\s+\d+(\.\d)?%\s+(low|moderate|high|very high)\s+AI-written text\s+\d+(\.\d)?% \(an estimate, not proof\)$/,
    );
    await iris.locator('#report-pages[data-rendered]').waitFor({ timeout: STEP_MS });
    assert.ok((await iris.locator('#report-pages canvas').count()) >= 1, 'pdf.js drew the report');
    assert.match(await iris.getByRole('status').innerText(), /^\d+ pages?\./);
    assert.match(
      (await iris.getByRole('link', { name: 'Download the PDF' }).getAttribute('href')) ?? '',
      /^\/reports\/[0-9a-f-]{36}\/similarity\?ltik=/,
    );
    await screenshot(iris, 'asset-processor-report-viewer');
  });

  test('the same notice sent again uploads nothing twice', async () => {
    const papersBefore = await papers();
    assert.equal(papersBefore, 3);
    const postsBefore = lms.platform.assetReportLog().length;
    // The notice the LMS sent for Sam's submission, again: the same submission and assets, as the tool recorded them.
    const declared = await db()
      .selectFrom('lms_asset')
      .selectAll()
      .where('lms_submission_id', '=', samSubmission)
      .execute();
    assert.equal(declared.length, 3);
    const assets = declared.map((row) => ({
      asset_id: row.asset_id,
      url: row.url,
      ...(row.checksum?.startsWith('sha256:')
        ? { sha256_checksum: Buffer.from(row.checksum.slice('sha256:'.length), 'hex').toString('base64') }
        : {}),
      ...(row.size !== null ? { size: Number(row.size) } : {}),
      ...(row.content_type ? { content_type: row.content_type } : {}),
      ...(row.title ? { title: row.title } : {}),
      ...(row.filename ? { filename: row.filename } : {}),
    }));
    const activityId = lms.platform.assetProcessors()[0]!.activityId;
    const notice = lms.platform.submissionNotice({
      activityId,
      submissionId: samSubmission,
      userId: 'student-1',
      assets,
    });
    const answer = await postNotices(tool, await lms.platform.sign(notice));
    assert.equal(answer.status, 200, await answer.text());
    // The tool answers a notice it has seen by sending the latest reports again: originality and AI for each asset.
    for (
      const deadline = Date.now() + 20_000;
      lms.platform.assetReportLog().length < postsBefore + 6 && Date.now() < deadline;
    )
      await iris.waitForTimeout(200);
    assert.equal(lms.platform.assetReportLog().length - postsBefore, 6, 'the latest reports were sent again');
    assert.equal(await papers(), papersBefore, 'no second upload to the checking service');
    await openSpeedGrader('Sam Student');
    assert.deepEqual(await progressOf(iris, ['glaciers.txt', 'deltas.txt', 'Text entry']), [
      'Processed',
      'Processed',
      'Processed',
    ]);
  });

  test("a file over the assignment's limit shows Failed with ASSET_TOO_LARGE", async () => {
    await setSettings({ maxFileMb: 1 });
    try {
      await submitAs('Noor Student', [
        { name: 'huge.txt', mimeType: 'text/plain', buffer: Buffer.alloc(2 * 1024 * 1024, 'a') },
      ]);
      await openSpeedGrader('Noor Student');
      const section = assetSection(iris, 'huge.txt');
      // The refusal comes from the download job, which a busy machine may run late and retry: wait for it as a
      // teacher would, reloading, for up to three minutes.
      await reloadUntil(
        iris,
        async () => (await progressOf(iris, ['huge.txt']))[0] === 'Failed',
        'a Failed report on huge.txt',
        180_000,
      );
      const [, , , progress, comment] = await cells(reportRow(iris, section, 'Originality'));
      assert.equal(progressWord(progress), 'Failed');
      assert.match(comment ?? '', /1 MB at most/);
      assert.match(comment ?? '', /ASSET_TOO_LARGE$/);
      assert.equal(await section.getByRole('link', { name: 'View report' }).count(), 0, 'no report to view');
      await screenshot(iris, 'asset-processor-too-large');
    } finally {
      await setSettings({ maxFileMb: 100 });
    }
  });

  test('a file the LMS cannot serve shows DOWNLOAD_FAILED; "Resubmit all files" then checks it', async () => {
    lms.platform.setFaults({ assetFailures: 1000 });
    try {
      await submitAs('Lee Student', [txt('tides.txt', 'tides')]);
      await openSpeedGrader('Lee Student');
      await reloadUntil(
        iris,
        async () => (await progressOf(iris, ['tides.txt']))[0] === 'Failed',
        'a Failed report on tides.txt',
      );
      const [, , , , comment] = await cells(reportRow(iris, assetSection(iris, 'tides.txt'), 'Originality'));
      assert.match(comment ?? '', /could not be fetched from the LMS/);
      assert.match(comment ?? '', /DOWNLOAD_FAILED$/);
      await screenshot(iris, 'asset-processor-download-failed');
    } finally {
      lms.platform.setFaults({});
    }
    await iris.getByRole('button', { name: 'Resubmit all files' }).click();
    await iris.getByRole('heading', { level: 1, name: 'Resubmitted' }).waitFor({ timeout: STEP_MS });
    await iris.getByRole('link', { name: 'Back to the submission' }).click();
    await iris.getByRole('heading', { level: 1, name: `Lee Student: ${ACTIVITY}` }).waitFor();
    await reloadUntil(
      iris,
      async () => (await progressOf(iris, ['tides.txt']))[0] === 'Processed',
      'a Processed report on tides.txt after resubmitting',
    );
    const [, , result] = await cells(reportRow(iris, assetSection(iris, 'tides.txt'), 'Originality'));
    assert.match(result ?? '', /^\d+(\.\d)?%$/);
    assert.equal(await iris.getByRole('button', { name: 'Resubmit all files' }).count(), 0);
  });
});
