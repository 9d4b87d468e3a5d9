// One installation, two schools' LMSs. Each LMS's administrator reaches /admin through a launch and answers for
// their own platform only: they see its registration and its service account, not the other school's, and
// cannot switch off, re-route or overwrite anything of the other's. ADMIN_TOKEN answers for the installation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const ADMIN_TOKEN = 'admin-scope-admin-token-0123456789abcdef';
let tool: TestTool;
let home: TestPlatform;
let other: TestPlatform;
const ltik: Record<'home' | 'other', string> = { home: '', other: '' };
const platformId: Record<'home' | 'other', string> = { home: '', other: '' };
const db = () => tool.tool.database.db;

type As = 'home' | 'other' | 'token';
async function admin(as: As, path: string, form?: Record<string, string>): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = as === 'token' ? { authorization: `AdminToken ${ADMIN_TOKEN}` } : {};
  const url = new URL(path, tool.url);
  let body: URLSearchParams | undefined;
  if (form) {
    body = new URLSearchParams(form);
    if (as !== 'token') body.set('ltik', ltik[as]);
  } else if (as !== 'token') url.searchParams.set('ltik', ltik[as]);
  const response = await fetch(url, { method: form ? 'POST' : 'GET', headers, ...(body ? { body } : {}) });
  return { status: response.status, body: await response.text() };
}

const platformRow = (which: 'home' | 'other') =>
  db()
    .selectFrom('platform')
    .select(['active', 'checker_account_id'])
    .where('id', '=', platformId[which])
    .executeTakeFirstOrThrow();
const account = {
  name: 'Home school',
  baseUrl: 'https://checker.example.edu',
  username: 'home@example.edu',
  password: 'home-password-1',
};

before(async () => {
  tool = await startTestTool({ ADMIN_TOKEN });
  home = await startTestPlatform(tool, { clientId: 'home-client' });
  other = await startTestPlatform(tool, { clientId: 'other-client' });
  for (const [which, lms] of [
    ['home', home],
    ['other', other],
  ] as const) {
    lms.platform.addResourceLink({ id: 'essay-1', title: 'Essay 1' });
    const result = await launch(lms.platform, { userId: 'admin-1', resourceLinkId: 'essay-1' });
    assert.equal(result.status, 200, result.body);
    ltik[which] = result.ltik!;
    platformId[which] = (
      await db()
        .selectFrom('platform')
        .select('id')
        .where('client_id', '=', `${which}-client`)
        .executeTakeFirstOrThrow()
    ).id;
  }
});
after(async () => {
  await other?.close();
  await home?.close();
  await tool?.stop();
});

