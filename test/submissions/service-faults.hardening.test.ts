// Faults the tool must come through, each with its counts: the checking service down (503) and rate-limited (429)
// for a while, answering slower than the tool waits, an upload whose answer is lost or replaced by a gateway's 504
// after the service stored the paper, callbacks dropped, duplicated and out of order, and the LMS gradebook
// failing. After each, every paper is scored once at the service and the gradebook holds each student's latest
// score.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { after, before, test, type TestContext } from 'node:test';
import { QUEUES } from '../../src/jobs/index.js';
import { DEMO_USER, startSandbox, type Sandbox, type SandboxFaults } from '../../src/sandbox/index.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { allowResubmission, essay, recordFigures, settle, sleep, tally } from '../support/hardening.js';
import { FAST_JOBS, freePort, startTestTool, type TestTool } from '../support/tool.js';

const SECRET = 'hardening-faults-callback-secret';
const CHECKER_TIMEOUT_MS = 1000;
/** How long each fault lasts. */
const WINDOW_MS = 3500;

/** Stands between the service and the tool's callback URL: passes callbacks on, or holds them to release later. */
interface CallbackRelay {
  url: string;
  received: number;
  /** Callbacks passed on to the tool and answered by it. */
  passedOn: number;
  holding: boolean;
  held: string[];
  close(): Promise<void>;
}

async function startRelay(target: string): Promise<CallbackRelay> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    relay.received += 1;
    if (relay.holding) {
      relay.held.push(body);
      res.writeHead(200).end('{}');
      return;
    }
    const answer = await fetch(target, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });
    const text = await answer.text();
    relay.passedOn += 1;
    res.writeHead(answer.status).end(text);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const relay: CallbackRelay = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/callback`,
    received: 0,
    passedOn: 0,
    holding: false,
    held: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return relay;
}

let relay: CallbackRelay;
let sandbox: Sandbox;
let tool: TestTool;
let course: TestCourse;
const db = () => tool.tool.database.db;

before(async () => {
  const port = await freePort();
  relay = await startRelay(`http://127.0.0.1:${port}/checker/callback/${SECRET}`);
  sandbox = await startSandbox({ delayMs: 300, callbackUrl: relay.url });
  tool = await startTestTool({
    PORT: String(port),
    CHECKER_URL: sandbox.url,
    CHECKER_USERNAME: DEMO_USER.email,
    CHECKER_PASSWORD: DEMO_USER.password,
    CHECKER_TIMEOUT_MS: String(CHECKER_TIMEOUT_MS),
    CALLBACK_SECRET: SECRET,
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '30',
    POLL_SCHEDULE_SECONDS: '5',
  });
  course = await openCourse(tool, { clientId: 'faults-course' });
  await allowResubmission(db(), course.path);
});
after(async () => {
  await course?.lms.close();
  await tool?.stop();
  await sandbox?.close();
  await relay?.close();
});

/** Grade posts that failed and were left to retry, by the tool's log. */
function failedGradePosts(): number {
  return tool.logs.filter((line) => {
    const entry = JSON.parse(line) as { msg?: string; queue?: string };
    return entry.msg?.startsWith('Job failed') && entry.queue === 'grade-post';
  }).length;
}

async function scoredBy(ids: string[], reason: RegExp): Promise<number> {
  const events = await db()
    .selectFrom('submission_event')
    .select('reason')
    .where('submission_id', 'in', ids)
    .where('to_state', '=', 'scored')
    .execute();
  return events.filter((event) => reason.test(event.reason)).length;
}

/** Asks `check` every 100 ms until it holds or `timeoutMs` has passed; gives whether it held (the assertions that follow judge). */
async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/** Result read-backs of these submissions still queued, waiting for a retry, or running. */
async function resultJobsPending(ids: string[]): Promise<number> {
  const { rows } = await tool.tool.database.pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active') AND data->>'submissionId' = ANY($2)",
    [QUEUES.result, ids],
  );
  return Number(rows[0]!.n);
}

const submitAll = (prefix: string, count: number) =>
  Promise.all(
    Array.from({ length: count }, (_, i) => course.submit(`${prefix}-${i}`, essay(`${prefix} student ${i}`))),
  );

