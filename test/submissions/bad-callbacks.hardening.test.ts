// The bad-input catalogue's completion callbacks (test/support/bad-inputs.ts): a wrong secret, wrong types, an
// unknown paper, a 200 KB body, each with the answer it must get, the paper it names left as it was and the tool
// still up.
import assert from 'node:assert/strict';
import { QUEUES } from '../../src/jobs/index.js';
import { essay } from '../support/hardening.js';
import { shownSimilarity } from '../support/gradebook-cell.js';
import {
  type Answer,
  answerOf,
  assignmentId,
  badInputTool,
  CALLBACK_SECRET,
  catalogue,
  db,
  lms,
  tool,
  uploadFile,
} from '../support/bad-inputs.js';

badInputTool();

// ---- callbacks (PUT /checker/callback/<secret>) ----

async function callback(
  body: string,
  options: { secret?: string; method?: string; type?: string } = {},
): Promise<Answer> {
  return answerOf(
    await fetch(`${tool.url}/checker/callback/${options.secret ?? CALLBACK_SECRET}`, {
      method: options.method ?? 'PUT',
      headers: { 'content-type': options.type ?? 'application/json' },
      body: options.method === 'GET' ? null : body,
    }),
  );
}
const paperBody = (fields: Record<string, unknown>) =>
  JSON.stringify({ paper_id: 700001, similarity: '12%', flag: 0, ...fields });
async function noSubmissionHolds(paperId: number): Promise<void> {
  const rows = await db().selectFrom('submission').select('id').where('paper_id', '=', String(paperId)).execute();
  assert.deepEqual(rows, []);
}

/** Asks `check` every 50 ms until it gives a value; fails naming `what` after the deadline. */
async function pollUntil<T>(what: string, check: () => Promise<T | null>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) assert.fail(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const submissionRow = (id: string) =>
  db().selectFrom('submission').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
type SubmissionRow = Awaited<ReturnType<typeof submissionRow>>;

/** Jobs in one of `states` whose data names this submission or paper (outside the queues `except` names). */
async function jobsIn(
  states: string[],
  field: 'submissionId' | 'paperId',
  value: string,
  except: string[] = [],
): Promise<number> {
  const { rows } = await tool.tool.database.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM pgboss.job WHERE state::text = ANY($1) AND data->>$2 = $3 AND NOT (name = ANY($4))',
    [states, field, value, except],
  );
  return Number(rows[0]!.n);
}

interface Held {
  id: string;
  paperId: number;
  /** Its row, in processing, once nothing is left to do for it until a callback comes. */
  row: SubmissionRow;
  /** What the service has for it: the result a callback must lead the tool to read back. */
  result: { similarity: number; reportKey: string; aiScore: number | null };
}

/**
 * A real submission in processing whose paper the service has finished: its callback dropped by the sandbox, and no
 * poll due for ten minutes, so only a callback the test sends moves it on.
 */
async function heldInProcessing(seed: string): Promise<Held> {
  const sandbox = tool.tool.sandbox!;
  sandbox.setFaults({ callbacks: 'drop' });
  let id: string;
  let paperId: number;
  let result: Held['result'];
  try {
    const answer = await uploadFile(`${seed}.txt`, essay(seed));
    assert.equal(answer.status, 201, answer.body);
    id = (JSON.parse(answer.body) as { submissionId: string }).submissionId;
    paperId = await pollUntil(`submission ${id} accepted by the service`, async () => {
      const row = await submissionRow(id);
      return row.state === 'processing' && row.paper_id !== null ? Number(row.paper_id) : null;
    });
    const folder = await db()
      .selectFrom('assignment')
      .select('folder_id')
      .where('id', '=', assignmentId())
      .executeTakeFirstOrThrow();
    const service = await tool.tool.services.forAssignment(assignmentId());
    const read = await pollUntil(`paper ${paperId} analysed by the service`, async () => {
      const found = await service.result(Number(folder.folder_id), paperId);
      return found.state === 'pending' ? null : found;
    });
    assert.equal(read.state, 'done', `the service did not score paper ${paperId}: ${JSON.stringify(read)}`);
    result = { similarity: read.similarity, reportKey: read.reportKey, aiScore: read.aiScore };
  } finally {
    sandbox.setFaults({});
  }
  // The receipt's and the upload's jobs (the gradebook told "submitted") done: the row changes no more by itself.
  await pollUntil(`the jobs of submission ${id} done`, async () =>
    (await jobsIn(['created', 'retry', 'active'], 'submissionId', id, [QUEUES.poll])) === 0 ? true : null,
  );
  const row = await submissionRow(id);
  assert.equal(row.state, 'processing', 'the held submission moved on without a callback');
  return { id, paperId, row, result };
}

