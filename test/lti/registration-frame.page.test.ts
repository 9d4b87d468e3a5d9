// LTI Dynamic Registration as an LMS administrator sees it, in Chromium: the LMS's admin page (here the dev
// platform's, on its own origin) opens the tool's /lti/register in a panel; the browser lets the tool's answer
// into the frame, and the answer posts org.imsglobal.lti.close, which closes the panel. The same for registrations
// that fail, whose sentence shows in the panel above a Close button.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { listRegistrations } from '../../src/lti/registrations.js';
import { launchBrowser, screenshot } from '../support/browser.js';
import { servePlatform, type ServedPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

declare const document: { title: string };
declare const window: { addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void };

let tool: TestTool;
let lms: ServedPlatform;
let browser: Browser;
let stranger: Server;
let strangerUrl = '';
/** Every console line of every page: a refused frame or a blocked script shows here. */
const consoleLines: string[] = [];

const REGISTRATION_MS = 90_000;
const frameAncestors = (csp: string | undefined) => /frame-ancestors ([^;]*)/.exec(csp ?? '')?.[1]?.split(' ') ?? [];

async function watchedPage(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.on('console', (message) => consoleLines.push(message.text()));
  return page;
}

before(async () => {
  tool = await startTestTool();
  lms = await servePlatform(tool.url, { rules: 'moodle', clientId: 'panel-client', deploymentId: 'panel-deployment' });
  // Some site that is not an LMS, framing the registration page with an address that leads nowhere; it notes the
  // close message in its title. (Its own page has no CSP: the inline script is the test's.)
  stranger = createServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><html lang="en"><title>waiting</title>
<script>addEventListener('message', (event) => { if (event.data && event.data.subject === 'org.imsglobal.lti.close') document.title = 'closed'; });</script>
<iframe id="panel" title="registration" src="${target.replace(/"/g, '')}" width="800" height="400"></iframe></html>`);
  });
  stranger.listen(0, '127.0.0.1');
  await once(stranger, 'listening');
  const address = stranger.address();
  strangerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  stranger?.close();
  await lms?.close();
  await tool?.stop();
});

describe('the registration page inside the LMS panel', () => {
  test("the panel on the LMS origin shows the tool's answer, the registration completes, and the close message closes the panel", async () => {
    assert.notEqual(new URL(lms.url).origin, new URL(tool.url).origin, 'the LMS and the tool are on different origins');
    const page = await watchedPage();
    // A registration makes a key pair and two calls to the LMS: on a busy machine it takes tens of seconds.
    const answer = page.waitForResponse((response) => response.url().startsWith(`${tool.url}/lti/register`), {
      timeout: REGISTRATION_MS,
    });
    await page.goto(`${lms.url}/register-tool`, { waitUntil: 'domcontentloaded' });
    const response = await answer;
    assert.equal(response.status(), 200);
    assert.deepEqual(frameAncestors(response.headers()['content-security-policy']), [
      "'self'",
      new URL(lms.url).origin,
    ]);
    await page.getByText('The tool closed its registration panel.').waitFor({ timeout: REGISTRATION_MS });
    assert.equal(await page.locator('#registration-panel').count(), 0, 'the panel is closed');
    await screenshot(page, 'registration-panel-closed');
    const saved = (await listRegistrations(tool.tool.database.db)).find((r) => r.clientId === 'panel-client');
    assert.deepEqual(saved && { deployments: saved.deploymentIds, active: saved.active }, {
      deployments: ['panel-deployment'],
      active: true,
    });
  });

  test('a registration the tool refuses (the LMS is registered already) shows its sentence in the panel; Close closes it', async () => {
    const page = await watchedPage();
    await page.goto(`${lms.url}/register-tool`, { waitUntil: 'domcontentloaded' });
    const panel = page.frameLocator('#registration-panel');
    await panel.getByText(/This LMS is already registered with the tool/).waitFor({ timeout: REGISTRATION_MS });
    assert.match(
      (await panel.locator('main').textContent()) ?? '',
      /An administrator of the tool can remove or update the existing registration/,
    );
    await screenshot(page, 'registration-panel-refused');
    await panel.getByRole('button', { name: 'Close' }).click();
    await page.getByText('The tool closed its registration panel.').waitFor();
  });

  test('a registration that fails before the LMS is known (its configuration cannot be read) shows its sentence in any frame; Close posts the message', async () => {
    const page = await watchedPage();
    const register = `${tool.url}/lti/register?openid_configuration=${encodeURIComponent('http://127.0.0.1:1/.well-known/openid-configuration')}`;
    await page.goto(`${strangerUrl}/?src=${encodeURIComponent(register)}`, { waitUntil: 'domcontentloaded' });
    const panel = page.frameLocator('#panel');
    await panel.getByText(/could not read your LMS's configuration/).waitFor({ timeout: REGISTRATION_MS });
    await panel.getByRole('button', { name: 'Close' }).click();
    await page.waitForFunction(() => document.title === 'closed');
  });

  test('no frame was refused and no script was blocked by a Content Security Policy', () => {
    const refusals = consoleLines.filter((line) =>
      /Content Security Policy|frame-ancestors|Refused to (frame|display)/i.test(line),
    );
    assert.deepEqual(refusals, []);
  });
});
