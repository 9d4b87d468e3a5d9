// The pages in a real headless Chromium, driven through the dev platform as an instructor and two students
// would: adding the assignment, its settings, uploads through the file picker and by drag and drop, the live
// status, the dashboard's bands, reports and row actions, the admin page; axe-core on each page, and screenshots
// in test-artifacts/browser/.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { launch } from '../../src/devplatform/agent.js';
import { saveRegistration } from '../../src/lti/registrations.js';
import { DEMO_USER } from '../../src/sandbox/index.js';
import { launchBrowser, screenshot, seriousAxeViolations } from '../support/browser.js';
import { call, login } from '../fixtures/sandbox/client.js';
import { browserPeople, type People } from '../support/people.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { shownSimilarity } from '../support/gradebook-cell.js';
import { essay } from '../support/papers.js';

// What the functions handed to the page see: the browser's globals (this project compiles without the DOM library).
declare const window: { stayed?: boolean },
  document: {
    getElementById(id: string): { dataset: Record<string, string> } | null;
    documentElement: { scrollWidth: number };
  };
declare const DataTransfer: new () => { items: { add(file: unknown): void } },
  File: new (parts: string[], name: string, options: { type: string }) => unknown;
declare function getComputedStyle(element: unknown): { backgroundColor: string };

const ADMIN_TOKEN = 'browser-test-admin-token-0123456789';
const original = essay('glaciers and the long retreat of ice');

let tool: TestTool;
let lms: ServedPlatform;
let browser: Browser;
let people: People;
/** Pages framing the tool: one on another registered platform's origin, one on a site the tool does not know. */
const framers: Server[] = [];
let registeredFramer = '';
let strangerFramer = '';

/** A page that frames the address in its `src` query parameter. */
function framingPage(
  req: { url?: string },
  res: { setHeader(name: string, value: string): unknown; end(body: string): unknown },
): void {
  const target = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
  res.setHeader('content-type', 'text/html');
  res.end(
    `<!doctype html><html lang="en"><title>LMS</title><iframe title="tool" src="${target.replace(/"/g, '')}" width="800" height="400"></iframe></html>`,
  );
}

async function framer(): Promise<string> {
  const server = createServer(framingPage);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  framers.push(server);
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

const personPage = (who: string) => people.page(who);
const openAssignmentAs = (who: string, userName: string) => people.openAssignmentAs(who, userName);

async function assertAccessible(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  assert.deepEqual(await seriousAxeViolations(page), [], `axe found serious or critical problems on ${name}`);
}

before(async () => {
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '1000',
    POLL_SCHEDULE_SECONDS: '2,2,5',
    ...FAST_JOBS,
    ADMIN_TOKEN,
  });
  lms = await startTestPlatform(tool);
  lms.app.get('/framer', framingPage);
  registeredFramer = await framer();
  strangerFramer = await framer();
  await saveRegistration(
    { db: tool.tool.database.db, provider: tool.tool.platforms },
    {
      name: 'Framing LMS',
      issuer: registeredFramer,
      clientId: 'framer',
      deploymentId: 'd1',
      authUrl: `${registeredFramer}/auth`,
      tokenUrl: `${registeredFramer}/token`,
      jwksUrl: `${registeredFramer}/jwks`,
    },
    'cli',
  );
  browser = await launchBrowser();
  people = browserPeople(browser, lms.url);
});

after(async () => {
  await browser?.close();
  for (const server of framers) server.close();
  await lms?.close();
  await tool?.stop();
});

