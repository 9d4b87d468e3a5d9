// A school's LMS whose keys URL hangs or fails, and tokens with made-up key ids naming it: neither may take another
// school's launches or notices, nor turn the tool against the struggling LMS. LMS A's keys URL is a forwarder the
// test switches to hanging (never answering) or failing (HTTP 500); LMS B is an ordinary school. While clients post
// launches and notices that name A with a made-up key id (no key, no signature), B's launches and signed notices are
// all answered (how fast is printed beside a control without the attack); a failing keys URL is asked once per refetch floor,
// however many made-up key ids come.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import { launch } from '../../src/devplatform/agent.js';
import { CLAIM } from '../../src/lti/claims.js';
import { saveRegistration } from '../../src/lti/registrations.js';
import { attachToActivity, postNotices } from '../support/asset-processor.js';
import { essay } from '../support/hardening.js';
import { payloadOf } from '../support/id-token.js';
import { pageText } from '../support/page-text.js';
import { servePlatform, startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const PLACES = 8;
/** Clients posting made-up tokens naming A: half launches, half notices (the issue's 22). */
const ATTACKERS = 22;
const ACTIVITY_B = { id: 'c3d4e5f6-0000-4000-8000-0000000000b2', title: 'Essay at school B' };

const say = (line: string) => process.stdout.write(`# ${line}\n`);

let tool: TestTool;
let lmsA: ServedPlatform;
let lmsB: ServedPlatform;
let keysServer: Server;
/** What A's keys URL does now, and how often it was asked. */
let keysMode: 'answer' | 'hang' | 'fail' = 'answer';
let keysAsked = 0;

before(async () => {
  tool = await startTestTool({
    ASSET_PROCESSOR: 'on',
    CONCURRENT_LAUNCHES: String(PLACES),
    CONCURRENT_NOTICES: String(PLACES),
    SHUTDOWN_TIMEOUT_MS: '1000',
  });
  const keys = express();
  keys.get('/jwks', async (_req, res) => {
    keysAsked += 1;
    if (keysMode === 'hang') return; // never answered: the tool's deadline ends it
    if (keysMode === 'fail') return void res.status(500).send('down');
    res.json(await (await fetch(`${lmsA.url}/jwks`)).json());
  });
  keysServer = keys.listen(0, '127.0.0.1');
  await once(keysServer, 'listening');
  const keysUrl = `http://127.0.0.1:${(keysServer.address() as { port: number }).port}/jwks`;
  lmsA = await servePlatform(tool.url, { clientId: 'school-a', rules: 'canvas' });
  await saveRegistration(
    { db: tool.tool.database.db, provider: tool.tool.platforms },
    { ...lmsA.platform.registration(), jwksUrl: keysUrl },
    'cli',
  );
  lmsB = await startTestPlatform(tool, { clientId: 'school-b', rules: 'canvas' });
  for (const lms of [lmsA, lmsB]) lms.platform.addResourceLink({ id: 'essay', title: 'Essay' });
  await attachToActivity(tool, lmsB, ACTIVITY_B);
});

after(async () => {
  keysServer.closeAllConnections();
  await new Promise((resolve) => keysServer.close(resolve));
  await lmsA.close();
  await lmsB.close();
  await tool.stop();
});

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token naming A with a key id A never had, and no signature: nothing any key could verify. */
const madeUp = (payload: Record<string, unknown>, n: number) =>
  `${encode({ alg: 'RS256', typ: 'JWT', kid: `made-up-${n}-${Math.random()}` })}.${encode(payload)}.bm8`;

function madeUpNotice(n: number): string {
  const registration = lmsA.platform.registration();
  const now = Math.floor(Date.now() / 1000);
  return madeUp(
    {
      iss: registration.issuer,
      aud: registration.clientId,
      [CLAIM.deploymentId]: registration.deploymentId,
      iat: now,
      exp: now + 60,
      [CLAIM.notice]: { id: `n-${n}`, type: 'LtiAssetProcessorSubmissionNotice' },
    },
    n,
  );
}

async function attackLaunch(n: number): Promise<number> {
  const result = await launch(lmsA.platform, {
    userId: 'student-1',
    resourceLinkId: 'essay',
    replaceIdToken: (idToken) => madeUp(payloadOf(idToken), n),
  });
  return result.status;
}

async function attackNotice(n: number): Promise<number> {
  const answer = await postNotices(tool, madeUpNotice(n));
  await answer.arrayBuffer();
  return answer.status;
}

/** B's five launches and four notices, one after another: each one's status and time. */
async function schoolB(round: string) {
  const launches: Array<{ status: number; ms: number }> = [];
  const notices: Array<{ status: number; ms: number }> = [];
  for (let i = 0; i < 5; i += 1) {
    const started = Date.now();
    const result = await launch(lmsB.platform, {
      userId: i % 2 ? 'instructor-1' : 'student-1',
      resourceLinkId: 'essay',
    });
    launches.push({ status: result.status, ms: Date.now() - started });
  }
  for (let i = 0; i < 4; i += 1) {
    const started = Date.now();
    const sent = await lmsB.platform.submitToActivity({
      activityId: ACTIVITY_B.id,
      userId: 'student-b',
      files: [
        { content: Buffer.from(essay(`${round} ${i}`)), filename: `${round}-${i}.txt`, contentType: 'text/plain' },
      ],
    });
    notices.push({ status: sent.status, ms: Date.now() - started });
  }
  const summary = (rows: Array<{ status: number; ms: number }>) =>
    `${rows.filter((row) => row.status === 200).length} of ${rows.length} answered 200, ` +
    `slowest ${Math.max(...rows.map((row) => row.ms))} ms, median ${rows.map((row) => row.ms).sort((a, b) => a - b)[Math.floor(rows.length / 2)]} ms` +
    ` (${rows.map((row) => row.status).join(' ')})`;
  say(`${round}: B's launches ${summary(launches)}`);
  say(`${round}: B's notices ${summary(notices)}`);
  return { launches, notices };
}

describe('a school whose keys URL hangs, and made-up key ids naming it', () => {
  test("the other school's launches and signed notices are answered while it lasts, as beside the control", async () => {
    const control = await schoolB('control, no attack');
    for (const row of [...control.launches, ...control.notices]) assert.equal(row.status, 200);

    keysMode = 'hang';
    keysAsked = 0;
    let attacking = true;
    const answered = { launch: new Map<number, number>(), notice: new Map<number, number>() };
    const count = (map: Map<number, number>, status: number) => map.set(status, (map.get(status) ?? 0) + 1);
    const clients = Array.from({ length: ATTACKERS }, async (_, client) => {
      for (let n = 0; attacking; n += 1) {
        const asLaunch = client % 2 === 0;
        const status = await (asLaunch ? attackLaunch(client * 1000 + n) : attackNotice(client * 1000 + n)).catch(
          () => 0,
        );
        count(asLaunch ? answered.launch : answered.notice, status);
        // A client pauses a moment between its tokens, as a script does; the machine is shared.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    try {
      // The attack is on once A's keys URL is held by the tool.
      await eventually(() => keysAsked > 0, "the made-up tokens did not reach A's keys URL", 30_000, 20);
      const attacked = await schoolB('during the attack');
      const describe = (map: Map<number, number>) =>
        [...map].map(([status, n]) => `${n} × ${status}`).join(', ') || 'none yet';
      say(`the attack's launches were answered ${describe(answered.launch)}; its notices ${describe(answered.notice)}`);
      say(`A's hanging keys URL was asked ${keysAsked} times`);
      for (const [i, row] of attacked.launches.entries()) assert.equal(row.status, 200, `B's launch ${i + 1}`);
      for (const [i, row] of attacked.notices.entries()) assert.equal(row.status, 200, `B's notice ${i + 1}`);
      // How fast B is answered is printed above beside the control: on a busy machine the attack's own requests slow
      // every answer, so the time is a figure to read, not a rule; the rule is that B is answered, never refused.
    } finally {
      attacking = false;
      await Promise.all(clients);
    }
    // A's own tokens were answered, and soon: refused (they name no key A has), never left to hold a place.
    assert.ok(answered.launch.size > 0 && answered.notice.size > 0);
    assert.ok(![...answered.launch.keys(), ...answered.notice.keys()].includes(200), 'a made-up token was taken');
  });
});

describe('a keys URL that fails', () => {
  test('twenty made-up key ids in ten seconds ask it once, and are answered at once', async () => {
    keysMode = 'fail';
    // Past the refetch floor of the fetches above.
    await new Promise((resolve) => setTimeout(resolve, 10_500));
    keysAsked = 0;
    const started = Date.now();
    const statuses: number[] = [];
    const times: number[] = [];
    for (let i = 0; i < 20 && Date.now() - started < 9_000; i += 1) {
      const begun = Date.now();
      statuses.push(await attackLaunch(90_000 + i));
      times.push(Date.now() - begun);
    }
    say(
      `${statuses.length} made-up key ids in ${Date.now() - started} ms: the failing keys URL was asked ${keysAsked} ` +
        `times; answered ${statuses.join(' ')}, slowest ${Math.max(...times)} ms`,
    );
    assert.ok(statuses.length >= 10, `only ${statuses.length} launches in nine seconds`);
    assert.equal(keysAsked, 1, `the failing keys URL was asked ${keysAsked} times`);
    for (const status of statuses) assert.ok(status === 401 || status === 503, String(status));
    // The page says why in words, not only a status.
    const page = await launch(lmsA.platform, {
      userId: 'student-1',
      resourceLinkId: 'essay',
      replaceIdToken: (idToken) => madeUp(payloadOf(idToken), 99_999),
    });
    assert.match(pageText(page.body), /The LMS's signing keys could not be fetched|could not be verified/);
  });
});
