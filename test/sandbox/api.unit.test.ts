// The sandbox's login and folder endpoints over real HTTP, both families: the fields, statuses and error bodies
// of reference/checker-api.md as a client of the service sees them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, createFolder, login, sleep, type Family } from '../fixtures/sandbox/client.js';

let sandbox: Sandbox;
let alice: string;
let bob: string;

const ERROR_FIELDS = ['debugMessage', 'description', 'message', 'path', 'status', 'subErrors', 'timestamp'];

function assertErrorBody(
  answer: { status: number; body: Record<string, unknown> | null },
  status: number,
  path: string,
): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.ok(answer.body);
  assert.deepEqual(Object.keys(answer.body).sort(), ERROR_FIELDS);
  assert.equal(answer.body.status, status);
  assert.equal(answer.body.path, path);
  assert.equal(typeof answer.body.message, 'string');
  assert.match(String(answer.body.timestamp), /^\d\d-\d\d-\d{4} \d\d:\d\d:\d\d$/);
}

// Tokens live an hour here, so that no test's token runs out on a slow machine; the expiry test has its own
// sandbox with a two-second lifetime.
const USERS = [
  { email: 'alice@example.edu', password: 'pw-alice', name: 'Alice Teacher' },
  { email: 'bob@example.edu', password: 'pw-bob' },
];
const TOKEN_TTL_SECONDS = 3600;

before(async () => {
  sandbox = await startSandbox({ delayMs: 100, tokenTtlSeconds: TOKEN_TTL_SECONDS, users: USERS });
  alice = await login(sandbox.url, 'alice@example.edu', 'pw-alice');
  bob = await login(sandbox.url, 'bob@example.edu', 'pw-bob');
});
after(() => sandbox.close());

describe('login (spec 2.1, 4.1, 5)', () => {
  test('the login result has the fields of 2.1 and an HS512 token that expires after the configured lifetime', async () => {
    const answer = await call(sandbox.url, 'POST', '/authentication/authenticate', {
      json: { username: 'alice@example.edu', password: 'pw-alice' },
    });
    assert.equal(answer.status, 200);
    const body = answer.body;
    assert.deepEqual(Object.keys(body).sort(), [
      'ai_flag',
      'con_type',
      'id',
      'in_flag',
      'mfa',
      'name',
      'role',
      'token',
      'username',
    ]);
    assert.equal(body.username, 'alice@example.edu');
    assert.equal(body.name, 'Alice Teacher');
    assert.equal(body.con_type, null);
    assert.equal(body.mfa, false);
    assert.equal(typeof body.id, 'number');
    const [header, payload] = String(body.token)
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, number | string>);
    assert.equal(header!.alg, 'HS512');
    const lifetime = Number(payload!.exp) - Math.floor(Date.now() / 1000);
    assert.ok(lifetime >= TOKEN_TTL_SECONDS - 5 && lifetime <= TOKEN_TTL_SECONDS, `exp ${lifetime} s from now`);
  });

  test('a wrong password is 401 with the error body, and the password is not echoed', async () => {
    const answer = await call(sandbox.url, 'POST', '/authentication/authenticate', {
      json: { username: 'alice@example.edu', password: 'guess-123' },
    });
    assertErrorBody(answer, 401, '/authentication/authenticate');
    assert.doesNotMatch(JSON.stringify(answer.body), /guess-123/);
    const unknown = await call(sandbox.url, 'POST', '/authentication/authenticate', {
      json: { username: 'nobody@example.edu', password: 'pw' },
    });
    assert.equal(unknown.status, 401);
  });

  test('a missing field is 400, malformed JSON is 400, a field of the wrong type is 422', async () => {
    assertErrorBody(
      await call(sandbox.url, 'POST', '/authentication/authenticate', { json: { username: 'alice@example.edu' } }),
      400,
      '/authentication/authenticate',
    );
    const malformed = await call(sandbox.url, 'POST', '/authentication/authenticate', { raw: '{"username": "alice@' });
    assertErrorBody(malformed, 400, '/authentication/authenticate');
    assert.match(String(malformed.body.message), /JSON/);
    assert.equal(
      (
        await call(sandbox.url, 'POST', '/authentication/authenticate', {
          json: { username: 'alice@example.edu', password: 42 },
        })
      ).status,
      422,
    );
  });

  test('no token, a forged token and an expired token are 401', async () => {
    assertErrorBody(await call(sandbox.url, 'GET', '/extreme/myFolders'), 401, '/extreme/myFolders');
    const [head, payload] = alice.split('.');
    const forged = `${head}.${payload}.${Buffer.from('not the signature').toString('base64url')}`;
    assert.equal((await call(sandbox.url, 'GET', '/pro/folders', { token: forged })).status, 401);
    const brief = await startSandbox({ delayMs: 100, tokenTtlSeconds: 2, users: USERS });
    try {
      const shortLived = await login(brief.url, 'bob@example.edu', 'pw-bob');
      assert.equal((await call(brief.url, 'GET', '/pro/folders', { token: shortLived })).status, 200);
      await sleep(2100);
      const expired = await call(brief.url, 'GET', '/pro/folders', { token: shortLived });
      assertErrorBody(expired, 401, '/pro/folders');
      assert.match(String(expired.body.message), /expired/);
    } finally {
      await brief.close();
    }
  });
});

