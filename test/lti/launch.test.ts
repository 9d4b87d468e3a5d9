// Whole LTI launches through the dev platform over HTTP, on PostgreSQL and on PGlite: ltijs with the tool's
// storage plugin, role routing, sessions by ltik alone, and every kind of bad launch refused with a page and
// nothing stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT, generateKeyPair } from 'jose';
import { request } from 'undici';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { launchClaims, payloadOf } from '../support/id-token.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
let lms: TestPlatform;

before(async () => {
  // 50 launches at once below test the storage's atomicity, not admission: room for all of them.
  tool = await startTestTool({ CONCURRENT_LAUNCHES: '100' });
  lms = await startTestPlatform(tool);
  lms.platform.addResourceLink({ id: 'essay-1', title: 'Essay 1', lineItem: { label: 'Essay 1', scoreMaximum: 100 } });
  lms.platform.addUser({
    id: 'mentor-1',
    name: 'Pat Parent',
    email: 'pat@example.edu',
    roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor'],
  });
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;
async function count(
  table: 'lti_user' | 'course_member' | 'assignment',
  where?: { subject?: string },
): Promise<number> {
  let query = db()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'));
  if (where?.subject && table === 'lti_user') query = query.where('subject' as never, '=', where.subject as never);
  return Number((await query.executeTakeFirstOrThrow()).n);
}
/** The page sessions kept (lti/launch-session.ts), of one user or of all. */
async function sessionRows(subject?: string): Promise<number> {
  const { rows } = await tool.tool.database.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM lti_record WHERE collection = 'session' ${subject ? "AND doc->'launch'->>'subject' = $1" : ''}`,
    subject ? [subject] : [],
  );
  return Number(rows[0]!.n);
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('launches that work', () => {
  test('an instructor lands on the instructor side: a new assignment for the link, its dashboard', async () => {
    const result = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay-1' });
    assert.equal(result.status, 200, text(result.body));
    assert.match(result.url, /\/assignments\/[0-9a-f-]{36}\/dashboard\?ltik=/);
    assert.match(text(result.body), /Similarity in the class/);
    assert.equal(await count('assignment'), 1);
  });

  test('a student lands on the student side of the same assignment, with the upload form', async () => {
    const result = await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay-1' });
    assert.equal(result.status, 200, text(result.body));
    assert.match(text(result.body), /Signed in as Sam Student · Academic Writing 101/);
    assert.match(result.body, /<form id="submit-form"/);
    assert.equal(await count('assignment'), 1, 'a student launch must not create an assignment');
  });

  test('anyone else gets a clear "not available for your role" page', async () => {
    const result = await launch(lms.platform, { userId: 'mentor-1', resourceLinkId: 'essay-1' });
    assert.equal(result.status, 403);
    assert.match(text(result.body), /Not available for your role/);
  });

  test('the launch works with third-party cookies blocked: no cookie is needed after the login', async () => {
    const result = await launch(lms.platform, { userId: 'student-2', resourceLinkId: 'essay-1', dropCookies: true });
    assert.equal(result.status, 200, text(result.body));
    assert.ok(result.ltik);
    // The page's own requests carry the ltik and nothing else.
    const status = await fetch(
      `${tool.url}${new URL(result.url).pathname}/my-submissions?ltik=${encodeURIComponent(result.ltik)}`,
    );
    assert.equal(status.status, 200);
    assert.deepEqual(((await status.json()) as { submissions: unknown[] }).submissions, []);
  });

  test('the ltik is reused for later requests, by query or by Authorization header', async () => {
    const result = await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay-1' });
    const path = `${new URL(result.url).pathname}/my-submissions`;
    const byHeader = await fetch(`${tool.url}${path}`, { headers: { authorization: `Bearer ${result.ltik}` } });
    assert.equal(byHeader.status, 200);
    const without = await fetch(`${tool.url}${path}`);
    assert.equal(without.status, 401);
  });

  test('50 concurrent launches of one user: all succeed, one user, one session row, one membership', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => launch(lms.platform, { userId: 'student-3', resourceLinkId: 'essay-1' })),
    );
    assert.deepEqual([...new Set(results.map((r) => r.status))], [200]);
    assert.equal(await sessionRows('student-3'), 1);
    assert.equal(await count('lti_user', { subject: 'student-3' }), 1);
    const members = await db()
      .selectFrom('course_member')
      .innerJoin('lti_user', 'lti_user.id', 'course_member.user_id')
      .select('lti_user.subject')
      .where('lti_user.subject', '=', 'student-3')
      .execute();
    assert.equal(members.length, 1);
  });

  test('a session ends when its stored launch expires (24 h): the page then asks to open the assignment again', async () => {
    const result = await launch(lms.platform, { userId: 'student-2', resourceLinkId: 'essay-1' });
    await tool.tool.database.pool.query(
      "UPDATE lti_record SET expires_at = now() - interval '1 second' WHERE collection = 'session' AND doc->'launch'->>'subject' = 'student-2'",
    );
    const after = await fetch(`${tool.url}${new URL(result.url).pathname}?ltik=${encodeURIComponent(result.ltik!)}`);
    assert.equal(after.status, 401);
    assert.match(text(await after.text()), /Your session with the tool has ended/);
  });
});

describe('bad launches are refused with a page, and nothing is stored', () => {
  const claims = (overrides: Record<string, unknown>) => launchClaims(lms.platform, overrides);

  async function refused(
    replaceIdToken: (original: string) => Promise<string> | string,
    status: number,
    sentence: RegExp,
  ) {
    const usersBefore = await count('lti_user');
    const sessionsBefore = await sessionRows();
    const result = await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay-1', replaceIdToken });
    assert.equal(result.status, status, text(result.body));
    assert.match(text(result.body), sentence);
    assert.equal(result.ltik, null);
    assert.equal(await count('lti_user'), usersBefore, 'a user was stored');
    assert.equal(await sessionRows(), sessionsBefore, 'a session was stored');
  }

  test('a forged signature (signed with another key)', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    await refused(
      async () =>
        new SignJWT(claims({}))
          .setProtectedHeader({ alg: 'RS256', kid: 'dev-forged' })
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey),
      401,
      /could not be verified/,
    );
  });

  test('a token for another audience (client id)', async () => {
    await refused(() => lms.platform.sign(claims({ aud: 'someone-else' })), 403, /not registered with the tool/);
  });

  test('an expired token', async () => {
    await refused(
      () => lms.platform.sign(claims({ iat: Math.floor(Date.now() / 1000) - 600 }), { expiresInSeconds: -60 }),
      401,
      /could not be verified/,
    );
  });

  test('an unknown deployment', async () => {
    await refused(
      () =>
        lms.platform.sign(claims({ 'https://purl.imsglobal.org/spec/lti/claim/deployment_id': 'deployment-unknown' })),
      403,
      /not registered with the tool/,
    );
  });

  test('missing claims (no roles, no version)', async () => {
    const partial = claims({});
    delete (partial as Record<string, unknown>)['https://purl.imsglobal.org/spec/lti/claim/roles'];
    delete (partial as Record<string, unknown>)['https://purl.imsglobal.org/spec/lti/claim/version'];
    await refused(() => lms.platform.sign(partial), 401, /could not be verified/);
  });

  test('a resource-link launch without its resource link, or a deep-linking launch without its settings', async () => {
    const withoutLink = claims({});
    delete (withoutLink as Record<string, unknown>)['https://purl.imsglobal.org/spec/lti/claim/resource_link'];
    await refused(() => lms.platform.sign(withoutLink), 400, /without information the tool needs/);
    const deepLinking = claims({ 'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiDeepLinkingRequest' });
    await refused(() => lms.platform.sign(deepLinking), 400, /without information the tool needs/);
  });

  test('a message type the tool does not take', async () => {
    await refused(
      () =>
        lms.platform.sign(claims({ 'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiStartProctoring' })),
      401,
      /does not offer/,
    );
  });

  test('an oversized token', async () => {
    await refused(
      () => lms.platform.sign(claims({ padding: 'x'.repeat(70_000) })),
      413,
      /larger than this address takes/,
    );
  });

  test('a replayed id_token (its nonce was used) is refused, though its state is fresh', async () => {
    const first = await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay-1' });
    assert.equal(first.status, 200);
    await refused(() => first.idToken, 401, /could not be verified/);
  });

  test('a missing or unknown state', async () => {
    const usersBefore = await count('lti_user');
    const missing = await launch(lms.platform, {
      userId: 'student-1',
      resourceLinkId: 'essay-1',
      editForm: ({ state: _state, ...rest }) => rest,
    });
    assert.equal(missing.status, 400);
    const unknown = await launch(lms.platform, {
      userId: 'student-1',
      resourceLinkId: 'essay-1',
      editForm: (fields) => ({ ...fields, state: 'not-issued-by-the-tool' }),
    });
    assert.equal(unknown.status, 401);
    assert.match(text(unknown.body), /expired or was already used/);
    assert.equal(await count('lti_user'), usersBefore);
  });

  test('an unknown issuer is refused at login', async () => {
    const stranger = await startTestPlatform(tool, { clientId: 'stranger', register: false });
    try {
      stranger.platform.addResourceLink({ id: 'x', title: 'X' });
      const result = await launch(stranger.platform, { userId: 'student-1', resourceLinkId: 'x' });
      assert.equal(result.status, 400);
      assert.match(text(result.body), /not registered with the tool/);
    } finally {
      await stranger.close();
    }
  });
});

describe('who may frame the pages', () => {
  const frameAncestors = (headers: Record<string, string | string[] | undefined>) =>
    /frame-ancestors ([^;]*)/.exec(String(headers['content-security-policy']))?.[1]?.split(' ') ?? [];

  test("the registered platform may; a host its launch returns to (Canvas Cloud: the school's own) may from that launch on", async () => {
    const school = 'https://school.example-lms.edu';
    const plain = await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay-1' });
    assert.ok(frameAncestors(plain.headers).includes(new URL(lms.url).origin));
    assert.ok(!frameAncestors(plain.headers).includes(school));

    const fromSchool = await launch(lms.platform, {
      userId: 'student-1',
      resourceLinkId: 'essay-1',
      replaceIdToken: async (idToken) => {
        const payload = payloadOf(idToken);
        payload['https://purl.imsglobal.org/spec/lti/claim/launch_presentation'] = {
          document_target: 'iframe',
          return_url: `${school}/courses/7/external_content/success`,
        };
        return lms.platform.sign(payload);
      },
    });
    assert.equal(fromSchool.status, 200);
    assert.ok(
      frameAncestors(fromSchool.headers).includes(school),
      'the first page after the launch may be framed by the school',
    );
    const later = await launch(lms.platform, { userId: 'student-2', resourceLinkId: 'essay-1' });
    assert.ok(frameAncestors(later.headers).includes(school), 'and so may every later page');
    assert.ok(!frameAncestors(later.headers).includes('https://elsewhere.example.com'));
  });

  test("a session's pages may be framed by the host its launch came from, though that host was not learnt for the platform", async () => {
    const school = 'https://second-school.example-lms.edu';
    const fromSchool = await launch(lms.platform, {
      userId: 'instructor-1',
      resourceLinkId: 'essay-1',
      replaceIdToken: async (idToken) => {
        const payload = payloadOf(idToken);
        payload['https://purl.imsglobal.org/spec/lti/claim/launch_presentation'] = {
          document_target: 'iframe',
          return_url: `${school}/return`,
        };
        return lms.platform.sign(payload);
      },
    });
    assert.equal(fromSchool.status, 200);
    // As if the launch had not been learnt (its record lost): the session's own launch still names the host.
    await tool.tool.database.db.deleteFrom('platform_frame_origin').where('origin', '=', school).execute();
    const pageUrl = new URL(fromSchool.url);
    pageUrl.searchParams.set('ltik', fromSchool.ltik!);
    const page = await fetch(pageUrl);
    assert.equal(page.status, 200);
    assert.ok(
      frameAncestors(Object.fromEntries(page.headers)).includes(school),
      'the page of that session may be framed by its LMS host',
    );
    const otherSession = await launch(lms.platform, { userId: 'student-2', resourceLinkId: 'essay-1' });
    assert.ok(!frameAncestors(otherSession.headers).includes(school), 'another session is not');
  });

  test('a return URL with a wildcard or policy syntax in its host, or of the wrong type, widens nothing and fails no launch; a platform teaches at most 20 hosts', async () => {
    const withReturnUrl = (returnUrl: unknown) =>
      launch(lms.platform, {
        userId: 'student-1',
        resourceLinkId: 'essay-1',
        replaceIdToken: async (idToken) => {
          const payload = payloadOf(idToken);
          payload['https://purl.imsglobal.org/spec/lti/claim/launch_presentation'] = {
            document_target: 'iframe',
            return_url: returnUrl,
          };
          return lms.platform.sign(payload);
        },
      });
    const longLabel = `https://${'a'.repeat(64)}.example-lms.edu/x`;
    for (const returnUrl of [
      'https://*/x',
      'https://*.example.com/x',
      'https://a,b.example.com/x',
      'https://evil.example;script-src/x',
      'https://$&.example.com/x',
      42,
      `https://school.example-lms.edu/${'x'.repeat(5000)}`,
      longLabel,
    ]) {
      const result = await withReturnUrl(returnUrl);
      assert.equal(result.status, 200, `${String(returnUrl).slice(0, 60)}: ${result.body.slice(0, 200)}`);
      for (const source of frameAncestors(result.headers)) {
        assert.match(
          source,
          /^'self'$|^https?:\/\/[a-z0-9.-]+(:\d+)?$|^https:\/\/\*\.instructure\.com$/,
          `${String(returnUrl).slice(0, 60)} put ${source} in frame-ancestors`,
        );
        assert.ok(!source.includes('a'.repeat(64)), 'a host label longer than 63 characters went into frame-ancestors');
      }
    }
    for (let i = 0; i < 25; i += 1)
      assert.equal((await withReturnUrl(`https://host-${i}.example-lms.edu/return`)).status, 200);
    const stored = await tool.tool.database.db.selectFrom('platform_frame_origin').select('origin').execute();
    assert.equal(stored.length, 20, 'hosts kept for the platform');
    const later = await launch(lms.platform, { userId: 'student-2', resourceLinkId: 'essay-1' });
    assert.ok(
      !frameAncestors(later.headers).includes('https://host-24.example-lms.edu'),
      'a host past the bound may not frame the tool',
    );
  });
});

