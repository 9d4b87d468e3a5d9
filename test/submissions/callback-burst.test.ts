// The service's callbacks in a burst (a whole class analysed at once, each callback sent twice or more): every one
// is answered, each paper's read-back is queued for the submissions holding it, a repeat adds no second job, and a
// paper the tool has not recorded yet gets its delayed job once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { QUEUES } from '../../src/jobs/index.js';
import { ResultAnnouncements } from '../../src/submissions/announced-result.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
let course: TestCourse;

before(async () => {
  // The sandbox takes an hour to analyse: no callback of its own comes during the test.
  tool = await startTestTool({ SANDBOX_DELAY_MS: '3600000', JOB_POLLING_SECONDS: '0.5' });
  course = await openCourse(tool, { clientId: 'burst' });
});
after(async () => {
  await course.lms.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;

async function paperIdOf(submissionId: string): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const row = await db()
      .selectFrom('submission')
      .select('paper_id')
      .where('id', '=', submissionId)
      .executeTakeFirstOrThrow();
    if (row.paper_id !== null) return Number(row.paper_id);
    assert.ok(Date.now() < deadline, 'the paper never reached the service');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function resultJobs(keys: string[]): Promise<Map<string, number>> {
  const { rows } = await tool.tool.database.pool.query<{ key: string; n: string }>(
    'SELECT singleton_key AS key, count(*) AS n FROM pgboss.job WHERE name = $1 AND singleton_key = ANY($2) GROUP BY singleton_key',
    [QUEUES.result, keys],
  );
  return new Map(rows.map((row) => [row.key, Number(row.n)]));
}

test('forty callbacks at once, each paper announced five times: every one answered, one read-back per paper', async () => {
  const submissions = await Promise.all(
    [1, 2, 3, 4, 5, 6].map((n) => course.submit(`student-${n}`, `Essay ${n}. `.repeat(50 + n))),
  );
  const papers = await Promise.all(submissions.map(paperIdOf));
  const unrecorded = [990_001, 990_002];
  const announced = [...papers, ...unrecorded].flatMap((paperId) => Array.from({ length: 5 }, () => paperId));

  const announcements = new ResultAnnouncements({ db: db(), jobs: tool.tool.jobs });
  const held = await Promise.all(announced.map((paperId) => announcements.announce(paperId)));
  assert.deepEqual(
    held,
    announced.map((paperId) => (papers.includes(paperId) ? 1 : 0)),
    'each callback is told how many submissions hold its paper',
  );

  // A paper not recorded yet: one job, held back a few seconds for its upload to record it.
  const early = await resultJobs(unrecorded.map((paperId) => `paper-${paperId}`));
  assert.deepEqual([...early.values()], [1, 1]);
  const { rows } = await tool.tool.database.pool.query<{ wait: number }>(
    'SELECT extract(epoch FROM start_after - created_on)::float AS wait FROM pgboss.job WHERE name = $1 AND singleton_key = ANY($2)',
    [QUEUES.result, unrecorded.map((paperId) => `paper-${paperId}`)],
  );
  for (const row of rows)
    assert.ok(row.wait >= 4, `an early callback's job waits ${row.wait} s, not the few seconds its upload needs`);
  // A recorded paper: its submission's read-back, once (a second only if the worker had already started the first).
  const read = await resultJobs(submissions);
  assert.equal(read.size, submissions.length, 'a submission got no read-back');
  for (const [key, count] of read) assert.ok(count <= 2, `${count} read-backs queued for ${key}`);
});

test('over HTTP: the burst is answered 200 every time, and an unreadable body in the middle of it 400', async () => {
  const secret = tool.config.callbackSecret;
  const put = (body: string) =>
    fetch(`${tool.url}/checker/callback/${secret}`, {
      method: 'PUT',
      body,
      headers: { 'content-type': 'application/json' },
    });
  const bodies = [
    ...Array.from({ length: 30 }, (_, i) => JSON.stringify({ paper_id: 991_000 + (i % 10), similarity: 12, flag: 0 })),
    '{"paper_id": "x"}',
  ];
  const answers = await Promise.all(bodies.map(put));
  assert.deepEqual(
    answers.map((answer) => answer.status),
    [...Array.from({ length: 30 }, () => 200), 400],
  );
  const early = await resultJobs(Array.from({ length: 10 }, (_, i) => `paper-${991_000 + i}`));
  assert.equal(early.size, 10);
});
