// Canvas sends an Asset Processor notice once and never again, whatever the answer: a notice the tool does not keep
// is a student's file never checked. Two ROLE=web processes (real `node src/main.ts`) behind a balancer that, as
// real ones do, passes a request whose connection is refused to the other process; a steady stream of notices; one
// process is restarted (SIGTERM, then started again on its port) in the middle of it. Every notice is answered 200,
// by the other process or by the one stopping (it finishes the requests in flight), and every one is kept exactly once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { launch, submitForm } from '../../src/devplatform/agent.js';
import { DEMO_USER, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { postAttach } from '../support/asset-processor.js';
import { createTestDatabase, severalProcessesSkip, type TestDatabase } from '../support/db.js';
import { startForwarder, type Forwarder } from '../support/forwarder.js';
import { registerWithCli, servePlatform, type ServedPlatform } from '../support/platform.js';
import { startToolProcess, type ToolProcess } from '../support/process.js';
import { eventually } from '../support/wait.js';

const NOTICES = 240;
const SENDERS = 4;
/** Each sender's pause between its notices: the stream lasts about half a minute, longer than a restart. */
const PAUSE_MS = 400;
const ACTIVITY = { id: 'f1a2b3c4-0000-4000-8000-0000000000c7', title: 'Essay sent during a restart' };
const skip = severalProcessesSkip;

let database: TestDatabase;
let pool: pg.Pool;
let sandbox: Sandbox;
let balancer: Forwarder;
let lms: ServedPlatform;
let env: Record<string, string>;
const webs: ToolProcess[] = [];

before(async () => {
  if (skip) return;
  database = await createTestDatabase();
  pool = new pg.Pool({ connectionString: database.url!, max: 2 });
  balancer = await startForwarder([], { retryRefused: true });
  sandbox = await startSandbox({ delayMs: 500 });
  env = {
    DATABASE_URL: database.url!,
    DATA_DIR: database.dataDir,
    ENCRYPTION_KEY: randomBytes(24).toString('hex'),
    PUBLIC_URL: balancer.url,
    HOST: '127.0.0.1',
    ROLE: 'web',
    ASSET_PROCESSOR: 'on',
    CHECKER_URL: sandbox.url,
    CHECKER_USERNAME: DEMO_USER.email,
    CHECKER_PASSWORD: DEMO_USER.password,
  };
  webs.push(...(await Promise.all([startToolProcess(env), startToolProcess(env)])));
  balancer.setTargets(webs.map((web) => web.url));
  lms = await servePlatform(balancer.url, { rules: 'canvas' });
  await registerWithCli(
    { DATABASE_URL: database.url!, DATA_DIR: database.dataDir, ENCRYPTION_KEY: env.ENCRYPTION_KEY! },
    lms.platform.registration(),
  );
  // The instructor attaches the tool to the LMS's assignment, through the balancer.
  const page = await launch(lms.platform, {
    userId: 'instructor-1',
    messageType: 'LtiDeepLinkingRequest',
    activity: ACTIVITY,
  });
  assert.equal(page.status, 200, page.body);
  const attached = await postAttach({ url: balancer.url }, page.body);
  const form = await attached.text();
  assert.equal(attached.status, 200, form);
  assert.equal((await submitForm(form, balancer.url)).status, 200);
});

after(async () => {
  if (skip) return;
  await Promise.all(webs.map((web) => web.stop()));
  await lms?.close();
  await balancer?.close();
  await sandbox?.close();
  await pool?.end();
  await database?.drop();
});

const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0]!.n);

/** Notice i's body, as the LMS sends it: one student's submission of one file, in a request of its own. */
async function noticeBody(i: number): Promise<string> {
  const claims = lms.platform.submissionNotice({
    activityId: ACTIVITY.id,
    submissionId: `restart-${i}`,
    userId: `student-${i}`,
    assets: [
      {
        asset_id: `restart-asset-${i}`,
        url: `${lms.url}/files/${i}`,
        title: 'essay.txt',
        filename: 'essay.txt',
        content_type: 'text/plain',
      },
    ],
  });
  return JSON.stringify({ notices: [{ jwt: await lms.platform.sign(claims) }] });
}

