// /metrics as Prometheus scrapes it: a launch, a submission and its way to the gradebook move the counters and
// gauges; the scrape answers within its deadline, with the counters, when the database does not; it answers a
// scraper on this machine, or one elsewhere with METRICS_TOKEN, and tells anyone else how to get in; and it
// carries no secret, no name and no id.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openCourse, type TestCourse } from '../support/course.js';
import { otherAddress, statusWithHost } from '../support/probe.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const METRICS_TOKEN = 'metrics-token-for-the-scraper-0123456789';

/** A scrape's samples: each series ("name{labels}") with its value. Comments and HELP/TYPE lines are left out. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const sample = /^([a-zA-Z_:][\w:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (sample) found.set(sample[1]!, Number(sample[2]));
  }
  return found;
}

/** The sum of the series of `name` whose labels include `labels` (0 when there is none). */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [series, value] of samples(text)) {
    const [, seriesName, seriesLabels = ''] = /^([^{]+)(?:\{(.*)\})?$/.exec(series)!;
    if (seriesName !== name) continue;
    if (Object.entries(labels).every(([label, wanted]) => seriesLabels.split(',').includes(`${label}="${wanted}"`)))
      sum += value;
  }
  return sum;
}

async function scrape(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; contentType: string; text: string }> {
  const response = await fetch(`${url}/metrics`, { headers });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

// One tool per test process (ltijs holds one provider): on every interface, so that another machine can be
// played by this machine's other address, and with the test platform's loopback network allowed.
let tool: TestTool;
let course: TestCourse | undefined;
before(async () => {
  tool = await startTestTool({
    HOST: '0.0.0.0',
    PLATFORM_PRIVATE_NETWORKS: '127.0.0.0/8',
    METRICS_TOKEN,
    ADMIN_TOKEN: 'admin-token-that-must-not-show-0123',
    SANDBOX_DELAY_MS: '200',
    JOB_POLLING_SECONDS: '0.5',
  });
});
after(async () => {
  await course?.lms.close();
  await tool.stop();
});

describe('scraped on this machine', () => {
  test("a launch and a submission move the counters; the paper's way to the gradebook moves the rest", async () => {
    // The database answers each scrape within its 2 s deadline on a quiet machine; on a loaded one the first may
    // not (the scrape then says so), and the counters are what this test is about.
    let before = await scrape(tool.url);
    await eventually(
      async () => total((before = await scrape(tool.url)).text, 'originality_database_up') === 1,
      'the database never answered a scrape in time',
      30_000,
      500,
    );
    assert.equal(before.status, 200);
    assert.match(before.contentType, /^text\/plain; version=0\.0\.4/);
    // prom-client's default metrics of the process, beside the tool's own.
    assert.ok(total(before.text, 'process_cpu_user_seconds_total') > 0, before.text);
    assert.ok(samples(before.text).has('nodejs_heap_size_used_bytes'));
    assert.equal(total(before.text, 'originality_database_up'), 1);
    // Every queue is named, with its waiting, running and failed jobs, and the age of its oldest waiting job.
    for (const queue of [
      'submission-upload',
      'submission-poll',
      'submission-result',
      'assignment-folder',
      'grade-post',
    ]) {
      for (const state of ['waiting', 'running', 'failed'])
        assert.ok(samples(before.text).has(`originality_jobs{queue="${queue}",state="${state}"}`), `${queue} ${state}`);
      assert.ok(samples(before.text).has(`originality_job_oldest_waiting_seconds{queue="${queue}"}`), queue);
    }
    assert.equal(total(before.text, 'originality_submissions'), 0);
    // The store of received files, empty.
    assert.equal(total(before.text, 'originality_received_files'), 0);
    assert.equal(total(before.text, 'originality_received_file_bytes'), 0);
    assert.ok(total(before.text, 'originality_received_file_disk_bytes') > 0, 'its table takes no disk');

    course = await openCourse(tool, { clientId: 'metrics-course' });
    const afterLaunch = await scrape(tool.url);
    assert.equal(
      total(afterLaunch.text, 'originality_launches_total', { kind: 'resource-link' }),
      total(before.text, 'originality_launches_total', { kind: 'resource-link' }) + 1,
    );

    const submissionId = await course.submit(
      'student-7',
      'An essay on the habits of herons, long enough to be checked by the service at all.',
    );
    const afterSubmit = await scrape(tool.url);
    // The student's launch, then the paper.
    assert.equal(
      total(afterSubmit.text, 'originality_launches_total', { kind: 'resource-link' }),
      total(afterLaunch.text, 'originality_launches_total', { kind: 'resource-link' }) + 1,
    );
    assert.equal(
      total(afterSubmit.text, 'originality_submissions_received_total'),
      total(before.text, 'originality_submissions_received_total') + 1,
    );
    assert.equal(total(afterSubmit.text, 'originality_submissions'), 1);

    // The sandbox calls back, the result is read, the score reaches the gradebook.
    let last = afterSubmit.text;
    await eventually(
      async () => {
        last = (await scrape(tool.url)).text;
        return (
          total(last, 'originality_submissions', { state: 'graded' }) === 1 &&
          total(last, 'originality_grade_posts_total', { outcome: 'final' }) >= 1
        );
      },
      'the paper reaches the gradebook and the metrics show it',
      60_000,
      250,
    );
    assert.ok(total(last, 'originality_callbacks_total', { outcome: 'accepted' }) >= 1);
    // The service has the paper: its file is no longer kept.
    assert.equal(total(last, 'originality_received_files'), 0);
    assert.equal(total(last, 'originality_received_file_bytes'), 0);
    // The service was called: the folder created, the paper uploaded and read back, each timed.
    for (const operation of ['login', 'create-folder', 'upload', 'get-paper']) {
      assert.ok(
        total(last, 'originality_checker_call_duration_seconds_count', { operation, outcome: 'ok' }) >= 1,
        `${operation}\n${last}`,
      );
    }
    assert.ok(total(last, 'originality_checker_call_duration_seconds_sum') > 0);
    assert.equal(
      total(last, 'originality_checker_call_duration_seconds_bucket', {
        operation: 'upload',
        outcome: 'ok',
        le: '+Inf',
      }),
      total(last, 'originality_checker_call_duration_seconds_count', { operation: 'upload', outcome: 'ok' }),
    );
    assert.equal(total(last, 'originality_grade_posts_total', { outcome: 'error' }), 0);

    // Nothing that names a person, a paper or a secret.
    const config = tool.config;
    for (const secret of [
      config.callbackSecret,
      config.encryptionKey,
      config.adminToken!,
      'student-7',
      'Student student-7',
      'herons',
      submissionId,
      'metrics-course',
      'instructor-1',
    ]) {
      assert.ok(!last.includes(secret), `the metrics show ${JSON.stringify(secret)}`);
    }
  });

  test('callbacks refused for a wrong secret or an unreadable body are counted apart', async () => {
    const before = (await scrape(tool.url)).text;
    const wrong = await fetch(`${tool.url}/checker/callback/not-the-secret-at-all-0000000`, {
      method: 'PUT',
      body: JSON.stringify({ paper_id: 1 }),
    });
    assert.equal(wrong.status, 404);
    const garbled = await fetch(`${tool.url}/checker/callback/${tool.config.callbackSecret}`, {
      method: 'PUT',
      body: '{"paper_id":',
    });
    assert.equal(garbled.status, 400);
    const shapeless = await fetch(`${tool.url}/checker/callback/${tool.config.callbackSecret}`, {
      method: 'PUT',
      body: JSON.stringify({ paper: 'one' }),
    });
    assert.equal(shapeless.status, 400);
    const after = (await scrape(tool.url)).text;
    assert.equal(
      total(after, 'originality_callbacks_total', { outcome: 'wrong-secret' }),
      total(before, 'originality_callbacks_total', { outcome: 'wrong-secret' }) + 1,
    );
    assert.equal(
      total(after, 'originality_callbacks_total', { outcome: 'unreadable' }),
      total(before, 'originality_callbacks_total', { outcome: 'unreadable' }) + 2,
    );
    assert.equal(
      total(after, 'originality_callbacks_total', { outcome: 'accepted' }),
      total(before, 'originality_callbacks_total', { outcome: 'accepted' }),
    );
  });

  test('a database that does not answer: the scrape still answers within its deadline, with the counters and a comment', async () => {
    // A transaction holding the submission table (on PGlite, any open transaction holds every other connection).
    const client = await tool.tool.database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('LOCK TABLE submission IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const blocked = await scrape(tool.url);
      assert.ok(Date.now() - started < 6000, `the scrape took ${Date.now() - started} ms`);
      assert.equal(blocked.status, 200);
      assert.match(
        blocked.text,
        /^# The database did not answer within 2 s\. The submission, job and received-file gauges are left out of this scrape\.$/m,
      );
      assert.equal(total(blocked.text, 'originality_database_up'), 0);
      assert.ok(!samples(blocked.text).has('originality_submissions{state="graded"}'));
      assert.ok(!samples(blocked.text).has('originality_received_files'));
      assert.ok(total(blocked.text, 'originality_submissions_received_total') >= 1, 'the counters are served');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    await eventually(
      async () => total((await scrape(tool.url)).text, 'originality_database_up') === 1,
      'the gauges come back once the database answers',
    );
  });

  test("through a proxy on this machine or under another site's name it takes the token, and says so", async () => {
    const proxied = await scrape(tool.url, { 'x-forwarded-for': '203.0.113.9' });
    assert.equal(proxied.status, 401);
    assert.equal(
      proxied.text,
      'The metrics need the bearer token METRICS_TOKEN (Authorization: Bearer <token>) from outside the machine the tool runs on.\n',
    );
    assert.equal(await statusWithHost(`${tool.url}/metrics`, 'attacker.example'), 401);
    assert.equal(
      (await scrape(tool.url, { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${METRICS_TOKEN}` })).status,
      200,
    );
  });
});

describe(
  'scraped from another machine',
  { skip: otherAddress ? false : 'this machine has no non-loopback IPv4 address to test from' },
  () => {
    test('needs the bearer token', async () => {
      const remote = `http://${otherAddress}:${new URL(tool.url).port}`;
      const anonymous = await scrape(remote);
      assert.equal(anonymous.status, 401);
      assert.equal(
        anonymous.text,
        'The metrics need the bearer token METRICS_TOKEN (Authorization: Bearer <token>) from outside the machine the tool runs on.\n',
      );
      assert.equal((await scrape(remote, { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}x` })).status, 401);
      assert.equal((await scrape(remote, { authorization: `AdminToken ${METRICS_TOKEN}` })).status, 401);
      const authorized = await scrape(remote, { authorization: `Bearer ${METRICS_TOKEN}` });
      assert.equal(authorized.status, 200);
      assert.equal(total(authorized.text, 'originality_database_up'), 1);
      assert.ok(!authorized.text.includes(METRICS_TOKEN));
    });
  },
);
