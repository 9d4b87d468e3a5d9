// Threat: framing the tool's pages from a site that should not (clickjacking the admin page's buttons, or one
// school's LMS framing another school's sessions). Before, every answer listed the origins of every active
// platform, so registering an LMS (dynamically, by anyone while DYNAMIC_REGISTRATION=open) let it frame the admin
// page and every other platform's sessions. Now an answer in a session names that session's platform only; the
// admin page names the tool alone, and registering a platform changes neither. A page of one sentence with no
// session (nothing on it to click) names the platform it is about, else the registered ones, never another site;
// a refused launch's sentence, anyone (the LMS showing it may be one the tool does not know).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { toolUrls } from '../../src/lti/provider.js';
import { servePlatform, startTestPlatform, type ServedPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const ADMIN_TOKEN = 'framing-test-admin-token-0123456789abcdef';
let tool: TestTool;
let schoolA: ServedPlatform;
let schoolB: TestPlatform;

const frameAncestors = (csp: string | string[] | null | undefined) =>
  /frame-ancestors ([^;]*)/.exec(String(csp ?? ''))?.[1]?.split(' ') ?? [];
const originOf = (platform: TestPlatform) => new URL(platform.url).origin;
const adminPage = () => fetch(`${tool.url}/admin`, { headers: { authorization: `AdminToken ${ADMIN_TOKEN}` } });

before(async () => {
  tool = await startTestTool({ ADMIN_TOKEN });
  schoolA = await servePlatform(tool.url, { clientId: 'school-a', deploymentId: 'a-1' });
  schoolB = await startTestPlatform(tool, { clientId: 'school-b', deploymentId: 'b-1' });
  for (const school of [schoolA, schoolB]) {
    school.platform.addResourceLink({ id: 'essay', title: 'Essay' });
    school.platform.addUser({
      id: 'lms-admin',
      name: 'Ada Admin',
      email: 'ada@example.edu',
      roles: [...ROLES.instructor, ...ROLES.admin],
    });
  }
});
after(async () => {
  await schoolA?.close();
  await schoolB?.close();
  await tool?.stop();
});

describe('who may frame the pages', () => {
  test('the admin page (ADMIN_TOKEN) may be framed by the tool alone, before and after an LMS registers itself', async () => {
    const before = await adminPage();
    assert.equal(before.status, 200);
    assert.deepEqual(frameAncestors(before.headers.get('content-security-policy')), ["'self'"]);
    const registered = await fetch(schoolA.platform.registrationUrl(toolUrls(tool.url).register));
    assert.equal(registered.status, 200, await registered.text());
    assert.deepEqual(
      frameAncestors(registered.headers.get('content-security-policy')),
      ["'self'", originOf(schoolA)],
      'the registration answer may be framed by the LMS registering',
    );
    const afterwards = await adminPage();
    assert.deepEqual(
      frameAncestors(afterwards.headers.get('content-security-policy')),
      ["'self'"],
      'registering a platform widened who may frame the admin page',
    );
  });

  test("a session's pages may be framed by its own platform, never by another registered one", async () => {
    const a = await launch(schoolA.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    const b = await launch(schoolB.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    assert.equal(a.status, 200, a.body.slice(0, 300));
    assert.equal(b.status, 200, b.body.slice(0, 300));
    assert.deepEqual(frameAncestors(a.headers['content-security-policy']), ["'self'", originOf(schoolA)]);
    assert.deepEqual(frameAncestors(b.headers['content-security-policy']), ["'self'", originOf(schoolB)]);
    // A later page of the same session, opened with its ltik.
    const pageUrl = new URL(a.url);
    pageUrl.searchParams.set('ltik', a.ltik!);
    const later = await fetch(pageUrl);
    assert.equal(later.status, 200, `${pageUrl} ${(await later.clone().text()).slice(0, 400)}`);
    assert.deepEqual(frameAncestors(later.headers.get('content-security-policy')), ["'self'", originOf(schoolA)]);
  });

  test("the admin page opened in a platform administrator's session may be framed by that platform only", async () => {
    const session = await launch(schoolA.platform, { userId: 'lms-admin', resourceLinkId: 'essay' });
    assert.ok(session.ltik, session.body.slice(0, 300));
    const admin = await fetch(`${tool.url}/admin?ltik=${encodeURIComponent(session.ltik)}`);
    assert.equal(admin.status, 200);
    assert.deepEqual(frameAncestors(admin.headers.get('content-security-policy')), ["'self'", originOf(schoolA)]);
  });

  test("a refused launch's sentence may be framed by anyone: it holds nothing that acts (test/lti/launch-attacks.security.test.ts)", async () => {
    const expired = await launch(schoolA.platform, {
      userId: 'instructor-1',
      resourceLinkId: 'essay',
      editForm: (fields) => ({ ...fields, state: 'not-issued-by-the-tool' }),
    });
    assert.equal(expired.status, 401);
    assert.deepEqual(frameAncestors(expired.headers['content-security-policy']), ['*']);
  });

  test('a page of one sentence with no session (not found, a key that is no key) may be framed by the registered platforms, never by another site', async () => {
    const stranger = await servePlatform(tool.url, { clientId: 'stranger', deploymentId: 's-1', host: '127.0.0.2' });
    try {
      for (const path of ['/no-such-page', '/assignments/00000000-0000-0000-0000-000000000000?ltik=forged']) {
        const answer = await fetch(`${tool.url}${path}`);
        assert.ok(answer.status >= 400, path);
        const framers = frameAncestors(answer.headers.get('content-security-policy'));
        assert.ok(framers.includes(originOf(schoolB)), `${path}: ${framers.join(' ')}`);
        assert.ok(
          !framers.includes(originOf(stranger)),
          `${path}: a site that is no registered platform may frame it: ${framers.join(' ')}`,
        );
        // The tool's own dev platform (outside production) is a registered platform on the tool's origin.
        assert.deepEqual(
          framers.filter(
            (source) => !["'self'", new URL(tool.url).origin, originOf(schoolA), originOf(schoolB)].includes(source),
          ),
          [],
          path,
        );
      }
    } finally {
      await stranger.close();
    }
  });

  test('a session that ended answers with a sentence its own platform may frame, and no other', async () => {
    const a = await launch(schoolA.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    assert.ok(a.ltik, a.body.slice(0, 300));
    // The LMS session's record expires (after a day): the key stays, the session is gone.
    await tool.tool.database.db.deleteFrom('lti_record').where('collection', '=', 'session').execute();
    const pageUrl = new URL(a.url);
    pageUrl.searchParams.set('ltik', a.ltik);
    const ended = await fetch(pageUrl);
    assert.equal(ended.status, 401);
    assert.match(await ended.text(), /session/i);
    assert.deepEqual(frameAncestors(ended.headers.get('content-security-policy')), ["'self'", originOf(schoolA)]);
  });
});