/** Waits for the batch, counts it, records the figures, and asserts that nothing was lost, doubled or misgraded. */
async function settleAndCount(
  t: TestContext,
  fault: string,
  ids: string[],
  papersBefore: number,
  evidence: { hits: number | (() => Promise<number>); what: string },
): Promise<void> {
  const open = await settle(db(), ids, 90_000);
  const hits = typeof evidence.hits === 'number' ? evidence.hits : await evidence.hits();
  const counts = await tally(db(), course.lms.platform, ids, sandbox.stats().papers - papersBefore);
  recordFigures({
    fault,
    survived: hits > 0 && counts.lost === 0 && counts.duplicated === 0 && counts.gradesWrong === 0,
    ...counts,
  });
  t.diagnostic(
    `${fault}: ${hits} ${evidence.what}; ${counts.submissions} submissions, ${counts.lost} lost, ${counts.duplicated} duplicated, ${counts.gradesWrong} grades wrong, ${counts.repeatedFinalPosts} final scores sent twice`,
  );
  assert.ok(hits > 0, `the fault never hit: no ${evidence.what}`);
  assert.deepEqual(open, [], 'submissions still on their way');
  assert.equal(counts.duplicated, 0, 'a paper reached the service twice');
  assert.equal(counts.gradesWrong, 0, 'a gradebook cell does not hold the latest score');
  assert.equal(counts.repeatedFinalPosts, 0, 'a final score was sent twice');
}

/**
 * Switches a fault on, submits a batch into it, switches it off after the window, and counts what came through.
 * How often the fault hit: a counter sampled as it starts and as it ends, or a count made once all is settled.
 * On a busy machine the batch's requests can come after the window: the fault then stays on until the counter has
 * moved (or, for a count made afterwards, until that count shows the fault was met), for a minute at most.
 */
async function throughFault(
  t: TestContext,
  fault: string,
  options: {
    on(): void;
    off(): void;
    what: string;
    counter?: () => number;
    afterwards?: (ids: string[]) => Promise<number>;
  },
): Promise<void> {
  const papersBefore = sandbox.stats().papers;
  const counted = options.counter?.() ?? 0;
  const uploadsBefore = sandbox.stats().uploads;
  options.on();
  let ids: string[];
  try {
    [ids] = await Promise.all([submitAll(fault.replace(/\W+/g, '-'), 3), sleep(WINDOW_MS)]);
    // A count made afterwards is the tool's recovery from the fault itself (a paper found again after a lost
    // answer): the fault stays on until it shows, since any other request (a poll, a folder) can come first.
    const reached = options.afterwards
      ? async () => (await options.afterwards!(ids)) > 0
      : options.counter
        ? () => options.counter!() > counted
        : () => sandbox.stats().uploads > uploadsBefore;
    await waitFor(reached, 60_000);
  } finally {
    options.off();
  }
  const hits = options.afterwards ? () => options.afterwards!(ids) : (options.counter?.() ?? 0) - counted;
  await settleAndCount(t, fault, ids, papersBefore, { hits, what: options.what });
}

const serviceFault = (faults: SandboxFaults, what: string) => ({
  on: () => sandbox.setFaults(faults),
  off: () => sandbox.setFaults({}),
  counter: () => sandbox.stats().requests,
  what,
});

test('the service down (503) for a while', { timeout: 120_000 }, async (t) => {
  await throughFault(t, 'service down (503)', serviceFault({ outage: true }, 'requests answered 503'));
});

test('the service rate-limiting every request (429, Retry-After) for a while', { timeout: 120_000 }, async (t) => {
  await throughFault(
    t,
    'rate-limited (429)',
    serviceFault({ rateLimit: { ratio: 1, retryAfterSeconds: 1 } }, 'requests answered 429'),
  );
});

test('the service answering slower than the tool waits (CHECKER_TIMEOUT_MS)', { timeout: 120_000 }, async (t) => {
  await throughFault(
    t,
    'answers slower than the timeout',
    serviceFault({ slowMs: CHECKER_TIMEOUT_MS * 2.5 }, 'requests answered after the timeout'),
  );
});

test("the platform's gradebook (AGS) failing for a while", { timeout: 120_000 }, async (t) => {
  await throughFault(t, 'gradebook (AGS) failing', {
    on: () => course.lms.platform.setFaults({ agsStatus: 503 }),
    off: () => course.lms.platform.setFaults({}),
    counter: failedGradePosts,
    what: 'score posts refused with 503 and retried',
  });
});