describe('the JWKS', () => {
  test('/lti/keys lists the RSA public key the tool signs with for each registered platform', async () => {
    const keys = (await (await fetch(`${tool.url}/lti/keys`)).json()) as { keys: Array<Record<string, string>> };
    assert.ok(keys.keys.length >= 1);
    assert.equal(keys.keys[0]!.kty, 'RSA');
    assert.equal(keys.keys[0]!.alg, 'RS256');
    assert.ok(!('d' in keys.keys[0]!), 'the private part must never be published');
  });
});

describe('a registration changed while this process trusts what it read of it', () => {
  // The process keeps the registrations it read for a second after its last launch read their version; a launch
  // within that second is checked against the change all the same, because its write holds to the version.
  test('switched off by hand in the database just after a launch: the next launch is refused and writes nothing', async () => {
    const issuer = lms.platform.registration().issuer;
    lms.platform.addUser({ id: 'late-student', name: 'Lee Late', email: 'lee@example.edu', roles: ROLES.learner });
    const first = await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay-1' });
    assert.equal(first.status, 200, text(first.body));
    await db().updateTable('platform').set({ active: false }).where('issuer', '=', issuer).execute();
    try {
      const usersBefore = await count('lti_user');
      const refused = await launch(lms.platform, { userId: 'late-student', resourceLinkId: 'essay-1' });
      assert.equal(refused.status, 403, text(refused.body));
      assert.match(text(refused.body), /The tool is switched off for this LMS/);
      assert.equal(await count('lti_user'), usersBefore, 'the refused launch recorded nobody');
    } finally {
      await db().updateTable('platform').set({ active: true }).where('issuer', '=', issuer).execute();
    }
    const again = await launch(lms.platform, { userId: 'late-student', resourceLinkId: 'essay-1' });
    assert.equal(again.status, 200, text(again.body));
  });
});