/** The held submission after a callback for it: read back from the service and graded, nothing taken from the callback. */
async function readBackAndGraded(held: Held): Promise<void> {
  const row = await pollUntil(`submission ${held.id} past processing`, async () => {
    const current = await submissionRow(held.id);
    return current.state === 'processing' || current.state === 'scored' ? null : current;
  });
  assert.equal(row.state, 'graded', `ended ${row.state}: ${row.failure_reason ?? row.grade_error ?? ''}`);
  assert.equal(row.paper_id, held.row.paper_id);
  assert.equal(row.report_key, held.result.reportKey, "the report key is not the service's");
  assert.equal(Number(row.similarity), held.result.similarity, "the similarity is not the service's");
  assert.equal(row.ai_score === null ? null : Number(row.ai_score), held.result.aiScore);
  for (const [column, value] of Object.entries(row))
    assert.ok(!(typeof value === 'string' && value.includes('\u0000')), `a NUL character was stored in ${column}`);
  const scored = await db()
    .selectFrom('submission_event')
    .select('reason')
    .where('submission_id', '=', held.id)
    .where('to_state', '=', 'scored')
    .execute();
  assert.equal(scored.length, 1, 'scored more than once');
  assert.doesNotMatch(scored[0]!.reason, /polling/, 'scored by a poll, not after the callback');
  const cell = lms.platform.gradebook().find((grade) => grade.userId === 'student-1');
  assert.equal(shownSimilarity(cell), held.result.similarity, "the gradebook does not hold the service's similarity");
}

let held: Held | null = null;
const holdOne = (seed: string) => async () => void (held = await heldInProcessing(seed));
const heldPaper = () => held!.paperId;

catalogue('callback', [
  {
    name: 'a wrong secret of the right length',
    status: 404,
    send: () => callback(paperBody({}), { secret: CALLBACK_SECRET.replace(/.$/, 'X') }),
  },
  { name: 'a short secret', status: 404, send: () => callback(paperBody({}), { secret: 'abc' }) },
  {
    name: 'a path instead of the secret',
    status: 404,
    send: () => callback(paperBody({}), { secret: '..%2F..%2Fadmin' }),
  },
  { name: 'no secret', status: 404, send: () => callback(paperBody({}), { secret: '' }) },
  { name: 'GET with the right secret', status: 404, send: () => callback('', { method: 'GET' }) },
  { name: 'POST with the right secret', status: 404, send: () => callback(paperBody({}), { method: 'POST' }) },
  {
    name: 'a body that is not JSON',
    status: 400,
    send: () => callback('paper_id=1&flag=0', { type: 'application/x-www-form-urlencoded' }),
  },
  { name: 'JSON that is an array', status: 400, send: () => callback('[700001]') },
  { name: 'an empty body', status: 400, send: () => callback('') },
  { name: 'paper_id as words', status: 400, send: () => callback(paperBody({ paper_id: 'abc' })) },
  { name: 'a negative paper_id', status: 400, send: () => callback(paperBody({ paper_id: -5 })) },
  { name: 'a fractional paper_id', status: 400, send: () => callback(paperBody({ paper_id: 1.5 })) },
  { name: 'a 16-digit paper_id', status: 400, send: () => callback(paperBody({ paper_id: '9999999999999999' })) },
  { name: 'flag 7', status: 400, send: () => callback(paperBody({ flag: 7 })) },
  { name: 'similarity as an object', status: 400, send: () => callback(paperBody({ similarity: { percent: 12 } })) },
  {
    name: 'a download_url of 5,000 characters',
    status: 400,
    send: () => callback(paperBody({ download_url: `https://x.example/${'a'.repeat(5000)}` })),
  },
  { name: 'a body of 200 KB', status: 413, send: () => callback(paperBody({ padding: 'x'.repeat(200_000) })) },
  { name: '5,000 nested arrays', status: 400, send: () => callback(`${'['.repeat(5000)}${']'.repeat(5000)}`) },
  // For a real paper in processing: the callback is a signal, the result is read back; the URL is not stored.
  {
    name: 'a NUL character in the download_url (not stored)',
    status: 200,
    prepare: holdOne('callback with a nul'),
    send: () =>
      callback(paperBody({ paper_id: heldPaper(), similarity: '99%', download_url: 'https://x.example/\u0000' })),
    check: () => readBackAndGraded(held!),
  },
  {
    name: 'an unknown paper: accepted, and nothing changes',
    status: 200,
    prepare: holdOne('held while an unknown paper is announced'),
    send: () => callback(paperBody({ paper_id: 700002 })),
    check: async () => {
      // Once the tool has acted on the callback (its delayed read-back tried once, or nothing queued at all), the
      // paper in processing is as it was, and no submission took the unknown paper.
      await pollUntil('the tool to act on the callback', async () =>
        (await jobsIn(['created', 'active'], 'paperId', '700002')) === 0 ? true : null,
      );
      assert.deepEqual(await submissionRow(held!.id), held!.row, 'a submission in processing changed');
      await noSubmissionHolds(700002);
    },
  },
  {
    name: 'a __proto__ key: nothing polluted',
    status: 200,
    prepare: holdOne('callback with a proto key'),
    send: () => callback(`{"__proto__": {"polluted": true}, "paper_id": ${heldPaper()}}`),
    check: async () => {
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.ok(!('polluted' in Object.prototype), 'Object.prototype was polluted');
      // Still a callback for its paper: read back and graded like any other.
      await readBackAndGraded(held!);
    },
  },
]);