/** How many of `ids` the tool found at the service after an upload whose answer it never had. */
const foundAgain = async (ids: string[]) =>
  (
    await db()
      .selectFrom('submission_event')
      .select('id')
      .where('submission_id', 'in', ids)
      .where('reason', '=', 'Found at the service after an interrupted upload')
      .execute()
  ).length;

test(
  'upload answers lost (the service keeps the paper, the answer comes after the timeout)',
  { timeout: 120_000 },
  async (t) => {
    await throughFault(t, 'upload answer lost', {
      ...serviceFault(
        { uploadAnswerDelayMs: CHECKER_TIMEOUT_MS * 2.5 },
        'papers found again at the service after a lost answer',
      ),
      afterwards: foundAgain,
    });
  },
);

test("a gateway's 504 for uploads the service did store", { timeout: 120_000 }, async (t) => {
  await throughFault(t, 'gateway 504 after the paper was stored', {
    ...serviceFault({ uploadAnswerStatus: 504 }, 'papers found again at the service after a 504'),
    afterwards: foundAgain,
  });
});

test('callbacks dropped: the poller finds the results', { timeout: 120_000 }, async (t) => {
  const papersBefore = sandbox.stats().papers;
  sandbox.setFaults({ callbacks: 'drop' });
  try {
    const ids = await submitAll('dropped', 3);
    await settleAndCount(t, 'callbacks dropped', ids, papersBefore, {
      hits: () => scoredBy(ids, /polling/),
      what: 'results found by polling',
    });
  } finally {
    sandbox.setFaults({});
  }
});

test('callbacks duplicated: one result per paper', { timeout: 120_000 }, async (t) => {
  const papersBefore = sandbox.stats().papers;
  const receivedBefore = relay.received;
  const passedOnBefore = relay.passedOn;
  sandbox.setFaults({ callbacks: 'duplicate' });
  try {
    const ids = await submitAll('duplicated', 3);
    await settle(db(), ids, 60_000);
    // The second copies come after the first: wait until the tool has answered both copies of every callback and
    // has read back what they queued, so that a paper scored twice would show below.
    await waitFor(() => relay.passedOn - passedOnBefore >= 2 * ids.length, 30_000);
    await waitFor(async () => (await resultJobsPending(ids)) === 0, 30_000);
    await settleAndCount(t, 'callbacks duplicated', ids, papersBefore, {
      hits: relay.received - receivedBefore - ids.length,
      what: 'second copies of callbacks',
    });
    const scoredEvents = await db()
      .selectFrom('submission_event')
      .select('id')
      .where('submission_id', 'in', ids)
      .where('to_state', '=', 'scored')
      .execute();
    assert.equal(scoredEvents.length, ids.length, 'a paper was scored twice');
  } finally {
    sandbox.setFaults({});
  }
});

test(
  "callbacks out of order: second attempts' results before the first attempts', and the gradebook keeps the latest",
  { timeout: 120_000 },
  async (t) => {
    const papersBefore = sandbox.stats().papers;
    relay.holding = true;
    const shared = essay('a source every first attempt copies');
    const ids: string[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        ids.push(await course.submit(`reordered-${i}`, shared));
        ids.push(await course.submit(`reordered-${i}`, essay(`reordered student ${i}, own second attempt`)));
      }
      for (const deadline = Date.now() + 20_000; relay.held.length < ids.length; await sleep(100)) {
        if (Date.now() > deadline) assert.fail(`only ${relay.held.length} of ${ids.length} callbacks came`);
      }
    } finally {
      relay.holding = false;
    }
    for (const body of relay.held.splice(0).reverse()) {
      const answer = await fetch(`${tool.url}/checker/callback/${SECRET}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body,
      });
      assert.equal(answer.status, 200);
    }
    await settleAndCount(t, 'callbacks out of order', ids, papersBefore, {
      hits: () => scoredBy(ids, /announced by the service/),
      what: 'results taken from callbacks released in reverse order',
    });
    const rows = await db()
      .selectFrom('submission')
      .select(['user_id', 'attempt', 'similarity'])
      .where('id', 'in', ids)
      .execute();
    const differ = rows.filter(
      (row) =>
        row.attempt === 2 &&
        rows.some(
          (first) => first.user_id === row.user_id && first.attempt === 1 && first.similarity !== row.similarity,
        ),
    );
    assert.ok(
      differ.length > 0,
      'first and second attempts score alike, so a wrong order could not show in the gradebook',
    );
  },
);
