// Attacks on the launch: replayed tokens and nonces, a state that is not this launch's, login CSRF (someone else's
// login posted from the victim's browser) where the browser keeps the state cookie or the LMS offers platform
// storage, a deployment the platform never registered, roles forged by another registered platform, and a
// platform whose keys URL hangs or is flooded with made-up key ids. Each must end on a page that says why, with no
// session.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import { SignJWT, generateKeyPair } from 'jose';
import { request } from 'undici';
import { CookieJar, launch } from '../../src/devplatform/agent.js';
import { LTIK_LIFETIME_SECONDS } from '../../src/lti/ltik.js';
import { saveRegistration } from '../../src/lti/registrations.js';
import { launchClaims, payloadOf } from '../support/id-token.js';
import { servePlatform, startTestPlatform, type ServedPlatform, type TestPlatform } from '../support/platform.js';
import { pageText } from '../support/page-text.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const text = pageText;
const NOT_VERIFIED = /The launch from your LMS could not be verified/;
const ANOTHER_BROWSER = /This launch was not started in this browser, so the tool did not sign you in/;

let tool: TestTool;
let lmsA: TestPlatform;
let lmsB: TestPlatform;
const servers: Array<{ close(): unknown }> = [];

before(async () => {
  tool = await startTestTool();
  lmsA = await startTestPlatform(tool, { clientId: 'client-a' });
  lmsB = await startTestPlatform(tool, { clientId: 'client-b' });
  for (const lms of [lmsA, lmsB]) lms.platform.addResourceLink({ id: 'essay', title: 'Essay' });
});
after(async () => {
  for (const server of servers) await server.close();
  await lmsA.close();
  await lmsB.close();
  await tool.stop();
});

async function sessions(): Promise<number> {
  const { rows } = await tool.tool.database.pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM lti_record WHERE collection = 'session'",
  );
  return Number(rows[0]!.n);
}

/** A launch that must fail: its status and sentence, and no session stored. */
async function refused(
  attempt: () => Promise<{ status: number; body: string; ltik?: string | null }>,
  status: number,
  sentence: RegExp,
): Promise<void> {
  const before = await sessions();
  const result = await attempt();
  assert.equal(result.status, status, text(result.body));
  assert.match(text(result.body), sentence);
  assert.ok(!result.ltik, 'the attack got a session');
  assert.equal(await sessions(), before, 'a session was stored');
}

async function get(url: string, jar: CookieJar): Promise<{ status: number; location: string | null; body: string }> {
  const response = await request(url, { headers: jar.header() ? { cookie: jar.header() } : {} });
  jar.store(response.headers['set-cookie']);
  return {
    status: response.statusCode,
    location: response.headers.location ? String(response.headers.location) : null,
    body: await response.body.text(),
  };
}

async function post(
  url: string,
  form: Record<string, string>,
  jar: CookieJar,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const response = await request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(jar.header() ? { cookie: jar.header() } : {}),
      ...headers,
    },
    body: new URLSearchParams(form).toString(),
  });
  jar.store(response.headers['set-cookie']);
  return { status: response.statusCode, body: await response.body.text() };
}

const field = (html: string, name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? '';

/**
 * The attacker's half of login CSRF: a whole login in the attacker's own browser, up to the id_token the LMS posts
 * back, which the attacker keeps instead of posting.
 */
async function attackersLaunch(
  lms: TestPlatform,
  options: { storageTarget?: string } = {},
): Promise<{ idToken: string; state: string; action: string }> {
  const jar = new CookieJar();
  const login = await get(
    lms.platform.loginInitiationUrl({ userId: 'student-2', resourceLinkId: 'essay', ...options }),
    jar,
  );
  const next = options.storageTarget
    ? login.body.match(/data-next="([^"]+)"/)?.[1]?.replace(/&amp;/g, '&')
    : login.location;
  assert.ok(next, `the login did not go on to the LMS: ${login.status}`);
  const authorization = await get(new URL(next, tool.url).toString(), jar);
  return {
    idToken: field(authorization.body, 'id_token'),
    state: field(authorization.body, 'state'),
    action: `${tool.url}/lti/launch`,
  };
}

