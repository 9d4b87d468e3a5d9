// Attacks on the completion callback (PUT /checker/callback/<secret>): a forged one (wrong secret), one with the
// right secret and a made-up result, a replay with another score after the result is in, one naming a paper of
// another service account. None may change a result the checking service did not confirm: the callback only
// starts a read-back from the account that holds the paper. (Malformed bodies and wrong secrets as input cases:
// test/submissions/bad-callbacks.hardening.test.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { openCourse, openCourseWithOwnAccount, type TestCourse } from '../support/course.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';
import { shownSimilarity } from '../support/gradebook-cell.js';

const CALLBACK_SECRET = 'security-callbacks-secret-0123456789';
const OTHER = { email: 'lms@other-college.example', password: 'other college', name: 'Other college' };

let tool: TestTool;
let otherService: Sandbox;
let course: TestCourse;
let otherCourse: TestCourse;
const db = () => tool.tool.database.db;

before(async () => {
  // No poll falls due during the test, and the service's own callbacks are dropped: only the test's callbacks
  // (and the read-backs they start) can move a paper on.
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '2500',
    POLL_SCHEDULE_SECONDS: '600',
    ...FAST_JOBS,
    CALLBACK_SECRET,
  });
  tool.tool.sandbox!.setFaults({ callbacks: 'drop' });
  otherService = await startSandbox({ users: [OTHER], delayMs: 600_000 });
  course = await openCourse(tool, { clientId: 'callbacks-a' });
  otherCourse = await openCourseWithOwnAccount(tool, {
    clientId: 'callbacks-b',
    serviceUrl: otherService.url,
    login: OTHER,
  });
});
after(async () => {
  await course?.lms.close();
  await otherCourse?.lms.close();
  await otherService?.close();
  await tool?.stop();
});

const row = (id: string) =>
  db()
    .selectFrom('submission')
    .select(['state', 'paper_id', 'similarity', 'report_key'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const events = async (id: string) =>
  (await db().selectFrom('submission_event').select('to_state').where('submission_id', '=', id).execute()).length;
const put = (body: unknown, secret = CALLBACK_SECRET) =>
  fetch(`${tool.url}/checker/callback/${secret}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
/** Long enough for a queued read-back to have run (jobs are fetched every half second). */
const aWhile = () => new Promise((resolve) => setTimeout(resolve, 2_000));

async function processing(submit: () => Promise<string>): Promise<{ id: string; paperId: number }> {
  const id = await submit();
  let paperId = 0;
  await eventually(
    async () => {
      const current = await row(id);
      paperId = Number(current.paper_id);
      return current.state === 'processing';
    },
    'the paper did not reach the service',
    30_000,
    100,
  );
  return { id, paperId };
}

describe('callbacks an attacker sends', () => {
  test('a forged callback (wrong secret) claiming 0% gets 404 and changes nothing; the real result comes from the service', async () => {
    const { id, paperId } = await processing(() =>
      course.submit('student-1', 'Forged callbacks must not clear this paper of its copied passages. '.repeat(12)),
    );
    const before = await events(id);
    const forged = await put({ paper_id: paperId, similarity: '0%', flag: 0 }, CALLBACK_SECRET.replace(/.$/, 'Z'));
    assert.equal(forged.status, 404);
    assert.deepEqual(await forged.json(), { error: 'Not found.' });
    await aWhile();
    assert.equal((await row(id)).state, 'processing');
    assert.equal(await events(id), before);
  });

  test('the right secret with a made-up result, before the service has finished: accepted (200), and the paper stays processing', async () => {
    const { id, paperId } = await processing(() =>
      course.submit('student-2', 'An early callback cannot invent a result the service has not given. '.repeat(12)),
    );
    const early = await put({
      paper_id: paperId,
      similarity: '0%',
      flag: 0,
      download_url: 'https://attacker.example/report.pdf',
    });
    assert.equal(early.status, 200);
    await aWhile();
    const still = await row(id);
    assert.equal(still.state, 'processing', 'the service had not finished: the read-back says pending');
    assert.equal(still.similarity, null);
    // Once the service has finished, a callback (any body) leads to what the service says, not what the body said.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const failed = await put({ paper_id: paperId, similarity: '0%', flag: 1 });
    assert.equal(failed.status, 200);
    await eventually(
      async () => (await row(id)).state !== 'processing',
      'the read-back after the analysis did not settle the paper',
      30_000,
      200,
    );
    const settled = await row(id);
    assert.ok(
      settled.state === 'scored' || settled.state === 'graded',
      `the body's flag 1 was believed: ${settled.state}`,
    );
    assert.ok(settled.report_key && !settled.report_key.includes('attacker'));
  });

  test('a callback replayed after the result is in, with another score and flag 1, changes nothing', async () => {
    const { id, paperId } = await processing(() =>
      course.submit('student-3', 'A replayed callback cannot rewrite a result already read back. '.repeat(12)),
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the analysis finishes
    assert.equal((await put({ paper_id: paperId, similarity: '5%', flag: 0 })).status, 200);
    await eventually(
      async () => ['scored', 'graded'].includes((await row(id)).state),
      'the genuine callback did not settle the paper',
      30_000,
      200,
    );
    await eventually(
      async () => (await row(id)).state === 'graded',
      'the score did not reach the gradebook',
      30_000,
      200,
    );
    const settled = await row(id);
    const before = await events(id);
    for (const replay of [
      { paper_id: paperId, similarity: '99%', flag: 0 },
      { paper_id: paperId, similarity: '0%', flag: 1 },
      { paper_id: String(paperId), similarity: '0%' },
    ]) {
      assert.equal((await put(replay)).status, 200, 'a repeated callback is acknowledged, as the service expects');
    }
    await aWhile();
    assert.deepEqual(await row(id), settled);
    assert.equal(await events(id), before);
    const cell = course.lms.platform
      .scoreLog()
      .filter((entry) => entry.userId === 'student-3' && entry.status < 300)
      .at(-1)?.body as { scoreGiven?: number; comment?: string } | undefined;
    assert.equal(shownSimilarity(cell), Number(settled.similarity), "the gradebook keeps the service's score");
  });

  test("a callback naming a paper id that another account's submission holds settles only what that account's service confirms", async () => {
    // The other account's service never finishes its papers during the test; both services hand out 500001 first.
    const other = await processing(() =>
      otherCourse.submit(
        'student-1',
        'A paper at another college, still being analysed by its own service. '.repeat(12),
      ),
    );
    const mine = await db()
      .selectFrom('submission')
      .innerJoin('assignment', 'assignment.id', 'submission.assignment_id')
      .select(['submission.id', 'submission.state'])
      .where('submission.paper_id', '=', String(other.paperId))
      .where('assignment.checker_account_id', 'is', null)
      .executeTakeFirst();
    assert.ok(mine, 'a submission of the default account holds the same paper id');
    const otherBefore = await events(other.id);
    assert.equal((await put({ paper_id: other.paperId, similarity: '1%', flag: 0 })).status, 200);
    await aWhile();
    const otherAfter = await row(other.id);
    assert.equal(otherAfter.state, 'processing', "the other account's service has not finished: nothing changes there");
    assert.equal(otherAfter.similarity, null);
    assert.equal(await events(other.id), otherBefore);
  });
});
