// From a student's file to a grade, over HTTP, with the sandbox standing in for the service and the dev platform
// for the LMS: callbacks normal, dropped, duplicated and early, unreadable files, outages, and bad uploads.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { DEMO_USER } from '../../src/sandbox/index.js';
import { allowResubmission } from '../support/hardening.js';
import { runToExit } from '../support/process.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { storedChunks, unclaimedChunks } from '../support/stored-files.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';
import { shownSimilarity } from '../support/gradebook-cell.js';
import { essay } from '../support/papers.js';

let tool: TestTool;
let lms: TestPlatform;
let assignmentPath: string;
const ltiks = new Map<string, string>();

before(async () => {
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '300',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '20',
  });
  lms = await startTestPlatform(tool);
  lms.platform.addResourceLink({ id: 'essay-1', title: 'Essay 1', lineItem: { label: 'Essay 1', scoreMaximum: 100 } });
  const instructor = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay-1' });
  assert.equal(instructor.status, 200);
  ltiks.set('instructor-1', instructor.ltik!);
  assignmentPath = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');
  // Many papers per student in these tests: no attempt limit in the way, and every attempt kept at the service, so
  // that the papers there are counted one per submission.
  await allowResubmission(tool.tool.database.db, assignmentPath);
  for (const id of ['student-1', 'student-2', 'student-3']) {
    const result = await launch(lms.platform, { userId: id, resourceLinkId: 'essay-1' });
    ltiks.set(id, result.ltik!);
  }
});
after(async () => {
  await lms.close();
  await tool.stop();
});