async function sendNotice(i: number): Promise<number> {
  const answer = await fetch(`${balancer.url}/asset-processor/notices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: await noticeBody(i),
  });
  await answer.arrayBuffer();
  return answer.status;
}

/** Starts notice i straight to a process, its body half sent; `finish` sends the rest and gives the answer's status. */
async function halfSent(web: ToolProcess, i: number): Promise<{ finish(): Promise<number> }> {
  const body = Buffer.from(await noticeBody(i));
  const req = request(`${web.url}/asset-processor/notices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
  });
  const answered = new Promise<number>((resolve, reject) => {
    req.once('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
  });
  req.write(body.subarray(0, body.length >> 1));
  await new Promise((resolve) => setTimeout(resolve, 300)); // the process has the request's head and is reading its body
  return {
    finish: () => {
      req.end(body.subarray(body.length >> 1));
      return answered;
    },
  };
}

describe('a web process restarted in the middle of a stream of notices', { skip }, () => {
  test('every notice is answered 200 and kept exactly once', { timeout: 180_000 }, async (t) => {
    const statuses: number[] = [];
    let nextNotice = 0;
    const stream = Promise.all(
      Array.from({ length: SENDERS }, async () => {
        for (let i = nextNotice++; i < NOTICES - 1; i = nextNotice++) {
          statuses.push(await sendNotice(i));
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        }
      }),
    );

    await eventually(() => statuses.length >= NOTICES / 4, 'the first quarter of the notices was not answered', 60_000);
    const stopping = webs[0]!;
    // The last notice is still arriving at the process when it is told to stop: it is read, kept and answered.
    const inFlight = await halfSent(stopping, NOTICES - 1);
    const inFlightAtStop = balancer.inFlight();
    const answeredAtStop = statuses.length;
    const stopped = stopping.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    statuses.push(await inFlight.finish());
    assert.equal(await stopped, 0, stopping.output());
    assert.match(stopping.output(), /Shutdown complete/);
    // While it is down the balancer meets refused connections and passes those notices to the other process.
    await eventually(() => balancer.refusals() > 0, 'no notice met the stopped process', 30_000);
    // Started again at the same address, as a deployment restarts a process; the balancer's list never changed.
    webs[0] = await startToolProcess({ ...env, PORT: String(stopping.port) });
    const answeredAtRestart = statuses.length;
    const passedAtRestart = balancer.forwarded.length;
    await stream;

    t.diagnostic(
      `${inFlightAtStop} requests in flight at the balancer and one half-sent notice at SIGTERM after ${answeredAtStop} answers; restarted after ${answeredAtRestart}; ${balancer.refusals()} refused connections passed to the other process`,
    );
    assert.ok(answeredAtRestart < NOTICES, 'the restart was over before the stream ended');
    assert.deepEqual(
      statuses.filter((status) => status !== 200),
      [],
      'a notice was not answered 200',
    );
    assert.equal(statuses.length, NOTICES);
    // Exactly once: one row per notice's file, each from its own notice.
    assert.equal(await count(`SELECT count(*) AS n FROM lms_asset WHERE asset_id LIKE 'restart-asset-%'`), NOTICES);
    assert.equal(
      await count(`SELECT count(DISTINCT notice_id) AS n FROM lms_asset WHERE asset_id LIKE 'restart-asset-%'`),
      NOTICES,
    );
    // And both processes, the restarted one included, took notices.
    const servedBy = new Set(
      balancer.forwarded.filter((r) => r.path === '/asset-processor/notices').map((r) => r.target),
    );
    assert.equal(servedBy.size, 2);
    assert.ok(
      balancer.forwarded.slice(passedAtRestart).some((r) => r.target === webs[0]!.url),
      'the restarted process took notices again',
    );
  });
});