// Moodle's type is what the pages around the tool use; a Moodle registered by hand (the CLI, no product named) is
// known as Moodle by its launches' tool_platform.product_family_code, which every Moodle launch carries.
describe("the LMS's look", () => {
  const lookOfPage = (body: string) => /<html[^>]*\sdata-lms="([a-z]+)"/.exec(body)?.[1] ?? null;

  test('a platform registered without its product takes the look of the product its launch names', async () => {
    const moodle = await startTestPlatform(tool, { rules: 'moodle', clientId: 'look-moodle-unnamed' });
    try {
      moodle.platform.addResourceLink({ id: 'look-essay', title: 'Essay' });
      const opened = await launch(moodle.platform, { userId: 'student-1', resourceLinkId: 'look-essay' });
      assert.equal(opened.status, 200, text(opened.body));
      assert.equal(
        payloadOf(opened.idToken)['https://purl.imsglobal.org/spec/lti/claim/tool_platform'] !== undefined,
        true,
      );
      assert.equal(lookOfPage(opened.body), 'moodle');
    } finally {
      await moodle.close();
    }
  });

  test("the registration's product wins over the launch's word", async () => {
    const canvas = await startTestPlatform(tool, {
      rules: 'moodle',
      clientId: 'look-named-canvas',
      productFamily: 'canvas',
    });
    try {
      canvas.platform.addResourceLink({ id: 'look-essay', title: 'Essay' });
      const opened = await launch(canvas.platform, { userId: 'student-1', resourceLinkId: 'look-essay' });
      assert.equal(opened.status, 200, text(opened.body));
      assert.equal(lookOfPage(opened.body), 'canvas');
    } finally {
      await canvas.close();
    }
  });

  test('a launch naming no product known to the tool keeps the tool its own look', async () => {
    const plain = await startTestPlatform(tool, { clientId: 'look-spec' });
    try {
      plain.platform.addResourceLink({ id: 'look-essay', title: 'Essay' });
      const opened = await launch(plain.platform, { userId: 'student-1', resourceLinkId: 'look-essay' });
      assert.equal(opened.status, 200, text(opened.body));
      assert.equal(lookOfPage(opened.body), null);
    } finally {
      await plain.close();
    }
  });
});