async function submit(student: string, name: string, content: Buffer | string, extra?: (form: FormData) => void) {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  extra?.(form);
  const response = await fetch(`${tool.url}${assignmentPath}/submissions`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${ltiks.get(student)}`, accept: 'application/json' },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const db = () => tool.tool.database.db;
async function submission(id: string) {
  return db().selectFrom('submission').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
async function waitFor(id: string, states: string[], timeoutMs = 40_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await submission(id);
    if (states.includes(row.state)) return row;
    if (Date.now() > deadline) {
      const events = await db()
        .selectFrom('submission_event')
        .select(['to_state', 'reason'])
        .where('submission_id', '=', id)
        .orderBy('id')
        .execute();
      throw new Error(`Submission stayed ${row.state}: ${JSON.stringify(events)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
async function events(id: string) {
  return db()
    .selectFrom('submission_event')
    .select(['from_state', 'to_state', 'reason'])
    .where('submission_id', '=', id)
    .orderBy('id')
    .execute();
}
/** What refused uploads left in the store of received files (nothing, or it was not deleted). */
const leftBehind = () => unclaimedChunks(db());

describe('a paper from upload to gradebook', () => {
  test('the receipt comes with the commit; the callback leads to the score, and the score to the gradebook', async () => {
    const receipt = await submit('student-1', 'My essay.txt', essay('glaciers'));
    assert.equal(receipt.status, 201, JSON.stringify(receipt.body));
    assert.match(String(receipt.body.sha256), /^[0-9a-f]{64}$/);
    assert.equal(receipt.body.fileName, 'My essay.txt');
    assert.equal(receipt.body.state, 'received');
    const id = String(receipt.body.submissionId);
    const row = await waitFor(id, ['graded']);
    assert.notEqual(row.paper_id, null);
    assert.match(String(row.report_key), /^[A-Z0-9]{20}$/);
    assert.equal(row.file_id, null, 'the submission still names its file after the service has it');
    assert.deepEqual(await storedChunks(db()), { chunks: 0, bytes: 0 }, 'the file stays after the service has it');
    assert.deepEqual(
      (await events(id)).map((e) => e.to_state),
      ['received', 'uploading', 'processing', 'scored', 'graded'],
    );
    const grade = lms.platform.gradebook().find((g) => g.userId === 'student-1');
    assert.ok(grade, 'no score in the gradebook');
    // By default the similarity is a comment beside the submission, and the grading is the teacher's.
    assert.equal(grade.gradingProgress, 'PendingManual');
    assert.equal(grade.scoreGiven, null);
    assert.equal(shownSimilarity(grade), Number(row.similarity));
    assert.equal(grade.submittedAt, row.submitted_at.toISOString());
    // The instructor can read every step; a student cannot.
    const history = await fetch(
      `${tool.url}${assignmentPath}/submissions/${id}/history?ltik=${encodeURIComponent(ltiks.get('instructor-1')!)}`,
    );
    assert.equal(history.status, 200);
    const page = (await history.text()).replace(/<[^>]+>/g, ' ');
    for (const reason of [
      'Sending the file to the checking service',
      'Accepted by the checking service',
      'posted to the gradebook',
    ])
      assert.match(page, new RegExp(reason));
    const asStudent = await fetch(
      `${tool.url}${assignmentPath}/submissions/${id}/history?ltik=${encodeURIComponent(ltiks.get('student-1')!)}`,
    );
    assert.equal(asStudent.status, 403);
  });

  test('a copied paper scores high, and the student sees it under the default visibility', async () => {
    const receipt = await submit('student-2', 'copy.txt', essay('glaciers'));
    const row = await waitFor(String(receipt.body.submissionId), ['graded']);
    assert.ok(Number(row.similarity) >= 90, `similarity ${row.similarity}`);
    const mine = (await (
      await fetch(`${tool.url}${assignmentPath}/my-submissions?ltik=${encodeURIComponent(ltiks.get('student-2')!)}`)
    ).json()) as { submissions: Array<{ similarity: number | null; aiScore: number | null }> };
    assert.equal(mine.submissions[0]!.similarity, Number(row.similarity));
    assert.equal(mine.submissions[0]!.aiScore, null, 'the AI score is hidden from students by default');
  });

  test('the same file again is recognised: the same receipt, nothing sent twice', async () => {
    const uploads = tool.tool.sandbox!.stats().uploads;
    const again = await submit('student-2', 'copy (1).txt', essay('glaciers'));
    assert.equal(again.status, 200);
    assert.equal(again.body.duplicate, true);
    assert.equal(tool.tool.sandbox!.stats().uploads, uploads);
  });

  test('callbacks dropped: the poller finds the result', async () => {
    tool.tool.sandbox!.setFaults({ callbacks: 'drop' });
    try {
      const receipt = await submit('student-3', 'dropped.txt', essay('volcanoes'));
      const row = await waitFor(String(receipt.body.submissionId), ['graded']);
      assert.ok((await events(row.id)).some((e) => /polling/.test(e.reason)));
    } finally {
      tool.tool.sandbox!.setFaults({});
    }
  });

  test('callbacks duplicated: one result, one scoring event', async () => {
    tool.tool.sandbox!.setFaults({ callbacks: 'duplicate' });
    try {
      const receipt = await submit('student-3', 'twice.txt', essay('rivers'));
      const id = String(receipt.body.submissionId);
      await waitFor(id, ['graded']);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal((await events(id)).filter((e) => e.to_state === 'scored').length, 1);
    } finally {
      tool.tool.sandbox!.setFaults({});
    }
  });

  test('a callback that arrives before the upload job has recorded the paper: one paper, one score', async () => {
    const sandbox = tool.tool.sandbox!;
    const before = sandbox.stats();
    // The service analyses (300 ms) and calls back while its answer to the upload is still on the way (5 s).
    sandbox.setFaults({ uploadAnswerDelayMs: 5000 });
    try {
      const receipt = await submit('student-2', 'early.txt', essay('tides'));
      const id = String(receipt.body.submissionId);
      // However late the upload job starts on a busy machine, the callback comes 300 ms after the paper arrived,
      // and the paper's id only with the upload's answer, 5 s after it.
      await eventually(() => sandbox.stats().callbacksSent > before.callbacksSent, 'the service called back', 30_000);
      assert.equal((await submission(id)).paper_id, null, 'the callback came before the paper id was recorded');
      await waitFor(id, ['graded']);
      assert.equal((await events(id)).filter((e) => e.to_state === 'scored').length, 1);
      assert.equal(sandbox.stats().papers - before.papers, 1);
    } finally {
      sandbox.setFaults({});
    }
  });

  test('an unreadable document (flag 1) ends failed, with the reason shown to the student', async () => {
    const receipt = await submit('student-1', 'broken.pdf', Buffer.from('%PDF-1.4\nthis is not really a pdf\n'));
    assert.equal(receipt.status, 201);
    const row = await waitFor(String(receipt.body.submissionId), ['failed']);
    assert.match(String(row.failure_reason), /could not read the document/);
  });
});

describe('the service in trouble', () => {
  test('"send again" while the paper is being sent queues nothing more, and the paper arrives once', async () => {
    const sandbox = tool.tool.sandbox!;
    const before = sandbox.stats().uploads;
    sandbox.setFaults({ uploadHoldMs: 6000 });
    try {
      const sent = await submit('student-1', 'slow-link.txt', essay('a paper on a slow link'));
      assert.equal(sent.status, 201);
      const id = String(sent.body.submissionId);
      await waitFor(id, ['uploading']);
      const resend = await fetch(`${tool.url}${assignmentPath}/submissions/${id}/resend`, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams({ ltik: ltiks.get('instructor-1')! }),
      });
      assert.equal(resend.status, 303);
      assert.match(
        new URL(resend.headers.get('location')!, tool.url).searchParams.get('notice') ?? '',
        /is being sent to the checking service right now; nothing more was queued/,
      );
      sandbox.setFaults({});
      await waitFor(id, ['scored', 'graded']);
      assert.equal(sandbox.stats().uploads - before, 1);
    } finally {
      sandbox.setFaults({});
    }
  });

  test('429 and 503 for a while, then recovery: every paper is scored exactly once at the service', async () => {
    const sandbox = tool.tool.sandbox!;
    const before = sandbox.stats().papers;
    sandbox.setFaults({ rateLimit: { ratio: 0.5, retryAfterSeconds: 1 } });
    const receipts = await Promise.all(
      ['student-1', 'student-2', 'student-3'].map((s, i) => submit(s, `storm-${i}.txt`, essay(`storm topic ${i}`))),
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    sandbox.setFaults({ outage: true });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    sandbox.setFaults({});
    for (const receipt of receipts) await waitFor(String(receipt.body.submissionId), ['graded'], 60_000);
    assert.equal(sandbox.stats().papers - before, receipts.length, 'a paper reached the service twice, or not at all');
  });

  // A 500 of the service, or a gateway's 502 or 504, can come after the service stored the paper.
  for (const status of [500, 502, 504] as const) {
    test(`a ${status} after the service stored the paper: the next attempt finds it there and sends nothing again`, async () => {
      const sandbox = tool.tool.sandbox!;
      const before = sandbox.stats().papers;
      sandbox.setFaults({ uploadAnswerStatus: status });
      let id: string;
      try {
        const receipt = await submit('student-2', `gateway-${status}.txt`, essay(`gateway answer ${status}`));
        assert.equal(receipt.status, 201);
        id = String(receipt.body.submissionId);
        const deadline = Date.now() + 30_000;
        while (sandbox.stats().papers === before) {
          assert.ok(Date.now() < deadline, 'the paper never reached the service');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // The answer is lost at least once more while the fault stays: a retry that sent the file again shows.
        await new Promise((resolve) => setTimeout(resolve, 2500));
      } finally {
        sandbox.setFaults({});
      }
      await waitFor(id, ['graded'], 60_000);
      assert.equal(sandbox.stats().papers - before, 1, 'the paper reached the service more than once');
      assert.ok(
        (await events(id)).some((event) => /Found at the service/.test(event.reason ?? '')),
        'the retry looked the paper up',
      );
    });
  }
});

describe('bad uploads get a clear answer and leave nothing behind', () => {
  const cases: Array<[string, () => Promise<{ status: number; body: Record<string, unknown> }>, number, RegExp]> = [
    ['an empty file', () => submit('student-1', 'empty.txt', ''), 400, /empty/],
    [
      'an executable renamed .pdf',
      () => submit('student-1', 'essay.pdf', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4000, 1)])),
      422,
      /not a document type/,
    ],
    [
      'a zip named .docx',
      () => submit('student-1', 'essay.docx', Buffer.from('PK\u0003\u0004\u0014\u0000\u0000\u0000notes.txt')),
      422,
      /not a document type/,
    ],
    [
      'two files in one request',
      () =>
        submit('student-1', 'a.txt', 'first paper text', (form) => form.append('file', new Blob(['second']), 'b.txt')),
      400,
      /one file/,
    ],
  ];
  for (const [name, run, status, sentence] of cases) {
    test(name, async () => {
      const count = (
        await db()
          .selectFrom('submission')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
      const result = await run();
      assert.equal(result.status, status, JSON.stringify(result.body));
      assert.match(String(result.body.error), sentence);
      assert.equal(
        (
          await db()
            .selectFrom('submission')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
        count,
      );
      assert.equal(await leftBehind(), 0, 'a refused file was left in the database');
    });
  }

  test('no file field at all', async () => {
    const form = new FormData();
    form.append('note', 'forgot the file');
    const response = await fetch(`${tool.url}${assignmentPath}/submissions`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${ltiks.get('student-1')}` },
    });
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as { error: string }).error, /No file was attached/);
  });

  test('a file over the assignment limit is refused (413) without storing it', async () => {
    const assignmentId = assignmentPath.split('/').pop()!;
    const current = await db()
      .selectFrom('assignment')
      .select('settings')
      .where('id', '=', assignmentId)
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('assignment')
      .set({ settings: JSON.stringify({ ...(current.settings as object), maxFileMb: 1 }) })
      .where('id', '=', assignmentId)
      .execute();
    try {
      const result = await submit('student-1', 'big.txt', 'word '.repeat(400_000));
      assert.equal(result.status, 413);
      assert.match(String(result.body.error), /larger than this assignment allows \(1 MB/);
      assert.equal(await leftBehind(), 0, 'a refused file was left in the database');
    } finally {
      await db()
        .updateTable('assignment')
        .set({ settings: JSON.stringify(current.settings) })
        .where('id', '=', assignmentId)
        .execute();
    }
  });

  test('a name with path parts and invisible characters is kept only as a clean label', async () => {
    const result = await submit('student-3', '../../etc/pass\u200bwd\u202e.txt', essay('label test'));
    assert.equal(result.status, 201);
    assert.equal(result.body.fileName, 'passwd.txt');
  });

  test('raw control characters in the part header are refused as malformed, nothing stored', async () => {
    const result = await submit('student-3', 'essay\u0007\u001b.txt', essay('control test'));
    assert.equal(result.status, 400);
    assert.match(String(result.body.error), /form data is malformed/);
    assert.equal(await leftBehind(), 0, 'a refused file was left in the database');
  });

  test('an instructor cannot submit, and a student of another assignment cannot either', async () => {
    const instructor = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay-1' });
    const response = await fetch(`${tool.url}${assignmentPath}/submissions`, {
      method: 'POST',
      body: new FormData(),
      headers: { authorization: `Bearer ${instructor.ltik}` },
    });
    assert.equal(response.status, 403);
  });
});

describe("a student's data on request (CLI)", () => {
  test('export lists the submissions with their history; erase deletes the papers at the service and every row here', async () => {
    const env = { ...tool.database.env, ENCRYPTION_KEY: tool.config.encryptionKey, PUBLIC_URL: tool.url };
    const issuer = lms.platform.registration().issuer;
    const exported = await runToExit(
      'cli/main.ts',
      ['student', 'export', '--issuer', issuer, '--subject', 'student-2'],
      env,
    );
    assert.equal(exported.code, 0, exported.stderr);
    const data = JSON.parse(exported.stdout) as {
      user: { subject: string };
      submissions: Array<{ paper_id: string | null; history: unknown[] }>;
    };
    assert.equal(data.user.subject, 'student-2');
    assert.ok(data.submissions.length >= 2);
    assert.ok(data.submissions.every((s) => s.history.length >= 1));
    const papersAtService = data.submissions.filter((s) => s.paper_id !== null).length;

    const withoutService = await runToExit(
      'cli/main.ts',
      ['student', 'erase', '--issuer', issuer, '--subject', 'student-2'],
      env,
    );
    assert.equal(withoutService.code, 1);
    assert.match(withoutService.stderr, /set CHECKER_URL/);

    const before = tool.tool.sandbox!.stats().papers;
    const erased = await runToExit('cli/main.ts', ['student', 'erase', '--issuer', issuer, '--subject', 'student-2'], {
      ...env,
      CHECKER_URL: tool.tool.sandbox!.url,
      CHECKER_USERNAME: DEMO_USER.email,
      CHECKER_PASSWORD: DEMO_USER.password,
    });
    assert.equal(erased.code, 0, erased.stderr);
    assert.match(erased.stdout, /The student's data is erased\./);
    assert.equal(before - tool.tool.sandbox!.stats().papers, papersAtService);
    const left = await db().selectFrom('lti_user').select('id').where('subject', '=', 'student-2').execute();
    assert.deepEqual(left, []);
    const again = await runToExit(
      'cli/main.ts',
      ['student', 'export', '--issuer', issuer, '--subject', 'student-2'],
      env,
    );
    assert.equal(again.code, 1);
    assert.match(again.stderr, /holds nothing about that student/);
  });

  test('a paper still on its way to the service is kept with its record, and the erasure asks to be run again', async () => {
    const env = {
      ...tool.database.env,
      ENCRYPTION_KEY: tool.config.encryptionKey,
      PUBLIC_URL: tool.url,
      CHECKER_URL: tool.tool.sandbox!.url,
      CHECKER_USERNAME: DEMO_USER.email,
      CHECKER_PASSWORD: DEMO_USER.password,
    };
    const erase = () =>
      runToExit(
        'cli/main.ts',
        ['student', 'erase', '--issuer', lms.platform.registration().issuer, '--subject', 'student-3'],
        env,
      );
    const sandbox = tool.tool.sandbox!;
    sandbox.setFaults({ uploadHoldMs: 20_000 });
    try {
      const sent = await submit('student-3', 'on-its-way.txt', essay('a paper erased while it travels'));
      assert.equal(sent.status, 201);
      const id = String(sent.body.submissionId);
      await waitFor(id, ['uploading']);
      const early = await erase();
      assert.equal(early.code, 1);
      assert.match(early.stderr, /1 paper\(s\) of the student are still on their way to the checking service/);
      assert.equal((await submission(id)).state, 'uploading', 'the record of the paper on its way was deleted');
    } finally {
      sandbox.setFaults({});
    }
    const arrived = await db()
      .selectFrom('submission')
      .select('id')
      .where('file_label', '=', 'on-its-way.txt')
      .executeTakeFirstOrThrow();
    await waitFor(arrived.id, ['scored', 'graded'], 60_000);
    const papersBefore = sandbox.stats().papers;
    const done = await erase();
    assert.equal(done.code, 0, done.stderr);
    assert.ok(sandbox.stats().papers < papersBefore, 'the paper that arrived was not deleted at the service');
    assert.deepEqual(await db().selectFrom('lti_user').select('id').where('subject', '=', 'student-3').execute(), []);
  });
});