describe('classroom folders (spec 2.2, 4.2)', () => {
  let folderId: number;

  test('create answers 200 with _links.self.href ending in the new folder id; the list shows it with every field of 2.2', async () => {
    const created = await call<{ status: number; timeStamp: string; _links: { self: { href: string } } }>(
      sandbox.url,
      'POST',
      '/extreme/folder',
      {
        token: alice,
        json: {
          assignment_name: 'Essays 101',
          exclude_reference: 'YES',
          exclude_quotes: 'NO',
          exclude_small_sources: 'NO',
          grammar_check: 'YES',
          exclude_phrases: 'YES',
          phrases: { p1: 'lorem ipsum', p2: 'dolor sit' },
          db_studentpaper: 'YES',
          db_publications: 'NO',
          db_internet: 'YES',
          institution_repository: 'YES',
        },
      },
    );
    assert.equal(created.status, 200);
    assert.equal(created.body.status, 200);
    assert.match(created.body.timeStamp, /^\d\d-\d\d-\d{4} \d\d:\d\d:\d\d$/);
    folderId = Number(created.body._links.self.href.split('/').pop());
    assert.ok(Number.isInteger(folderId) && folderId > 0);

    const list = await call<{
      grammar_subscription: string;
      folders: { links: unknown[]; content: Array<Record<string, unknown>>; page: Record<string, number> };
    }>(sandbox.url, 'GET', '/extreme/myFolders', { token: alice });
    assert.equal(list.status, 200);
    assert.equal(list.body.grammar_subscription, 'YES');
    assert.ok(Array.isArray(list.body.folders.links));
    assert.deepEqual(list.body.folders.page, { size: 24, totalElements: 1, totalPages: 1, number: 0 });
    const folder = list.body.folders.content[0]!;
    assert.deepEqual(
      Object.keys(folder).sort(),
      [
        'creation_date',
        'db_internet',
        'db_publications',
        'db_studentpaper',
        'end_date',
        'excludeIncludeSources',
        'excludePhrases',
        'excludeQuotes',
        'excludeReferences',
        'excludeSmallSources',
        'exclude_threshold',
        'folder_id',
        'folder_name',
        'grammarCheck',
        'institution_repository',
        'no_of_submissions',
        'phrases',
        'repository_scope',
      ].sort(),
    );
    assert.equal(folder.folder_id, folderId);
    assert.equal(folder.folder_name, 'Essays 101');
    assert.equal(folder.excludeReferences, 'YES');
    assert.equal(folder.db_publications, 'NO');
    assert.equal(folder.no_of_submissions, 0);
    assert.equal((folder.phrases as Record<string, unknown>).p2, 'dolor sit');
    assert.match(String(folder.creation_date), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  test('update answers 200 with _links and applies every field', async () => {
    const updated = await call<{ _links: { self: { href: string } } }>(
      sandbox.url,
      'PUT',
      `/extreme/folder/${folderId}`,
      {
        token: alice,
        json: { assignment_name: 'Essays 102', exclude_reference: 'NO', grammar_check: 'NO', exclude_threshold: 8 },
      },
    );
    assert.equal(updated.status, 200);
    assert.ok(updated.body._links.self.href.endsWith(`/${folderId}`));
    const list = await call<{ folders: { content: Array<Record<string, unknown>> } }>(
      sandbox.url,
      'GET',
      '/extreme/myFolders',
      { token: alice },
    );
    const folder = list.body.folders.content.find((f) => f.folder_id === folderId)!;
    assert.equal(folder.folder_name, 'Essays 102');
    assert.equal(folder.excludeReferences, 'NO');
    assert.equal(folder.grammarCheck, 'NO');
    assert.equal(folder.exclude_threshold, 8);
  });

  test('a duplicate name in the same account is 409; the same name in another account is fine', async () => {
    assertErrorBody(
      await call(sandbox.url, 'POST', '/extreme/folder', { token: alice, json: { assignment_name: 'Essays 102' } }),
      409,
      '/extreme/folder',
    );
    assert.equal(
      (await call(sandbox.url, 'POST', '/extreme/folder', { token: bob, json: { assignment_name: 'Essays 102' } }))
        .status,
      200,
    );
  });

  test('a missing name is 400, an invalid switch value is 422, a body that is not JSON is 400', async () => {
    assertErrorBody(
      await call(sandbox.url, 'POST', '/extreme/folder', { token: alice, json: { grammar_check: 'YES' } }),
      400,
      '/extreme/folder',
    );
    const invalid = await call(sandbox.url, 'POST', '/extreme/folder', {
      token: alice,
      json: { assignment_name: 'X', grammar_check: 'maybe' },
    });
    assertErrorBody(invalid, 422, '/extreme/folder');
    assert.match(String(invalid.body.message), /grammar_check/);
    assert.equal(
      (
        await call(sandbox.url, 'POST', '/extreme/folder', {
          token: alice,
          raw: 'assignment_name=X',
          contentType: 'application/x-www-form-urlencoded',
        })
      ).status,
      400,
    );
  });

  test("another account's folder is 403, an unknown one 404, a folder id that is not a number 400", async () => {
    assertErrorBody(
      await call(sandbox.url, 'GET', `/extreme/myFolder/${folderId}/submissions`, { token: bob }),
      403,
      `/extreme/myFolder/${folderId}/submissions`,
    );
    assert.equal(
      (
        await call(sandbox.url, 'PUT', `/extreme/folder/${folderId}`, {
          token: bob,
          json: { assignment_name: 'Mine now' },
        })
      ).status,
      403,
    );
    assert.equal((await call(sandbox.url, 'DELETE', `/extreme/folder?id=${folderId}`, { token: bob })).status, 403);
    assertErrorBody(
      await call(sandbox.url, 'GET', '/extreme/myFolder/999999/submissions', { token: alice }),
      404,
      '/extreme/myFolder/999999/submissions',
    );
    assert.equal((await call(sandbox.url, 'GET', '/extreme/myFolder/abc/submissions', { token: alice })).status, 400);
    assert.equal((await call(sandbox.url, 'DELETE', '/extreme/folder', { token: alice })).status, 400);
  });

  test('delete answers 200, and the folder is gone', async () => {
    const deleted = await call(sandbox.url, 'DELETE', `/extreme/folder?id=${folderId}`, { token: alice });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.status, 200);
    assert.equal(
      (await call(sandbox.url, 'GET', `/extreme/myFolder/${folderId}/submissions`, { token: alice })).status,
      404,
    );
  });
});

describe('folder-management folders (spec 2.3, 4.3)', () => {
  let folderId: number;

  test('create answers 201 with _links; the list has the envelope and every field of 2.3', async () => {
    const created = await call<{ status: number; _links: { self: { href: string } } }>(
      sandbox.url,
      'POST',
      '/pro/folder',
      {
        token: alice,
        json: {
          folder_name: 'Theses',
          exclude_reference: 'NO',
          exclude_quotes: 'YES',
          exclude_small_sources: 'YES',
          grammar_check: 'YES',
          exclude_phrases: 'NO',
          db_studentpaper: 'YES',
          db_publications: 'YES',
          db_internet: 'NO',
          institution_repository: 'YES',
          email_notifications: 'YES',
          exclude_threshold: 5,
        },
      },
    );
    assert.equal(created.status, 201);
    assert.equal(created.body.status, 201);
    folderId = Number(created.body._links.self.href.split('/').pop());
    const list = await call<{
      grammar_subscription: string;
      translation: string;
      in_flag: boolean;
      folders: { content: Array<Record<string, unknown>>; page: Record<string, number> };
    }>(sandbox.url, 'GET', '/pro/folders', { token: alice });
    assert.equal(list.status, 200);
    assert.equal(typeof list.body.translation, 'string');
    assert.equal(list.body.in_flag, false);
    const folder = list.body.folders.content.find((f) => f.folder_id === folderId)!;
    assert.deepEqual(
      Object.keys(folder).sort(),
      [
        'created_date',
        'db_internet',
        'db_publications',
        'db_studentpaper',
        'email_notifications',
        'end_date',
        'ex_phrases',
        'ex_quotes',
        'ex_references',
        'exclude_threshold',
        'folder_id',
        'folder_name',
        'grammar',
        'institution_repository',
        'mail_id',
        'no_of_submissions',
        'phrases',
        'small_sources',
      ].sort(),
    );
    assert.equal(folder.mail_id, 'alice@example.edu');
    assert.equal(folder.ex_quotes, 'YES');
    assert.equal(folder.db_internet, 'NO');
    assert.equal(folder.email_notifications, 'YES');
    assert.equal(folder.exclude_threshold, 5);
    assert.equal(folder.phrases, null);
  });

  test('the families keep their folders apart: a pro folder is 404 at the classroom addresses', async () => {
    assert.equal(
      (await call(sandbox.url, 'GET', `/extreme/myFolder/${folderId}/submissions`, { token: alice })).status,
      404,
    );
    const classroom = await call<{ folders: { content: Array<{ folder_id: number }> } }>(
      sandbox.url,
      'GET',
      '/extreme/myFolders',
      { token: alice },
    );
    assert.ok(!classroom.body.folders.content.some((f) => f.folder_id === folderId));
  });

  test("update answers 201 with the envelope; a rename onto another folder's name is 409", async () => {
    await createFolder(sandbox.url, alice, 'pro', 'Reports');
    const updated = await call(sandbox.url, 'PUT', `/pro/folder/${folderId}`, {
      token: alice,
      json: { folder_name: 'Theses 2026', grammar_check: 'NO' },
    });
    assert.equal(updated.status, 201);
    assert.deepEqual(Object.keys(updated.body).sort(), ['message', 'status', 'timeStamp']);
    assertErrorBody(
      await call(sandbox.url, 'PUT', `/pro/folder/${folderId}`, { token: alice, json: { folder_name: 'Reports' } }),
      409,
      `/pro/folder/${folderId}`,
    );
    assert.equal(
      (await call(sandbox.url, 'PUT', `/pro/folder/${folderId}`, { token: bob, json: { folder_name: 'Bob' } })).status,
      403,
    );
    assert.equal(
      (await call(sandbox.url, 'PUT', '/pro/folder/424242', { token: alice, json: { folder_name: 'Nope' } })).status,
      404,
    );
  });

  test('delete answers 200; a second delete is 404', async () => {
    assert.equal((await call(sandbox.url, 'DELETE', `/pro/folder/${folderId}`, { token: bob })).status, 403);
    assert.equal((await call(sandbox.url, 'DELETE', `/pro/folder/${folderId}`, { token: alice })).status, 200);
    assert.equal((await call(sandbox.url, 'DELETE', `/pro/folder/${folderId}`, { token: alice })).status, 404);
  });
});

describe('paging (spec 2.4, 8)', () => {
  for (const family of ['classroom', 'pro'] as const satisfies readonly Family[]) {
    test(`${family}: page, size, field and orderBy; defaults newest first; bad values 400`, async () => {
      const token = await login(sandbox.url, 'bob@example.edu', 'pw-bob');
      const ids: number[] = [];
      for (const name of ['Charlie', 'Alpha', 'Bravo'])
        ids.push(await createFolder(sandbox.url, token, family, `${family} ${name}`));
      const path = family === 'classroom' ? '/extreme/myFolders' : '/pro/folders';
      type List = {
        folders: {
          content: Array<{ folder_id: number; folder_name: string }>;
          page: { size: number; totalElements: number; totalPages: number; number: number };
        };
      };
      const all = await call<List>(sandbox.url, 'GET', path, { token });
      const mine = all.body.folders.content.map((f) => f.folder_id).filter((id) => ids.includes(id));
      assert.deepEqual(mine, [...ids].reverse(), 'default order: ass_id desc');
      const total = all.body.folders.page.totalElements;
      const second = await call<List>(sandbox.url, 'GET', `${path}?page=1&size=2&orderBy=asc`, { token });
      assert.deepEqual(second.body.folders.page, {
        size: 2,
        totalElements: total,
        totalPages: Math.ceil(total / 2),
        number: 1,
      });
      assert.equal(second.body.folders.content.length, Math.min(2, total - 2));
      const byName = await call<List>(sandbox.url, 'GET', `${path}?field=folder_name&orderBy=asc&size=100`, { token });
      const names = byName.body.folders.content.map((f) => f.folder_name);
      assert.deepEqual(
        names,
        [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
      );
      for (const bad of ['page=-1', 'size=0', 'size=abc', 'orderBy=sideways', 'field=password']) {
        assertErrorBody(await call(sandbox.url, 'GET', `${path}?${bad}`, { token }), 400, path);
      }
    });
  }
});

describe('anything else', () => {
  test('an unknown route is 404 with the error body, with or without a token', async () => {
    assertErrorBody(await call(sandbox.url, 'GET', '/extreme/nothing-here'), 404, '/extreme/nothing-here');
    assertErrorBody(
      await call(sandbox.url, 'POST', '/api/v2/whatever', { token: alice, json: {} }),
      404,
      '/api/v2/whatever',
    );
  });

  test('input that cannot be read is 400, never a 500: a path that does not decode, a JSON array, a JSON body too large (413)', async () => {
    assert.equal((await call(sandbox.url, 'GET', '/pro/folder/%ZZ/submissions', { token: alice })).status, 400);
    assert.equal(
      (await call(sandbox.url, 'POST', '/pro/folder', { token: alice, raw: '["folder_name"]' })).status,
      400,
    );
    assert.equal(
      (await call(sandbox.url, 'POST', '/pro/folder', { token: alice, json: { folder_name: 'x'.repeat(100_000) } }))
        .status,
      413,
    );
    assert.equal((await call(sandbox.url, 'GET', '/pro/folders', { token: alice })).status, 200, 'still serving');
  });
});