describe('the pages in a browser', () => {
  test('an instructor adds the assignment through deep linking, then saves settings that the checking service applies', async () => {
    const page = await personPage('instructor');
    await page.goto(`${lms.url}/`);
    await page.getByRole('link', { name: 'Add the tool to the course (deep linking) as Iris Instructor' }).click();
    await page.getByLabel('Title').fill('Research essay');
    await page.getByRole('button', { name: 'Add the assignment' }).click();
    await page.getByText('Added 1 item(s)').waitFor();
    await page.getByRole('link', { name: 'Back to the course' }).click();
    await page.getByRole('link', { name: 'open as Iris Instructor', exact: true }).click();
    await page.waitForURL(/\/dashboard/);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Research essay');

    await page.getByRole('navigation', { name: 'Assignment' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByText('Not sent yet').waitFor();
    // The service's comparison options are folded under "Advanced".
    await page.getByText('Advanced: what the checking service compares').click();
    await page.getByLabel('Small sources').check();
    await page.getByLabel('Phrases to ignore').fill('Answer the question below in your own words');
    await page.getByLabel('Document type').selectOption('Thesis');
    // Bands out of order: refused with a sentence, nothing saved, and what was entered is still in the form.
    await page.getByLabel('Yellow (moderate) from').fill('60');
    await page.getByRole('button', { name: 'Save settings' }).click();
    assert.match(
      (await page.getByRole('alert').textContent()) ?? '',
      /Each colour band starts between 1 and 100 %, above the band before it/,
    );
    await page.getByText('Not sent yet').waitFor();
    assert.equal(await page.getByLabel('Yellow (moderate) from').inputValue(), '60');
    assert.equal(await page.getByLabel('Small sources').isChecked(), true);
    assert.equal(await page.getByLabel('Document type').inputValue(), 'Thesis');

    await page.getByLabel('Yellow (moderate) from').fill('25');
    await page.getByLabel('Due date', { exact: true }).fill('2099-12-01T17:00');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();
    assert.equal(await page.getByLabel('Due date', { exact: true }).inputValue(), '2099-12-01T17:00');
    const status = page.locator('#folder-status');
    await page.waitForFunction(() => document.getElementById('folder-status')?.dataset.state !== 'pending', undefined, {
      timeout: 30_000,
    });
    assert.equal(await status.textContent(), 'Applied: the checking service has these settings.');
    assert.equal(await page.getByLabel('Small sources').isChecked(), true);
    await assertAccessible(page, 'instructor-settings');

    const token = await login(tool.tool.sandbox!.url, DEMO_USER.email, DEMO_USER.password);
    const folders = await call<{
      folders: {
        content: Array<{ folder_name: string; excludeSmallSources: string; phrases: Record<string, string> | null }>;
      };
    }>(tool.tool.sandbox!.url, 'GET', '/extreme/myFolders', { token });
    const folder = folders.body.folders.content.find((f) => f.folder_name.startsWith('Research essay'));
    assert.ok(folder, 'the checking service has no folder for the assignment');
    assert.equal(folder.excludeSmallSources, 'YES');
    assert.ok(
      Object.values(folder.phrases ?? {}).includes('Answer the question below in your own words'),
      JSON.stringify(folder.phrases),
    );
  });

  test('two students submit, one through the file picker and one by drag and drop; the status turns to checked without a reload', async () => {
    const sam = await openAssignmentAs('sam', 'Sam Student');
    assert.match(
      (await sam.getByRole('region', { name: 'What to submit' }).textContent()) ?? '',
      /File types: PDF, Word \(DOCX\), Word 97-2003 \(DOC\), OpenDocument text \(ODT\), Rich Text \(RTF\), plain text \(TXT\).*Largest file: 100 MB.*Attempts: 3/s,
    );
    const [chooser] = await Promise.all([
      sam.waitForEvent('filechooser'),
      sam.getByLabel('Choose a file, or drop it here').click(),
    ]);
    await chooser.setFiles({ name: 'glaciers.txt', mimeType: 'text/plain', buffer: Buffer.from(original) });
    await sam.evaluate(() => (window.stayed = true));
    await sam.getByRole('button', { name: 'Submit' }).click();
    const sha256 = createHash('sha256').update(original).digest('hex');
    // Arrival as success, the progress bar gone, the receipt's hash behind a disclosure.
    await sam.getByRole('status').filter({ hasText: 'arrived' }).waitFor();
    assert.match(
      (await sam.locator('#message').textContent()) ?? '',
      /^✓ glaciers\.txt arrived on [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M \S.*\. Results usually within 10–15 minutes\.$/,
    );
    assert.equal(await sam.locator('#upload-progress').isHidden(), true, 'the progress bar stayed after the upload');
    assert.equal(
      await sam.getByText(`SHA-256 ${sha256}`).isVisible(),
      false,
      'the hash shows before the receipt is opened',
    );
    await sam.locator('#receipt summary').click();
    assert.match(
      await sam.locator('#receipt-text').innerText(),
      new RegExp(`^Receipt [0-9a-f-]{36} · SHA-256 ${sha256} · [\\d,]+ bytes$`),
    );

    const noor = await openAssignmentAs('noor', 'Noor Student');
    const dataTransfer = await noor.evaluateHandle((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'my-essay.txt', { type: 'text/plain' }));
      return transfer;
    }, original);
    await noor.dispatchEvent('#dropzone', 'drop', { dataTransfer });
    await noor.getByRole('button', { name: 'Submit' }).click();
    await noor.getByText(/^✓ my-essay\.txt arrived on /).waitFor();

    // The live status, with no navigation: the page polls until the paper is checked.
    await sam.locator('#attempt-list tr', { hasText: 'Checked' }).waitFor({ timeout: 60_000 });
    assert.equal(await sam.evaluate(() => window.stayed), true, 'the page reloaded');
    // The arrival is still said; the wait it foretold is not, once the result has come.
    assert.match(await sam.locator('#message').innerText(), /^✓ glaciers\.txt arrived on .+\.$/);
    assert.doesNotMatch(await sam.locator('#message').innerText(), /10–15 minutes/);
    await noor.locator('#attempt-list tr', { hasText: 'Checked' }).waitFor({ timeout: 60_000 });
    const row = noor.locator('#attempt-list tbody tr').first();
    assert.match((await row.innerText()) ?? '', /my-essay\.txt.*Checked\s*\d+%/s);
    assert.doesNotMatch((await row.textContent()) ?? '', /AI/, 'the AI score is hidden from students by default');
    // No AI report and no summary (it states the AI score too) while the AI score is hidden from students.
    assert.deepEqual(await row.getByRole('link').evaluateAll((links) => links.map((a) => a.textContent)), [
      'Similarity report, attempt 1',
      'Download the receipt of attempt 1',
    ]);

    const [download] = await Promise.all([
      sam.waitForEvent('download'),
      sam.getByRole('link', { name: 'Download the receipt of attempt 1' }).click(),
    ]);
    const receipt = readFileSync(await download.path(), 'utf8');
    assert.match(receipt, new RegExp(`SHA-256: +${sha256}`));
    assert.match(receipt, /File: +glaciers\.txt/);
    await assertAccessible(sam, 'student-checked');
    await screenshot(noor, 'student-copy-checked');
    // On a phone: nothing wider than the screen.
    await sam.setViewportSize({ width: 390, height: 844 });
    assert.ok(
      await sam.evaluate(() => document.documentElement.scrollWidth <= 390),
      'the student page scrolls sideways on a phone',
    );
    await screenshot(sam, 'student-phone');
  });

  test('the student\'s result first: the card above the collapsed form, "Attempt 1 of 3", and refused files announced and tied to the input', async () => {
    const noor = await openAssignmentAs('noor', 'Noor Student');
    const card = noor.getByRole('region', { name: 'Your result' });
    const again = noor.getByText('Submit a new attempt');
    const [cardBox, againBox] = [await card.boundingBox(), await again.boundingBox()];
    assert.ok(cardBox && againBox && cardBox.y + cardBox.height <= againBox.y, 'the result is not above the form');
    const text = (await card.innerText()).replace(/\s+/g, ' ');
    assert.match(
      text,
      /^Your result Attempt 1 of 3 · Due: Dec 1, 2099, 5:00 PM UTC Checked (9\d|100)% similarity · very high Result arrived .+ my-essay\.txt, received .+ View report$/,
    );
    assert.match(
      (await card.getByRole('link', { name: 'View report' }).getAttribute('href')) ?? '',
      /^\/reports\/[0-9a-f-]{36}\/similarity\/view\?ltik=/,
    );
    assert.equal(
      await noor.getByLabel('Choose a file, or drop it here').isVisible(),
      false,
      'the form is open although there is a result',
    );

    await again.click();
    const input = noor.getByLabel('Choose a file, or drop it here');
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(2048, 7)]);
    // A type the assignment does not take, refused in the page; then a PNG renamed .txt, refused by the server.
    for (const [file, reason] of [
      [
        { name: 'photo.png', mimeType: 'image/png', buffer: png },
        /^⚠ This file is not a type this assignment takes \(.*\)\. Choose another file; nothing was sent\.$/,
      ],
      [
        { name: 'essay.txt', mimeType: 'text/plain', buffer: png },
        /^⚠ This file is not a document type the tool recognises\. This assignment takes: .*\. Choose another file and submit again\.$/,
      ],
    ] as const) {
      await input.setInputFiles(file);
      if (file.name.endsWith('.txt')) {
        assert.equal(await input.getAttribute('aria-invalid'), null, 'a good-looking file is still marked invalid');
        await noor.getByRole('button', { name: 'Submit' }).click();
      }
      const alert = noor.getByRole('alert');
      await alert.filter({ hasText: reason }).waitFor();
      assert.equal(await input.getAttribute('aria-invalid'), 'true');
      const errorId = await alert.getAttribute('id');
      assert.ok(
        errorId && (await input.getAttribute('aria-describedby'))?.split(' ').includes(errorId),
        'the refusal is not tied to the file input',
      );
      assert.equal(
        await input.evaluate((el) => (el as unknown as { files: { length: number } }).files.length),
        0,
        'the refused file is still selected',
      );
      assert.equal(await noor.locator('#file-info').isHidden(), true);
    }
    await assertAccessible(noor, 'student-refused');
  });

  test('the instructor sees both rows with their colour bands and opens a report, a real PDF', async () => {
    const page = await openAssignmentAs('instructor', 'Iris Instructor');
    const samRow = page.locator('tbody tr', { hasText: 'Sam Student' });
    const noorRow = page.locator('tbody tr', { hasText: 'Noor Student' });
    assert.match((await samRow.locator('.band').textContent()) ?? '', /^\d+% Similarity report of Sam Student$/);
    assert.equal(await samRow.locator('.band-green').count(), 1, await samRow.innerHTML());
    assert.match((await samRow.textContent()) ?? '', /low/);
    assert.equal(await noorRow.locator('.band-red').count(), 1, await noorRow.innerHTML());
    assert.match((await noorRow.textContent()) ?? '', /very high/);
    assert.ok(parseFloat((await noorRow.locator('.band').textContent())!) >= 90);
    const colour = (row: typeof samRow) => row.locator('.band').evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(await colour(samRow), 'rgb(215, 242, 220)');
    assert.equal(await colour(noorRow), 'rgb(255, 209, 209)');
    assert.match(await page.getByRole('img', { name: /Similarity of the class, 2 scored/ }).innerHTML(), /<rect/);
    await assertAccessible(page, 'instructor-dashboard');
    await page.setViewportSize({ width: 390, height: 844 });
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= 390),
      'the dashboard scrolls sideways on a phone',
    );
    await screenshot(page, 'instructor-dashboard-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    // A new tab, as the link asks: it shows the PDF inline from a signed address that needs no cookie and no ltik.
    const [report] = await Promise.all([
      page
        .context()
        .waitForEvent('response', (response) => /\/reports\/[^/]+\/similarity\/file\?/.test(response.url())),
      noorRow.getByRole('link', { name: 'Similarity report of Noor Student' }).click(),
    ]);
    assert.equal(report.status(), 200);
    assert.equal(report.headers()['content-type'], 'application/pdf');
    assert.match(report.headers()['content-disposition'] ?? '', /^inline; filename="similarity-report-my-essay\.pdf"$/);
    assert.equal(new URL(report.url()).searchParams.has('ltik'), false);
    const again = await fetch(report.url());
    assert.equal(
      Buffer.from(await again.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
      '%PDF-',
    );
  });

  test('results for instructors only: the student no longer sees the score or a report, even by its address', async () => {
    const page = await openAssignmentAs('instructor', 'Iris Instructor');
    await page.getByRole('navigation', { name: 'Assignment' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Instructors only').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();

    const noor = await openAssignmentAs('noor', 'Noor Student');
    await noor
      .getByText('Your instructor sees the similarity results of this assignment; they are not shown to students.')
      .waitFor();
    const row = noor.locator('#attempt-list tbody tr').first();
    assert.doesNotMatch((await row.textContent()) ?? '', /%/);
    assert.equal(await row.getByRole('link', { name: /report/i }).count(), 0);
    const submissionId = await row
      .getByRole('link', { name: /receipt/ })
      .evaluate((a) => new URL((a as unknown as { href: string }).href).pathname.split('/')[4]);
    const ltik = new URL(noor.url()).searchParams.get('ltik')!;
    const answer = await noor.goto(`${tool.url}/reports/${submissionId}/similarity?ltik=${encodeURIComponent(ltik)}`);
    assert.equal(answer?.status(), 403);
    await noor.getByText('Your instructor has not made this report available to you.').waitFor();
    await screenshot(noor, 'student-results-hidden');
  });

  test('row actions: send a result to the gradebook again, and delete a paper (after a confirmation) so that the student may submit again', async () => {
    const page = await openAssignmentAs('instructor', 'Iris Instructor');
    // Each row's actions are in its menu.
    await page
      .getByRole('row', { name: /Sam Student/ })
      .getByText('Actions')
      .click();
    await page.getByRole('button', { name: 'Send the result to the gradebook again for Sam Student' }).click();
    await page.getByRole('status').getByText('The score is queued for the gradebook again (Sam Student).').waitFor();

    const papers = tool.tool.sandbox!.stats().papers;
    const noorId = lms.platform.users().find((user) => user.name === 'Noor Student')!.id;
    const noorScore = () => shownSimilarity(lms.platform.gradebook().find((row) => row.userId === noorId));
    assert.notEqual(noorScore(), null, 'Noor has a score in the gradebook before the deletion');
    // The click does not finish while the confirmation is open: it is awaited once the dialog is accepted.
    const confirmation = page.waitForEvent('dialog');
    await page
      .getByRole('row', { name: /Noor Student/ })
      .getByText('Actions')
      .click();
    const clicked = page.getByRole('button', { name: 'Delete for Noor Student' }).click();
    const dialog = await confirmation;
    const question = dialog.message();
    await dialog.accept();
    await clicked;
    assert.equal(dialog.type(), 'confirm');
    assert.match(question, /Delete Noor Student's latest attempt/);
    await page
      .getByRole('status')
      .getByText("Noor Student's attempt 1 is deleted, here and at the checking service; the student may submit again.")
      .waitFor();
    assert.match(await page.locator('tbody tr', { hasText: 'Noor Student' }).innerText(), /Not submitted/);
    assert.equal(tool.tool.sandbox!.stats().papers, papers - 1);
    for (let i = 0; i < 50 && noorScore() !== null; i++) await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(noorScore(), null, "the deleted attempt's score was left in the gradebook");

    const noor = await openAssignmentAs('noor', 'Noor Student');
    await noor.getByText('Nothing submitted yet.').waitFor();
    assert.equal(await noor.getByRole('button', { name: 'Submit' }).count(), 1);
  });

  test('the admin page, opened with the bootstrap token', async () => {
    const page = await personPage('admin');
    await page.goto(`${tool.url}/admin`);
    await page.getByLabel('Bootstrap token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Registered platforms' }).waitFor();
    assert.match((await page.locator('body').textContent()) ?? '', /Framing LMS/);
    await assertAccessible(page, 'admin');

    // Service accounts: the default one logs in; a stored one with a mistyped password says so, then works.
    await page
      .getByRole('row', { name: /^Default/ })
      .getByRole('button', { name: 'Test login' })
      .click();
    await page.getByRole('status').filter({ hasText: 'The login works.' }).waitFor();
    const addAccount = async (password: string) => {
      await page.getByText("Add an account, or change one's name and password").click();
      await page.getByLabel('Account name').fill('Faculty of Law');
      await page.getByLabel('Service address').fill(tool.tool.sandbox!.url);
      await page.getByLabel("Username (the account's e-mail)").fill(DEMO_USER.email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Save account' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved the service account Faculty of Law' }).waitFor();
    };
    await addAccount('mistyped');
    const row = page.getByRole('row', { name: /Faculty of Law/ });
    await row.getByRole('button', { name: 'Test login' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /The login failed/ })
      .waitFor();
    await addAccount(DEMO_USER.password);
    await page
      .getByRole('row', { name: /Faculty of Law/ })
      .getByRole('button', { name: 'Test login' })
      .click();
    await page.getByRole('status').filter({ hasText: 'The login works.' }).waitFor();
    assert.doesNotMatch(await page.content(), new RegExp(DEMO_USER.password), 'a password is shown on the page');

    const framing = page.getByRole('row', { name: /Framing LMS/ });
    await framing.getByLabel('Service account').selectOption({ label: 'Faculty of Law' });
    await framing.getByRole('button', { name: 'Use' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /new assignments use that account/ })
      .waitFor();
    const stored = await tool.tool.database.db
      .selectFrom('platform')
      .innerJoin('checker_account', 'checker_account.id', 'platform.checker_account_id')
      .select('checker_account.name')
      .where('platform.name', '=', 'Framing LMS')
      .executeTakeFirst();
    assert.equal(stored?.name, 'Faculty of Law');
    assert.equal(
      await page
        .getByRole('row', { name: /Framing LMS/ })
        .getByLabel('Service account')
        .locator('option:checked')
        .textContent(),
      'Faculty of Law',
    );
    await assertAccessible(page, 'admin-accounts');
  });

  test('the accessibility check itself catches what it should: an unlabelled field and an image without text', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.setContent(
        '<!doctype html><html lang="en"><title>Broken</title><main><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><input type="text"></main></html>',
      );
      assert.deepEqual((await seriousAxeViolations(page)).map((v) => v.rule).sort(), ['image-alt', 'label']);
    } finally {
      await context.close();
    }
  });

  test('no script or style of the pages was blocked by their own CSP', () => {
    assert.deepEqual(people.cspErrors, []);
  });

  test("a session's page may be framed by its own platform; another registered platform or another site may not", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const link = lms.platform.resourceLinks()[0]!;
      const session = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: link.id });
      assert.ok(session.ltik, 'the instructor has a session');
      const sessionPage = new URL(session.url);
      sessionPage.searchParams.set('ltik', session.ltik);
      const target = encodeURIComponent(sessionPage.toString());
      await page.goto(`${new URL(lms.url).origin}/framer?src=${target}`);
      const framed = page.frameLocator('iframe').getByRole('heading', { level: 1 });
      await framed.waitFor();

      for (const other of [registeredFramer, strangerFramer]) {
        const refusals: string[] = [];
        const listener = (message: ConsoleMessage) => void refusals.push(message.text());
        page.on('console', listener);
        await page.goto(`${other}/?src=${target}`);
        const refused = () =>
          refusals.some((text) => text.includes(`Framing '${tool.url}/'`) && /frame-ancestors .*blocked/.test(text));
        for (const deadline = Date.now() + 10_000; !refused() && Date.now() < deadline;) await page.waitForTimeout(100);
        assert.ok(refused(), `no frame-ancestors refusal in the console for ${other}:\n${refusals.join('\n')}`);
        assert.equal(await page.frameLocator('iframe').getByRole('heading', { level: 1 }).count(), 0);
        page.off('console', listener);
      }
    } finally {
      await context.close();
    }
  });
});