describe("a platform's administrator answers for their own platform", () => {
  test("the page shows their registration only, without the installation's callback secret or the form to add a registration", async () => {
    const page = await admin('home', '/admin');
    assert.equal(page.status, 200, page.body);
    assert.match(page.body, /home-client/);
    assert.doesNotMatch(page.body, /other-client/);
    assert.doesNotMatch(page.body, /checker\/callback\//);
    assert.doesNotMatch(page.body, /Add or update a registration/);
    const installation = await admin('token', '/admin');
    assert.match(installation.body, /home-client/);
    assert.match(installation.body, /other-client/);
    assert.match(installation.body, /checker\/callback\//);
  });

  test("the other school's registration cannot be switched off, resynced or given an account", async () => {
    for (const action of ['deactivate', 'resync-grades', 'account']) {
      const answer = await admin(
        'home',
        `/admin/registrations/${platformId.other}/${action}`,
        action === 'account' ? { accountId: 'default' } : {},
      );
      assert.equal(answer.status, 404, `${action}: ${answer.body.slice(0, 200)}`);
    }
    assert.equal((await platformRow('other')).active, true);
    const own = await admin('home', `/admin/registrations/${platformId.home}/resync-grades`, {});
    assert.equal(own.status, 200, own.body.slice(0, 200));
  });

  test('adding a registration takes the installation administrator', async () => {
    const registration = {
      name: 'Rogue',
      issuer: 'https://rogue.example.edu',
      clientId: 'rogue',
      deploymentId: '1',
      authUrl: 'https://rogue.example.edu/auth',
      tokenUrl: 'https://rogue.example.edu/token',
      jwksUrl: 'https://rogue.example.edu/jwks',
    };
    const refused = await admin('home', '/admin/registrations', registration);
    assert.equal(refused.status, 403);
    assert.match(refused.body, /Only the installation&#39;s administrator|Only the installation's administrator/);
    assert.equal((await db().selectFrom('platform').select('id').where('client_id', '=', 'rogue').execute()).length, 0);
  });

  test("a school's administrator adds accounts only at the service address the installation uses", async () => {
    const count = async () => (await db().selectFrom('checker_account').select('id').execute()).length;
    const before = await count();
    for (const baseUrl of ['http://169.254.169.254', 'http://127.0.0.1:9200', account.baseUrl]) {
      const refused = await admin('home', '/admin/accounts', { ...account, baseUrl });
      assert.equal(refused.status, 403, `${baseUrl}: ${refused.body.slice(0, 200)}`);
      assert.match(refused.body, /must be at the checking service this installation uses/);
    }
    assert.equal(await count(), before);
    // The installation's administrator sets up the address (here with an account of the installation's own).
    const installation = await admin('token', '/admin/accounts', {
      ...account,
      name: 'Installation',
      username: 'installation@example.edu',
    });
    assert.equal(installation.status, 200, installation.body.slice(0, 300));
    assert.match((await admin('home', '/admin')).body, new RegExp(`<option>${account.baseUrl}</option>`));
  });

  test('an account one school adds is its own: the other school neither sees it nor can overwrite its password', async () => {
    const saved = await admin('home', '/admin/accounts', account);
    assert.equal(saved.status, 200, saved.body.slice(0, 300));
    const home = await platformRow('home');
    assert.ok(home.checker_account_id, "the account is the home platform's now");
    const stored = await db()
      .selectFrom('checker_account')
      .select(['id', 'password_encrypted'])
      .where('id', '=', home.checker_account_id)
      .executeTakeFirstOrThrow();

    const otherPage = await admin('other', '/admin');
    assert.doesNotMatch(otherPage.body, /home@example\.edu|Home school/);
    const overwrite = await admin('other', '/admin/accounts', {
      ...account,
      name: 'Taken over',
      password: 'other-password-2',
    });
    assert.equal(overwrite.status, 403);
    const after = await db()
      .selectFrom('checker_account')
      .select(['name', 'password_encrypted'])
      .where('id', '=', stored.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(after, { name: account.name, password_encrypted: stored.password_encrypted });
    assert.equal((await platformRow('other')).checker_account_id, null);

    for (const action of ['test', 'remove']) {
      const answer = await admin('other', `/admin/accounts/${stored.id}/${action}`, {});
      assert.equal(answer.status, 404, `${action}: ${answer.body.slice(0, 200)}`);
    }
    const choose = await admin('other', `/admin/registrations/${platformId.other}/account`, { accountId: stored.id });
    assert.equal(choose.status, 404);
    assert.equal((await platformRow('other')).checker_account_id, null);
    // The installation's administrator may give it to the other school too.
    const given = await admin('token', `/admin/registrations/${platformId.other}/account`, { accountId: stored.id });
    assert.equal(given.status, 200, given.body.slice(0, 200));
    assert.equal((await platformRow('other')).checker_account_id, stored.id);
    // Shared now: neither school's administrator may change its password, which both schools' papers depend on.
    for (const which of ['home', 'other'] as const) {
      const change = await admin(which, '/admin/accounts', { ...account, password: `changed-by-${which}` });
      assert.equal(change.status, 403, `${which}: ${change.body.slice(0, 200)}`);
      assert.match(change.body, /an account other platforms use too/);
    }
    assert.deepEqual(
      await db()
        .selectFrom('checker_account')
        .select(['name', 'password_encrypted'])
        .where('id', '=', stored.id)
        .executeTakeFirstOrThrow(),
      { name: account.name, password_encrypted: stored.password_encrypted },
    );
  });
});
