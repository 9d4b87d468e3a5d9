// The student's and the instructor's way through an assignment in a real headless Chromium, driven through the dev
// platform: a student who opens an assignment before any instructor can submit and gets a score, and the
// instructor then sees the paper and the defaults it ran under; reports shown in place with pdf.js (in the LMS
// frame), for the instructor and for the student where allowed, and refused where not; the upload page's file
// name and size, its refusal of a too large file before sending, its progress bar, and the plain form without
// scripts. Screenshots in test-artifacts/browser/.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, FrameLocator, Page, Request } from 'playwright-core';
import { bandOf } from '../../src/assignments/settings.js';
import { launch } from '../../src/devplatform/agent.js';
import { artifactsDir, launchBrowser, screenshot, seriousAxeViolations } from '../support/browser.js';
import { browserPeople, type People } from '../support/people.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { shownSimilarity } from '../support/gradebook-cell.js';
import { essay } from '../support/papers.js';

// What the functions handed to the page see: the browser's globals (this project compiles without the DOM library).
declare const window: { stayed?: boolean; seen?: string[] };
declare const document: { getElementById(id: string): { textContent: string | null } | null };
declare const MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void };

const MB = 1024 * 1024;

let tool: TestTool;
let lms: ServedPlatform;
let browser: Browser;
let files: string;
let people: People;

const assignmentRow = () =>
  tool.tool.database.db
    .selectFrom('assignment')
    .select(['id', 'folder_id', 'settings_unreviewed', 'created_by'])
    .where('resource_link_id', '=', 'essay-1')
    .executeTakeFirst();

/** Whether something was drawn on the canvas: a report page is not blank. */
async function drawn(page: Page | ReturnType<Page['frameLocator']>): Promise<boolean> {
  return page
    .locator('#report-pages canvas')
    .first()
    .evaluate((canvas) => {
      const c = canvas as unknown as {
        width: number;
        height: number;
        getContext(kind: '2d'): {
          getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
        };
      };
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark += 1;
      return dark > 100;
    });
}

/** The report viewer's header, term by term: what it says above the PDF (its words, spaces collapsed). */
async function reportFacts(page: Page | FrameLocator): Promise<Record<string, string>> {
  const facts: Record<string, string> = {};
  for (const fact of await page.locator('.report-facts > div').all()) {
    const term = (await fact.getByRole('term').innerText()).trim();
    facts[term] = (await fact.getByRole('definition').innerText()).replace(/\s+/g, ' ').trim();
  }
  return facts;
}

/** The similarity the header states is the band's, in the band's words, on a chip of the band's colour. */
async function assertBandStated(page: Page | FrameLocator, stated: string): Promise<void> {
  const [, score, words] =
    /^(\d+(?:\.\d)?)% (low|moderate|high|very high)$/.exec(stated) ?? assert.fail(`the similarity reads "${stated}"`);
  const band = bandOf(Number(score), [25, 50, 75]);
  assert.equal(words, { green: 'low', yellow: 'moderate', orange: 'high', red: 'very high' }[band]);
  assert.equal(await page.locator(`.report-facts .band.band-${band}`).innerText(), `${score}%`);
}

before(async () => {
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '1000',
    POLL_SCHEDULE_SECONDS: '2,2,5',
    ...FAST_JOBS,
  });
  lms = await startTestPlatform(tool);
  // An activity the LMS made without deep linking (Moodle's "add an external tool"), that no instructor has opened.
  lms.platform.addResourceLink({ id: 'essay-1', title: 'Essay 1', lineItem: { label: 'Essay 1', scoreMaximum: 100 } });
  browser = await launchBrowser();
  people = browserPeople(browser, lms.url);
  files = mkdtempSync(join(tmpdir(), 'pages-flow-'));
});

