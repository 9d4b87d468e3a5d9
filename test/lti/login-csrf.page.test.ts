// Login CSRF with LTI platform storage, in a real headless Chromium: the tool framed by the dev platform as Canvas
// frames it, its state kept in the LMS's window through lti.put_data and asked back through lti.get_data. The
// honest launch reaches the tool; the same kind of launch posted by a page that is not the LMS signs nobody in.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
let lms: TestPlatform;
let browser: Browser;

before(async () => {
  tool = await startTestTool();
  lms = await startTestPlatform(tool, { clientId: 'storage-client' });
  lms.platform.addResourceLink({ id: 'essay', title: 'Essay' });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await lms.close();
  await tool.stop();
});

async function sessions(): Promise<number> {
  const { rows } = await tool.tool.database.pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM lti_record WHERE collection = 'session'",
  );
  return Number(rows[0]!.n);
}

describe('platform storage in a browser', () => {
  test('framed by the LMS as Canvas frames it: the state goes to the LMS window and back, and the instructor lands on the dashboard', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) blocked.push(message.text());
    });
    // The dashboard is recognised by what the browser received in the tool's frame: on a loaded machine, Chromium
    // has been seen to render that page while Playwright never learnt of the frame's new document (its frame
    // stayed at the launch, and asking that frame for its text hung), so the frame's text is not waited on.
    const dashboard = page.waitForResponse(
      (response) => /\/assignments\/[0-9a-f-]{36}\/dashboard\?ltik=/.test(response.url()),
      { timeout: 60_000 },
    );
    const dashboardScript = page.waitForResponse((response) => response.url() === `${tool.url}/static/dashboard.js`, {
      timeout: 60_000,
    });
    await page.goto(`${lms.url}/frame?user=instructor-1&link=essay`);
    const landed = await dashboard;
    assert.equal(landed.status(), 200);
    assert.ok(landed.url().startsWith(tool.url));
    assert.notEqual(landed.frame(), page.mainFrame(), 'the dashboard opened outside the LMS frame');
    assert.match(await landed.text(), /Similarity in the class/);
    assert.equal((await dashboardScript).status(), 200, 'the dashboard page did not load its script');
    assert.deepEqual(blocked, [], 'a script of the platform-storage pages was blocked by the CSP');
    await context.close();
  });

  test("someone else's launch posted from a page that is not the LMS: the tool's page finds no LMS to confirm it, and nobody is signed in", async () => {
    // The attacker's own launch, stopped before its id_token is posted.
    const login = await fetch(
      lms.platform.loginInitiationUrl({ userId: 'student-1', resourceLinkId: 'essay', storageTarget: '_parent' }),
    );
    const next = (await login.text()).match(/data-next="([^"]+)"/)?.[1]?.replace(/&amp;/g, '&');
    assert.ok(next);
    const authorization = await (await fetch(next)).text();
    const field = (name: string) => authorization.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';
    const before = await sessions();

    // The victim's browser opens the attacker's page, which posts that launch to the tool.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route('http://attacker.example/', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><title>Free essays</title><form id="f" method="post" action="${tool.url}/lti/launch"><input name="id_token" value="${field('id_token')}"><input name="state" value="${field('state')}"></form><script>document.getElementById('f').submit()</script></html>`,
      }),
    );
    await page.goto('http://attacker.example/');
    await page.getByText('This launch has to be opened from inside your LMS').waitFor({ timeout: 15_000 });
    assert.equal(await sessions(), before, 'a session was stored');
    assert.doesNotMatch(page.url(), /ltik=/);
    await context.close();
  });
});