describe('replays', () => {
  test('a replayed id_token, in a new login of its own, is refused', async () => {
    const first = await launch(lmsA.platform, { userId: 'student-1', resourceLinkId: 'essay' });
    assert.equal(first.status, 200);
    await refused(
      () =>
        launch(lmsA.platform, { userId: 'student-1', resourceLinkId: 'essay', replaceIdToken: () => first.idToken }),
      401,
      NOT_VERIFIED,
    );
  });

  test("a fresh token that reuses a used token's nonce is refused", async () => {
    const first = await launch(lmsA.platform, { userId: 'student-1', resourceLinkId: 'essay' });
    assert.equal(first.status, 200);
    const usedNonce = payloadOf(first.idToken).nonce;
    await refused(
      () =>
        launch(lmsA.platform, {
          userId: 'student-1',
          resourceLinkId: 'essay',
          replaceIdToken: (idToken) => lmsA.platform.sign({ ...payloadOf(idToken), nonce: usedNonce }),
        }),
      401,
      NOT_VERIFIED,
    );
  });

  test('a state used once cannot carry a second launch', async () => {
    const first = await launch(lmsA.platform, { userId: 'student-1', resourceLinkId: 'essay' });
    await refused(
      () =>
        launch(lmsA.platform, {
          userId: 'student-1',
          resourceLinkId: 'essay',
          editForm: (fields) => ({ ...fields, state: first.state }),
        }),
      401,
      /This launch has expired or was already used/,
    );
  });
});

describe("a state that is not this launch's", () => {
  test("another platform's state under this platform's token is refused", async () => {
    const other = await attackersLaunch(lmsB);
    await refused(
      () =>
        launch(lmsA.platform, {
          userId: 'student-1',
          resourceLinkId: 'essay',
          editForm: (fields) => ({ ...fields, state: other.state }),
        }),
      401,
      NOT_VERIFIED,
    );
  });

  test('login CSRF, state cookie: a launch whose login happened in another browser is refused by a browser that keeps its own', async () => {
    const attacker = await attackersLaunch(lmsA);
    // The victim's browser started a launch of its own moments ago and keeps the tool's state cookie.
    const victim = new CookieJar();
    const victimsLogin = await get(
      lmsA.platform.loginInitiationUrl({ userId: 'student-1', resourceLinkId: 'essay' }),
      victim,
    );
    assert.equal(victimsLogin.status, 302);
    assert.match(victim.header(), /state/);
    // The attacker's page makes the victim's browser post the attacker's launch.
    await refused(
      () =>
        post(attacker.action, { id_token: attacker.idToken, state: attacker.state }, victim, {
          origin: 'https://attacker.example',
        }),
      401,
      ANOTHER_BROWSER,
    );
  });

  test("login CSRF, platform storage: the launch is only taken on from the tool's own page, after the LMS window had its state", async () => {
    // The honest path works: the LMS keeps the state and the tool's page finds it.
    const honest = await launch(lmsA.platform, {
      userId: 'instructor-1',
      resourceLinkId: 'essay',
      storageTarget: '_parent',
      dropCookies: true,
    });
    assert.equal(honest.status, 200, text(honest.body));
    assert.ok(honest.ltik, text(honest.body));

    const attacker = await attackersLaunch(lmsA, { storageTarget: '_parent' });
    assert.ok(attacker.idToken && attacker.state);
    const victim = new CookieJar(); // third-party cookies blocked: none at all
    // Posted from the attacker's page: the tool answers with its checking page (the LMS window of the victim holds
    // no such state, and its script goes no further), not with a session.
    await refused(
      () =>
        post(attacker.action, { id_token: attacker.idToken, state: attacker.state }, victim, {
          origin: 'https://attacker.example',
        }),
      200,
      /Checking with your LMS that this launch was started here/,
    );
    // Posting the checked form directly from the attacker's page is refused, with or without an Origin header.
    for (const headers of [
      { origin: 'https://attacker.example' },
      { origin: 'null' },
      {},
      { 'sec-fetch-site': 'cross-site', origin: 'null' },
      { 'sec-fetch-site': 'same-site', origin: 'null' },
    ] as Array<Record<string, string>>) {
      await refused(
        () =>
          post(
            attacker.action,
            { id_token: attacker.idToken, state: attacker.state, lti_storage_checked: '1' },
            victim,
            headers,
          ),
        403,
        ANOTHER_BROWSER,
      );
    }
  });
});

