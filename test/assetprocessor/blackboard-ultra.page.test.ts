// The Asset Processor in a real headless Chromium with the dev platform speaking Blackboard Learn Ultra's dialect
// (test/fixtures/lms/blackboard/: lti-aip/lti-ap names, an MD5 in base64, no report address in the notice, the lti-ap
// scopes): the instructor attaches the tool to the LMS's assignment, a student submits two files and a text entry,
// the grading view shows Processing and then Processed for each, and "View report" states the result in words above
// the PDF. The same steps in Canvas's dialect are test/web/asset-processor.page.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from '../support/browser.js';
import { browserPeople, type People } from '../support/people.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { assetSection, progressOf, reloadUntil, reportRow, speedGrader } from '../support/speedgrader.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { essay as essayOf } from '../support/papers.js';

const ACTIVITY = 'Essay on rivers';
const STEP_MS = 60_000;
const LTI_AP = 'https://purl.imsglobal.org/spec/lti-ap';

let tool: TestTool;
let lms: ServedPlatform;
let browser: Browser;
let people: People;
let iris: Page;
let pages: ReturnType<typeof speedGrader>;

const essay = (topic: string) =>
  essayOf(topic, {
    heading: `${topic}\n`,
    sentence: (i) => `Sentence ${i} on ${topic} takes up another source, number ${i * 17}.`,
  });
const txt = (name: string, topic: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(essay(topic)) });

before(async () => {
  tool = await startTestTool({
    ASSET_PROCESSOR: 'on',
    SANDBOX_DELAY_MS: '300',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '20',
  });
  lms = await startTestPlatform(tool, { dialect: 'blackboard', clientId: 'ap-browser-blackboard' });
  browser = await launchBrowser();
  people = browserPeople(browser, lms.url);
  iris = await people.page('iris');
  pages = speedGrader(lms.url, people, ACTIVITY);
});
after(async () => {
  await browser?.close();
  await lms?.close();
  await tool?.stop();
});

describe("the Asset Processor in Blackboard's dialect, in a browser", () => {
  test("the instructor attaches the tool; a student's two files and text entry show Processing, then Processed", async () => {
    await pages.openActivity(iris);
    await iris.getByRole('link', { name: 'Add document processing app as Iris Instructor' }).click();
    await iris.getByRole('button', { name: 'Attach the check' }).click({ timeout: STEP_MS });
    await iris.getByText('Added the document processing app to the assignment.').waitFor({ timeout: STEP_MS });

    // The service holds each upload, so the first report is seen before the check ends.
    tool.tool.sandbox!.setFaults({ uploadHoldMs: 4_000 });
    try {
      await pages.submitAs(
        'Sam Student',
        [txt('dunes.txt', 'dunes'), txt('spits.txt', 'spits and bars')],
        essay('tides'),
      );
      await pages.openSpeedGrader(iris, 'Sam Student');
      // Blackboard names a text entry's file itself.
      const assets = ['dunes.txt', 'spits.txt', 'Submission_Text.html'];
      await reloadUntil(
        iris,
        async () =>
          (await progressOf(iris, assets)).every((progress) => progress === 'Processing' || progress === 'Processed'),
        'a report on each file',
      );
    } finally {
      tool.tool.sandbox!.setFaults({});
    }
    const assets = ['dunes.txt', 'spits.txt', 'Submission_Text.html'];
    await reloadUntil(
      iris,
      async () => (await progressOf(iris, assets)).every((progress) => progress === 'Processed'),
      'Processed reports on the three files',
    );
    const log = lms.platform
      .assetReportLog()
      .map((entry) => entry.body as { assetId: string; type: string; processingProgress: string });
    for (const assetId of new Set(log.map((body) => body.assetId))) {
      assert.equal(
        log.find((body) => body.assetId === assetId && body.type === 'originality')?.processingProgress,
        'Processing',
        "each file's first report says it is in hand",
      );
    }
    const scopes = lms.platform.tokenExchanges().flatMap((exchange) => exchange.scopes);
    assert.ok(
      scopes.includes(`${LTI_AP}/scope/asset.readonly`) && scopes.includes(`${LTI_AP}/scope/report`),
      "Blackboard's scope names",
    );
    await screenshot(iris, 'asset-processor-blackboard-processed');
  });

  test('"View report" states the result in words above the PDF', async () => {
    const row = reportRow(iris, assetSection(iris, 'dunes.txt'), 'Originality');
    const result = (await row.locator('td').allInnerTexts())[2]!.trim();
    await row.getByRole('link', { name: 'View report' }).click();
    await iris.getByRole('heading', { level: 1, name: 'Similarity report' }).waitFor({ timeout: STEP_MS });
    const header = (await iris.locator('.report-facts').innerText()).replace(/\s+/g, ' ');
    assert.match(header, /File dunes\.txt/);
    assert.match(header, new RegExp(`Similarity ${result.replace('.', '\\.')} (low|moderate|high|very high)`), header);
    await screenshot(iris, 'asset-processor-blackboard-report');
  });
});
