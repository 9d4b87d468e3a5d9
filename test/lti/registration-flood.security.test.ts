// Threat: registering in bulk. Each registration makes the tool fetch a configuration and post to an LMS, and
// each pending one lands on the administrator's page. Before, nothing bounded either: any address could start
// registrations without end, and with DYNAMIC_REGISTRATION=approve the pending ones piled up. Now one address may
// start 5 in 10 minutes, at most 20 may wait for approval, and a pending one can launch nothing, fetch nothing and
// frame nothing.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import { launch } from '../../src/devplatform/agent.js';
import { createDevPlatform, type DevPlatform } from '../../src/devplatform/index.js';
import { MAX_PENDING_REGISTRATIONS } from '../../src/lti/dynamic-registration.js';
import { toolUrls } from '../../src/lti/provider.js';
import { countPendingRegistrations, listRegistrations, setRegistrationActive } from '../../src/lti/registrations.js';
import { configurationFor, openRegistration, serveFakeLms } from '../support/fake-lms.js';
import { startTestTool, type TestTool } from '../support/tool.js';

/** The default of REGISTRATIONS_PER_ADDRESS, which this file's tool keeps. */
const REGISTRATIONS_PER_ADDRESS = 5;

const ADMIN_TOKEN = 'flood-test-admin-token-0123456789abcdef';
let tool: TestTool;
const closers: Array<() => Promise<void>> = [];
const frameAncestors = (csp: string | null | undefined) =>
  /frame-ancestors ([^;]*)/.exec(csp ?? '')?.[1]?.split(' ') ?? [];

before(async () => {
  tool = await startTestTool({ DYNAMIC_REGISTRATION: 'approve', ADMIN_TOKEN });
});
after(async () => {
  for (const close of closers) await close();
  await tool.stop();
});

/** A dev platform behind a recorder of every request the tool makes to it. */
async function recordedPlatform(clientId: string): Promise<{ platform: DevPlatform; url: string; paths: string[] }> {
  const app = express();
  const paths: string[] = [];
  app.use((req, _res, next) => {
    paths.push(req.path);
    next();
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/lms`;
  const urls = toolUrls(tool.url);
  const platform = await createDevPlatform({
    baseUrl: url,
    clientId,
    deploymentId: `${clientId}-deployment`,
    tool: { loginUrl: urls.login, launchUrl: urls.launch, jwksUrl: urls.keys },
  });
  app.use('/lms', platform.router);
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { platform, url, paths };
}

describe('a flood of registrations is cut off', () => {
  test(`one address may start ${REGISTRATIONS_PER_ADDRESS}; the next is refused with 429 and a sentence, and another address is not`, async () => {
    const nowhere = 'http://127.0.0.1:1/.well-known/openid-configuration';
    for (let i = 0; i < REGISTRATIONS_PER_ADDRESS; i += 1) {
      const attempt = await openRegistration(tool.url, nowhere, '127.0.0.21');
      assert.equal(attempt.status, 502, attempt.text);
      assert.match(attempt.text, /could not read your LMS's configuration/);
      assert.doesNotMatch(attempt.text, /ECONNREFUSED|HTTP \d{3}/, 'the page tells what the foreign side answered');
    }
    const cut = await openRegistration(tool.url, nowhere, '127.0.0.21');
    assert.equal(cut.status, 429, cut.text);
    assert.match(cut.text, /Too many registrations were started from your address/);
    const other = await openRegistration(tool.url, nowhere, '127.0.0.22');
    assert.equal(other.status, 502, 'another address is not cut off');
  });
});

describe('a pending registration (DYNAMIC_REGISTRATION=approve)', () => {
  test('says what the administrator must do, then can launch nothing, fetch nothing and frame nothing until switched on', async () => {
    const lms = await recordedPlatform('pending-client');
    lms.platform.addResourceLink({ id: 'essay', title: 'Essay' });
    const registered = await fetch(lms.platform.registrationUrl(toolUrls(tool.url).register));
    const page = await registered.text();
    assert.equal(registered.status, 200, page);
    const saved = (await listRegistrations(tool.tool.database.db)).find((r) => r.clientId === 'pending-client');
    assert.ok(saved && !saved.active, 'the registration waits for approval');
    assert.ok(
      page.includes(`npm run cli -- platform activate ${saved.id}`),
      'the page names the command that approves it',
    );
    assert.ok(page.includes(`${tool.url}/admin`), 'and the admin page');

    const refused = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    assert.equal(refused.status, 403, refused.body.slice(0, 300));
    assert.equal(refused.ltik, null);
    // The sentence that refuses it may be framed by anyone, as every refused launch's (it holds nothing that acts:
    // test/lti/launch-attacks.security.test.ts); the admin page below, by the tool alone.
    assert.deepEqual(frameAncestors(String(refused.headers['content-security-policy'])), ['*']);
    assert.deepEqual(
      lms.paths.filter((path) => /\/(jwks|token)$/.test(path)),
      [],
      "the tool fetched the pending platform's keys or a token",
    );
    const admin = await fetch(`${tool.url}/admin`, { headers: { authorization: `AdminToken ${ADMIN_TOKEN}` } });
    assert.equal(admin.status, 200);
    assert.deepEqual(frameAncestors(admin.headers.get('content-security-policy')), ["'self'"]);

    // The same launch works once an administrator switches it on: the refusal above was the pending state's.
    assert.ok(await setRegistrationActive(tool.tool.database.db, saved.id, true));
    const opened = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    assert.equal(opened.status, 200, opened.body.slice(0, 300));
    assert.ok(frameAncestors(String(opened.headers['content-security-policy'])).includes(new URL(lms.url).origin));
    assert.ok(
      lms.paths.some((path) => path.endsWith('/jwks')),
      'the launch of the switched-on platform was verified with its keys',
    );
  });

  test(`at most ${MAX_PENDING_REGISTRATIONS} wait for approval: the next is refused before the LMS is asked to register the tool`, async () => {
    const db = tool.tool.database.db;
    for (let i = await countPendingRegistrations(db); i < MAX_PENDING_REGISTRATIONS; i += 1) {
      await db
        .insertInto('platform')
        .values({
          name: `Pending ${i}`,
          issuer: `https://pending-${i}.example.edu`,
          client_id: `c${i}`,
          auth_url: 'https://x.example/a',
          token_url: 'https://x.example/t',
          jwks_url: 'https://x.example/k',
          authorization_server: null,
          registered_by: 'dynamic-registration',
          active: false,
        })
        .execute();
    }
    const lms = await serveFakeLms({ configuration: (origin) => configurationFor(origin, origin) });
    closers.push(lms.close);
    const answer = await openRegistration(tool.url, lms.configurationUrl, '127.0.0.23');
    assert.equal(answer.status, 503, answer.text);
    assert.match(answer.text, /Too many registrations are waiting for an administrator of the tool to approve them/);
    assert.equal(lms.registrations.length, 0, 'the LMS was asked to register the tool');
    assert.deepEqual(
      frameAncestors(answer.csp),
      ["'self'", lms.origin],
      'the refusal may be framed by the LMS that asked',
    );
    assert.equal(await countPendingRegistrations(db), MAX_PENDING_REGISTRATIONS);
  });
});