describe('a launch that goes around the checks', () => {
  test('an id_token posted as JSON, or to another address under /lti, is refused before ltijs sees it', async () => {
    const attacker = await attackersLaunch(lmsA);
    const jar = new CookieJar();
    const asJson = await request(attacker.action, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id_token: attacker.idToken, state: attacker.state }),
    });
    await refused(
      async () => ({ status: asJson.statusCode, body: await asJson.body.text() }),
      400,
      /Launches come from your LMS to the tool's launch address/,
    );
    await refused(
      () => post(`${tool.url}/lti/elsewhere`, { id_token: attacker.idToken, state: attacker.state }, jar),
      400,
      /Launches come from your LMS to the tool's launch address/,
    );
  });
});

/** A launch of A's whose token names a deployment A never registered. */
const unknownDeploymentLaunch = () =>
  launch(lmsA.platform, {
    userId: 'student-1',
    resourceLinkId: 'essay',
    replaceIdToken: (idToken) =>
      lmsA.platform.sign({
        ...payloadOf(idToken),
        'https://purl.imsglobal.org/spec/lti/claim/deployment_id': 'deployment-of-nobody',
      }),
  });

describe('who the token says it comes from', () => {
  test('a deployment id the platform never registered', async () => {
    await refused(
      unknownDeploymentLaunch,
      403,
      /This LMS \(or this deployment of the tool in it\) is not registered with the tool/,
    );
  });

  test("roles forged by another registered platform: B signs an instructor's token in A's name", async () => {
    await refused(
      () =>
        launch(lmsA.platform, {
          userId: 'student-1',
          resourceLinkId: 'essay',
          replaceIdToken: (idToken) =>
            lmsB.platform.sign({ ...launchClaims(lmsA.platform), nonce: payloadOf(idToken).nonce, sub: 'student-1' }),
        }),
      401,
      NOT_VERIFIED,
    );
  });
});