// The launch as an LMS's browser makes it: the login (302 to the LMS), the LMS's form post of the id_token to the
// launch address, then at most one redirect to the page the person reads. Each hop is a round trip on a student's
// own network; the instructor's landing used to take two (/assignments/<id>, then its dashboard).
describe('the requests of one launch', () => {
  async function hops(userId: string): Promise<Array<{ method: string; path: string; status: number }>> {
    const seen: Array<{ method: string; path: string; status: number }> = [];
    let cookie = '';
    const send = async (url: string, form?: Record<string, string>) => {
      const answer = await request(url, {
        method: form ? 'POST' : 'GET',
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
      const set = answer.headers['set-cookie'];
      for (const line of Array.isArray(set) ? set : set ? [set] : [])
        cookie = [cookie, line.split(';')[0]].filter(Boolean).join('; ');
      const body = await answer.body.text();
      const location = answer.headers.location ? new URL(String(answer.headers.location), url).toString() : null;
      return { status: answer.statusCode, body, location, url };
    };
    const onTool = (url: string, method: string, status: number) => {
      if (url.startsWith(tool.url)) seen.push({ method, path: new URL(url).pathname, status });
    };
    let current = await send(lms.platform.loginInitiationUrl({ userId, resourceLinkId: 'essay-1' }));
    onTool(current.url, 'GET', current.status);
    // Through the LMS's authorization endpoint to its auto-posting form.
    while (current.location) {
      current = await send(current.location);
      onTool(current.url, 'GET', current.status);
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(current.body)?.[1];
    const fields = Object.fromEntries(
      [...current.body.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    assert.ok(action, 'the LMS posts the launch');
    current = await send(action.replace(/&amp;/g, '&'), fields);
    onTool(current.url, 'POST', current.status);
    while (current.location) {
      current = await send(current.location);
      onTool(current.url, 'GET', current.status);
    }
    assert.equal(current.status, 200, text(current.body));
    return seen;
  }

  for (const [userId, lands, page] of [
    ['instructor-1', 'straight to the dashboard', /^\/assignments\/[0-9a-f-]{36}\/dashboard$/],
    ['student-1', 'to their page', /^\/assignments\/[0-9a-f-]{36}$/],
  ] as const) {
    test(`${userId}'s launch: one redirect after the launch's POST, ${lands}`, async () => {
      const requests = await hops(userId);
      const afterPost = requests.slice(requests.findIndex((r) => r.method === 'POST'));
      assert.deepEqual(
        afterPost.map((r) => `${r.method} ${r.status}`),
        ['POST 303', 'GET 200'],
        JSON.stringify(requests),
      );
      assert.match(afterPost[1]!.path, page);
    });
  }
});