after(async () => {
  await browser?.close();
  await lms?.close();
  await tool?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

describe('a student first, reports in place, the upload page', () => {
  test('a student opens the assignment before any instructor, submits, and gets a score; the instructor then sees the paper and the defaults', async () => {
    assert.equal(await assignmentRow(), undefined, 'no assignment exists before the first launch');
    const sam = await people.openAssignmentAs('sam', 'Sam Student');
    assert.equal(await sam.getByRole('heading', { level: 1 }).textContent(), 'Essay 1');
    const created = await assignmentRow();
    assert.equal(created?.settings_unreviewed, true);
    assert.equal(created?.folder_id, null, 'the folder at the service waits for the first paper');

    await sam.locator('#file').setInputFiles({
      name: 'glaciers.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(essay('glaciers and the long retreat of ice')),
    });
    assert.match((await sam.locator('#file-info').textContent()) ?? '', /^glaciers\.txt · \d+ KB$/);
    await sam.getByRole('button', { name: 'Submit' }).click();
    await sam.getByText(/^✓ glaciers\.txt arrived on /).waitFor();
    // The row's status says Checked: a regular expression, as a text match ignores case and 'Being checked' is not it.
    await sam.locator('#attempt-list tr', { hasText: /\bChecked/ }).waitFor({ timeout: 60_000 });
    assert.match(await sam.locator('#attempt-list tbody tr').first().innerText(), /glaciers\.txt.*Checked\s*\d+%/s);
    // The result card came without a reload, saying when the result arrived; no due date where the assignment has none,
    // nor "until the due date".
    const card = (await sam.getByRole('region', { name: 'Your result' }).innerText()).replace(/\s+/g, ' ');
    assert.match(
      card,
      /^Your result Attempt 1 of 3 Checked \d+% similarity · (low|moderate|high|very high) Result arrived .+ glaciers\.txt, received .+ View report$/,
    );
    assert.equal(
      await sam.getByRole('region', { name: 'What to submit' }).getByText('Attempts: 3', { exact: true }).count(),
      1,
    );
    assert.notEqual((await assignmentRow())?.folder_id, null, 'the folder was made for the first paper');
    const gradebook = async () => lms.platform.gradebook().find((row) => row.userId === 'student-1');
    for (const deadline = Date.now() + 30_000; !(await gradebook()) && Date.now() < deadline;)
      await sam.waitForTimeout(250);
    assert.equal(typeof shownSimilarity(await gradebook()), 'number', 'the similarity reached the LMS gradebook');
    await screenshot(sam, 'student-first-checked');

    const iris = await people.openAssignmentAs('iris', 'Iris Instructor');
    await iris.waitForURL(/\/dashboard/);
    const notice = iris.getByRole('region', { name: "This assignment uses the tool's defaults" });
    assert.match(
      (await notice.textContent()) ?? '',
      /A student opened this assignment before any instructor did.*up to 100 MB each.*students see their similarity as soon as their paper is checked/s,
    );
    const samRow = iris.getByRole('row', { name: /Sam Student/ });
    assert.match((await samRow.textContent()) ?? '', /Checked.*\d+%/s);
    assert.deepEqual(await seriousAxeViolations(iris), []);
    await screenshot(iris, 'instructor-defaults-notice');

    // The instructor may still change the settings; once saved, they are the instructor's own.
    await iris.getByRole('navigation', { name: 'Assignment' }).getByRole('link', { name: 'Settings' }).click();
    await iris.getByRole('region', { name: "This assignment uses the tool's defaults" }).waitFor();
    await iris.getByLabel('Largest file (MB)').fill('50');
    await iris.getByRole('button', { name: 'Save settings' }).click();
    await iris.getByText('Saved.').waitFor();
    assert.equal(await iris.getByRole('region', { name: "This assignment uses the tool's defaults" }).count(), 0);
    assert.equal((await assignmentRow())?.settings_unreviewed, false);
  });

  test('the instructor reads a report in place in the LMS frame with pdf.js from the tool, with a download link beside it', async () => {
    const page = await people.page('iris-framed');
    const requests: string[] = [];
    page.context().on('request', (request: Request) => requests.push(request.url()));
    // The launch is made over HTTP by the dev platform's agent and the LMS's frame is sent straight to the page it
    // ends on, as the frame-fit tests do: this test judges the report in the frame, and a launch's six loads in one
    // frame are where the browser driver has been seen to lose the frame on a busy machine (the launch in a frame is
    // test/lti/login-csrf.page.test.ts's subject).
    const launched = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay-1' });
    assert.equal(launched.status, 200, `the instructor's launch answered ${launched.status}`);
    await page.route(`${tool.url}/lti/login?**`, (route) =>
      route.fulfill({ status: 302, headers: { location: launched.url } }),
    );
    await page.goto(`${lms.url}/frame?${new URLSearchParams({ user: 'instructor-1', link: 'essay-1' })}`);
    const frame = page.frameLocator('#tool-frame');
    await frame.getByRole('heading', { level: 1, name: 'Essay 1' }).waitFor();
    await frame.getByRole('link', { name: 'Similarity report of Sam Student' }).click();
    await frame.getByRole('heading', { level: 1, name: 'Similarity report' }).waitFor();
    // The result in words, above the PDF: who, which file, when, the score with its band, and the AI score.
    const facts = await reportFacts(frame);
    assert.deepEqual(Object.keys(facts), ['Student', 'File', 'Checked', 'Similarity', 'AI-written text']);
    assert.equal(facts.Student, 'Sam Student');
    assert.equal(facts.File, 'glaciers.txt');
    assert.match(facts.Checked!, /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC$/);
    await assertBandStated(frame, facts.Similarity!);
    assert.match(facts['AI-written text']!, /^\d+(\.\d)?% \(an estimate, not proof\)$/);
    await frame.locator('#report-pages[data-rendered]').waitFor();
    assert.match(
      (await frame.locator('#report-pages').getAttribute('data-rendered')) ?? '',
      /^[1-9]\d*$/,
      'pdf.js drew the pages',
    );
    assert.ok(await drawn(frame), 'the first page is not blank');
    assert.match((await frame.getByRole('status').textContent()) ?? '', /^\d+ pages?\./);
    const download = frame.getByRole('link', { name: 'Download the PDF' });
    assert.match((await download.getAttribute('href')) ?? '', /^\/reports\/[0-9a-f-]{36}\/similarity\?ltik=/);
    const toolOrigin = new URL(tool.url).origin;
    const pdfjs = requests.filter((url) => /pdf(\.worker)?\.min\.mjs/.test(url));
    assert.ok(
      pdfjs.some((url) => url.endsWith('/static/pdfjs/pdf.worker.min.mjs')),
      `the worker was loaded: ${pdfjs.join(', ')}`,
    );
    assert.ok(
      pdfjs.every((url) => new URL(url).origin === toolOrigin),
      `pdf.js came from elsewhere: ${pdfjs.join(', ')}`,
    );
    assert.ok(page.url().startsWith(lms.url), 'the report opened in the frame, the LMS page stayed');
    await page.locator('#tool-frame').screenshot({ path: join(artifactsDir, 'report-in-frame.png') });
  });

  test('the student reads their similarity report in place; a report the instructor has not allowed is refused', async () => {
    const sam = await people.openAssignmentAs('sam', 'Sam Student');
    const row = sam.locator('#attempt-list tbody tr').first();
    assert.deepEqual(await row.getByRole('link').evaluateAll((links) => links.map((a) => a.textContent)), [
      'Similarity report, attempt 1',
      'Download the receipt of attempt 1',
    ]);
    await row.getByRole('link', { name: /^Similarity report\s*, attempt 1$/ }).click();
    await sam.waitForURL(/\/reports\/[0-9a-f-]{36}\/similarity\/view\?/);
    await sam.locator('#report-pages[data-rendered]').waitFor();
    assert.match((await sam.locator('#report-pages').getAttribute('data-rendered')) ?? '', /^[1-9]\d*$/);
    assert.ok(await drawn(sam), 'the first page is not blank');
    // The student reads their own result in words; the AI score stays hidden, as this assignment hides it from students.
    const facts = await reportFacts(sam);
    assert.deepEqual(Object.keys(facts), ['Student', 'File', 'Checked', 'Similarity']);
    assert.deepEqual([facts.Student, facts.File], ['Sam Student', 'glaciers.txt']);
    await assertBandStated(sam, facts.Similarity!);
    assert.deepEqual(await seriousAxeViolations(sam), []);
    await screenshot(sam, 'student-report');

    // The AI report follows the AI score, which this assignment hides from students.
    const ai = new URL(sam.url().replace('/similarity/view', '/ai/view'));
    const answer = await sam.goto(ai.toString());
    assert.equal(answer?.status(), 403);
    await sam.getByText('Your instructor has not made this report available to you.').waitFor();
    assert.equal(await sam.locator('canvas').count(), 0);
  });

  test('on a phone the report opens at a readable scale in its own box, zooms and fits the width; a PDF that does not load still leaves the result in words', async () => {
    const sam = await people.openAssignmentAs('sam', 'Sam Student');
    await sam.setViewportSize({ width: 390, height: 844 });
    await sam
      .locator('#attempt-list tbody tr')
      .first()
      .getByRole('link', { name: /^Similarity report\s*, attempt 1$/ })
      .click();
    await sam.locator('#report-pages[data-rendered]').waitFor();
    const box = sam.locator('#report-pages');
    const scale = async () => Number(await box.getAttribute('data-scale'));
    const widths = () =>
      box.evaluate((element) => {
        const e = element as unknown as {
          clientWidth: number;
          scrollWidth: number;
          ownerDocument: { documentElement: { clientWidth: number; scrollWidth: number } };
        };
        return {
          box: e.clientWidth,
          drawn: e.scrollWidth,
          page: e.ownerDocument.documentElement.scrollWidth,
          viewport: e.ownerDocument.documentElement.clientWidth,
        };
      });
    assert.ok((await scale()) >= 1, `the report opened at ${await scale()}, below a readable scale`);
    let seen = await widths();
    assert.ok(seen.drawn > seen.box, 'the page drawn at a readable scale scrolls inside its own box');
    assert.ok(seen.page <= seen.viewport, `the page itself is ${seen.page} px wide in a ${seen.viewport} px screen`);
    assert.equal(await sam.locator('#report-zoom').innerText(), '100%');

    await sam.getByRole('button', { name: 'Fit width' }).click();
    await sam.waitForFunction(
      () =>
        Number(
          (
            globalThis as unknown as { document: { getElementById(id: string): { dataset: { scale?: string } } } }
          ).document.getElementById('report-pages').dataset.scale,
        ) < 1,
    );
    seen = await widths();
    assert.ok(seen.drawn <= seen.box, `fitted, the page is ${seen.drawn} px in a ${seen.box} px box`);
    const fitted = await scale();
    await sam.getByRole('button', { name: 'Zoom in' }).click();
    await sam.waitForFunction(
      (before) =>
        Number(
          (
            globalThis as unknown as { document: { getElementById(id: string): { dataset: { scale?: string } } } }
          ).document.getElementById('report-pages').dataset.scale,
        ) > before,
      fitted,
    );
    assert.ok(await drawn(sam), 'the zoomed page is drawn');
    assert.deepEqual(await seriousAxeViolations(sam), []);
    await screenshot(sam, 'student-report-phone');

    // The PDF does not come (the service is down, a slow link gives up): the header still says the result.
    await sam.route('**/reports/*/similarity/file?**', (route) =>
      route.fulfill({ status: 502, contentType: 'text/plain', body: 'unavailable' }),
    );
    await sam.reload();
    await sam.locator('#report-pages[data-rendered="failed"]').waitFor({ state: 'attached' });
    assert.equal(
      await sam.getByRole('status').first().innerText(),
      'The report could not be shown here. Use the download link to open it.',
    );
    const facts = await reportFacts(sam);
    assert.deepEqual([facts.Student, facts.File], ['Sam Student', 'glaciers.txt']);
    await assertBandStated(sam, facts.Similarity!);
    assert.equal(
      await sam.getByRole('toolbar', { name: 'Zoom' }).isVisible(),
      false,
      'no zoom for a report that is not there',
    );
  });

  test('the upload page refuses a file over the limit before sending, and shows progress for one under it', async () => {
    const noor = await people.openAssignmentAs('noor', 'Noor Student');
    assert.match(
      (await noor.getByRole('region', { name: 'What to submit' }).textContent()) ?? '',
      /Largest file: 50 MB/,
    );
    const posts: string[] = [];
    noor.on('request', (request: Request) => {
      if (request.method() === 'POST' && request.url().includes('/submissions')) posts.push(request.url());
    });

    const big = join(files, 'thesis-60mb.txt');
    writeFileSync(big, '');
    truncateSync(big, 60 * MB);
    await noor.locator('#file').setInputFiles(big);
    // Refused as soon as it is chosen: the reason and what to do, as an error; the file cleared, so it cannot be sent.
    assert.equal(
      await noor.getByRole('alert').textContent(),
      '⚠ The file is larger than this assignment allows (50 MB at most). Choose a smaller file; nothing was sent.',
    );
    assert.equal(await noor.locator('#file-info').isHidden(), true);
    assert.equal(await noor.locator('#file').inputValue(), '');
    await noor.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual(posts, [], 'a file over the limit was sent');

    const wrong = join(files, 'slides.pptx');
    writeFileSync(wrong, 'not a paper');
    await noor.locator('#file').setInputFiles(wrong);
    assert.match(
      (await noor.getByRole('alert').textContent()) ?? '',
      /^⚠ This file is not a type this assignment takes \(PDF, Word \(DOCX\), .*\)\. Choose another file; nothing was sent\.$/,
    );

    const paper = essay('rivers and the shape of valleys') + '\n';
    const twenty = join(files, 'essay-20mb.txt');
    writeFileSync(twenty, paper.repeat(Math.ceil((20 * MB) / paper.length)).slice(0, 20 * MB));
    await noor.locator('#file').setInputFiles(twenty);
    assert.equal(await noor.locator('#file-info').textContent(), 'essay-20mb.txt · 20.0 MB');
    assert.equal(await noor.locator('#file').getAttribute('aria-invalid'), null, 'a good file is still marked invalid');
    assert.equal(await noor.locator('#file-error').isHidden(), true, 'the refusal of the file before stays on screen');
    // Slow the upload to a school network's pace, so that the bar has something to show.
    const cdp = await noor.context().newCDPSession(noor);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 5 * MB,
    });
    await noor.evaluate(() => {
      window.stayed = true;
      window.seen = [];
      const text = document.getElementById('progress-text');
      new MutationObserver(() => window.seen!.push(text!.textContent ?? '')).observe(text, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    await noor.getByRole('button', { name: 'Submit' }).click();
    await noor.locator('#upload-progress').waitFor();
    await noor.getByText(/^✓ essay-20mb\.txt arrived on /).waitFor({ timeout: 60_000 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    assert.match(
      (await noor.locator('#receipt-text').textContent()) ?? '',
      new RegExp(`^Receipt [0-9a-f-]{36} · SHA-256 [0-9a-f]{64} · ${(20 * MB).toLocaleString('en')} bytes$`),
    );
    const seen = (await noor.evaluate(() => window.seen)) ?? [];
    assert.ok(
      seen.some((value) => /^([1-9]|[1-9]\d)%$/.test(value)),
      `no progress between 0 and 100 % was shown: ${seen.join(', ')}`,
    );
    assert.equal(seen.at(-1), '100%');
    assert.equal(await noor.evaluate(() => window.stayed), true, 'the page reloaded');
    assert.equal(posts.length, 1);
    await noor.locator('#attempt-list tr', { hasText: 'essay-20mb.txt' }).waitFor();
    await screenshot(noor, 'student-upload-done');
  });

  test('without scripts the upload form still works: the file is posted and the page shows the attempt', async () => {
    const session = await launch(lms.platform, { userId: 'student-3', resourceLinkId: 'essay-1' });
    assert.ok(session.ltik, 'Lee has a session');
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const address = new URL(session.url);
      address.searchParams.set('ltik', session.ltik);
      await page.goto(address.toString());
      await page.locator('#file').setInputFiles({
        name: 'lee.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(essay('volcanoes and the islands they build')),
      });
      await Promise.all([
        page.waitForURL(/\/assignments\/[0-9a-f-]{36}\?ltik=/),
        page.getByRole('button', { name: 'Submit' }).click(),
      ]);
      assert.match((await page.locator('#attempt-list tbody tr').first().textContent()) ?? '', /lee\.txt/);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Essay 1');
    } finally {
      await context.close();
    }
  });

  test('no script or style of these pages was blocked by their own CSP', () => {
    assert.deepEqual(people.cspErrors, []);
  });
});