describe('session keys', () => {
  test('a relaunch issues a new ltik, and one issued more than LTIK_LIFETIME_SECONDS ago opens nothing', async () => {
    const first = await launch(lmsA.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    const again = await launch(lmsA.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    assert.equal(first.status, 200, text(first.body));
    assert.ok(first.ltik && again.ltik && first.ltik !== again.ltik, 'the relaunch reused the session key');
    const page = (ltik: string) => {
      const url = new URL(first.url);
      url.searchParams.set('ltik', ltik);
      return request(url, { headers: { accept: 'text/html' } });
    };
    for (const ltik of [first.ltik, again.ltik]) assert.equal((await page(ltik)).statusCode, 200);
    // The same key as the launch issued it, but issued a working day and a minute ago (an identical launch since
    // re-armed its session record): it says the session ended.
    const claims = payloadOf(first.ltik);
    // What a session needs of its key, and nothing more: the platform, the deployment, the record and the person,
    // with the key's own id, its issue and its end.
    assert.deepEqual(Object.keys(claims).sort(), [
      'clientId',
      'contextId',
      'deploymentId',
      'exp',
      'iat',
      'jti',
      'platformUrl',
      'user',
    ]);
    const issuedBefore = Math.floor(Date.now() / 1000) - LTIK_LIFETIME_SECONDS - 60;
    const old = await new SignJWT({ ...claims, iat: issuedBefore, exp: issuedBefore + LTIK_LIFETIME_SECONDS })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(tool.config.encryptionKey));
    const answer = await page(old);
    assert.equal(answer.statusCode, 401);
    assert.match(text(await answer.body.text()), /Your session with the tool has ended/);
  });
});

describe("the platform's keys", () => {
  async function platformWithKeysAt(
    clientId: string,
    keysUrl: (platform: ServedPlatform) => string,
  ): Promise<ServedPlatform> {
    const lms = await servePlatform(tool.url, { clientId });
    servers.push(lms);
    lms.platform.addResourceLink({ id: 'essay', title: 'Essay' });
    await saveRegistration(
      { db: tool.tool.database.db, provider: tool.tool.platforms },
      { ...lms.platform.registration(), jwksUrl: keysUrl(lms) },
      'cli',
    );
    return lms;
  }

  async function listen(app: express.Express): Promise<string> {
    const server: Server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push({ close: () => (server.closeAllConnections(), new Promise((resolve) => server.close(resolve))) });
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  test('a keys URL that hangs: the launch gets a page that says so, within the launch deadline', async () => {
    const hanging = express();
    hanging.get('/jwks', () => undefined);
    const base = await listen(hanging);
    const lms = await platformWithKeysAt('client-hang', () => `${base}/jwks`);
    let started = 0;
    const posted = (idToken: string) => {
      started = Date.now(); // the LMS's form post of the id_token: from here ltijs's 10 s run
      return idToken;
    };
    await refused(
      () => launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay', replaceIdToken: posted }),
      503,
      /The LMS's signing keys could not be fetched from 127\.0\.0\.1:\d+; try again in a minute or ask the administrator to check the keys URL/,
    );
    // The keys are given up after 5 s, well inside the 10 s ltijs accepts an id_token for.
    assert.ok(Date.now() - started < 8000, `the page came ${Date.now() - started} ms after the id_token was posted`);
  });

  test('a flood of launches with made-up key ids asks the LMS for its keys at most twice', async () => {
    let asked = 0;
    const counting = express();
    let keysOf: ServedPlatform | undefined;
    counting.get('/jwks', async (_req, res) => {
      asked += 1;
      res.json(await (await fetch(`${keysOf!.url}/jwks`)).json());
    });
    const base = await listen(counting);
    const lms = await platformWithKeysAt('client-flood', () => `${base}/jwks`);
    keysOf = lms;
    const honest = await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay' });
    assert.equal(honest.status, 200, text(honest.body));
    assert.equal(asked, 1);
    const { privateKey } = await generateKeyPair('RS256');
    for (let i = 0; i < 20; i += 1) {
      await refused(
        () =>
          launch(lms.platform, {
            userId: 'student-1',
            resourceLinkId: 'essay',
            replaceIdToken: (idToken) =>
              new SignJWT(payloadOf(idToken))
                .setProtectedHeader({ alg: 'RS256', kid: `made-up-${i}` })
                .sign(privateKey),
          }),
        401,
        NOT_VERIFIED,
      );
    }
    assert.ok(asked <= 2, `the LMS was asked for its keys ${asked} times`);
  });
});

// A refused launch's page may be framed by anyone (web/framing.ts, docs/security.md): the LMS that shows it may be
// one the tool does not know. That is safe only while the page holds nothing that acts, which is what this asserts
// of every kind of refusal an LMS's frame can meet.
describe('a refused launch explains itself inside any frame, and holds nothing that acts', () => {
  const frameAncestors = (headers: Record<string, string | string[] | undefined>) =>
    /frame-ancestors ([^;]*)/.exec(String(headers['content-security-policy']))?.[1]?.trim();

  function holdsNothingThatActs(
    answer: { status: number; body: string; headers: Record<string, string | string[] | undefined> },
    sentence: RegExp,
  ): void {
    assert.match(text(answer.body), sentence);
    assert.match(text(answer.body), /LMS administrator|Open the assignment again/, 'it says what to do');
    assert.equal(frameAncestors(answer.headers), '*', 'any LMS may frame it');
    assert.equal(answer.headers['set-cookie'], undefined, 'it sets no cookie');
    assert.doesNotMatch(
      answer.body,
      /<form|<button|<input|<a\s|href="(?!\/static\/|\/favicon\.ico")/i,
      'it has nothing to click',
    );
    assert.equal(answer.headers['x-frame-options'], undefined);
  }

  const login = async (params: Record<string, string>) => {
    const answer = await request(`${tool.url}/lti/login?${new URLSearchParams(params)}`);
    return { status: answer.statusCode, headers: answer.headers, body: await answer.body.text() };
  };
  const loginOf = (lms: TestPlatform, clientId: string) =>
    login({
      iss: lms.platform.registration().issuer,
      client_id: clientId,
      login_hint: 'instructor-1',
      target_link_uri: `${tool.url}/lti/launch`,
    });

  test('an unknown client id (a Moodle tool type the tool does not know)', async () => {
    const answer = await loginOf(lmsA, 'client-nobody-registered');
    assert.equal(answer.status, 400);
    holdsNothingThatActs(answer, /This LMS is not registered with the tool.*must register the tool/);
  });

  test('an unknown issuer', async () => {
    const answer = await login({
      iss: 'https://lms.nobody-knows.example',
      client_id: 'x',
      login_hint: 'instructor-1',
      target_link_uri: `${tool.url}/lti/launch`,
    });
    assert.equal(answer.status, 400);
    holdsNothingThatActs(answer, /This LMS is not registered with the tool/);
  });

  test('a registration pending or switched off', async () => {
    const off = await startTestPlatform(tool, { clientId: 'client-off' });
    try {
      await tool.tool.database.db
        .updateTable('platform')
        .set({ active: false })
        .where('client_id', '=', 'client-off')
        .execute();
      const answer = await loginOf(off, 'client-off');
      assert.equal(answer.status, 403);
      holdsNothingThatActs(answer, /switched off for this LMS.*ask the tool's administrator to switch it on/);
    } finally {
      await off.close();
    }
  });

  test('an unknown deployment', async () => {
    const answer = await unknownDeploymentLaunch();
    assert.equal(answer.status, 403);
    holdsNothingThatActs(answer, /this deployment of the tool in it\) is not registered/);
  });

  test('a state that expired, or was used already', async () => {
    const expired = await launch(lmsA.platform, {
      userId: 'student-1',
      resourceLinkId: 'essay',
      editForm: (fields) => ({ ...fields, state: 'not-issued-by-the-tool' }),
    });
    assert.equal(expired.status, 401);
    holdsNothingThatActs(expired, /expired or was already used/);
    const first = await launch(lmsA.platform, { userId: 'student-1', resourceLinkId: 'essay' });
    assert.equal(first.status, 200, text(first.body));
    const used = await launch(lmsA.platform, {
      userId: 'student-1',
      resourceLinkId: 'essay',
      editForm: (fields) => ({ ...fields, state: first.state, id_token: first.idToken }),
    });
    assert.equal(used.status, 401, text(used.body));
    holdsNothingThatActs(used, /expired or was already used|could not be verified/);
  });

  test('a page in a session is still framed by its own platform alone', async () => {
    const opened = await launch(lmsA.platform, { userId: 'student-1', resourceLinkId: 'essay' });
    assert.equal(opened.status, 200, text(opened.body));
    assert.notEqual(frameAncestors(opened.headers), '*');
    assert.match(String(frameAncestors(opened.headers)), new RegExp(new URL(lmsA.url).origin.replace(/\./g, '\\.')));
  });
});
