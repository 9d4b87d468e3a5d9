// Admission limits and log redaction bypassed by letter case: a path is classified (which limit it counts against)
// and redacted (the callback's secret) by the same rule the router uses to answer it. `/ASSIGNMENTS/…/SUBMISSIONS`
// must not be an upload that no limit counts, nor `/CHECKER/CALLBACK/<secret>` a callback whose secret reaches the
// log; the Asset Processor's forms behind a session (EULA, attach) count as pages.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openCourse, studentLtik, type TestCourse } from '../support/course.js';
import { quietClient } from '../support/probe.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const CALLBACK_SECRET = 'LetterCaseCallbackSecret0123456789';

let tool: TestTool;
let course: TestCourse;
let ltik: string;

before(async () => {
  tool = await startTestTool({
    ASSET_PROCESSOR: 'on',
    CONCURRENT_UPLOADS: '1',
    CONCURRENT_PAGES: '1',
    CALLBACK_SECRET,
  });
  course = await openCourse(tool, { clientId: 'security-letter-case' });
  ltik = await studentLtik(course, 'student-1');
});
after(async () => {
  await course?.lms.close();
  await tool?.stop();
});

const port = () => Number(new URL(tool.url).port);
const shouting = () => course.path.replace('/assignments/', '/ASSIGNMENTS/');

async function submissionCount(): Promise<number> {
  const row = await tool.tool.database.db
    .selectFrom('submission')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function uploadTo(path: string) {
  const form = new FormData();
  form.append(
    'file',
    new Blob(['Glaciers carve valleys over long ages, and people settle below them. '.repeat(20)]),
    'essay.txt',
  );
  return fetch(`${tool.url}${path}?ltik=${encodeURIComponent(ltik)}`, {
    method: 'POST',
    body: form,
    headers: { accept: 'application/json' },
  });
}

/** A request that holds its slot: its head sent, its body never. */
const held = (method: string, path: string, type: string) =>
  quietClient(
    port(),
    [
      `${method} ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port()}`,
      `Content-Type: ${type}`,
      'Content-Length: 5000',
      '',
      '',
    ].join('\r\n'),
  );

describe('letter case in the path', () => {
  test('an upload to /ASSIGNMENTS/…/SUBMISSIONS while the one upload slot is taken is answered 503, and no paper is kept', async () => {
    const before = await submissionCount();
    const slot = await held(
      'POST',
      `${course.path}/submissions?ltik=${encodeURIComponent(ltik)}`,
      'multipart/form-data; boundary=x',
    );
    try {
      const answer = await uploadTo(`${shouting()}/SUBMISSIONS`);
      assert.equal(answer.status, 503, await answer.text());
    } finally {
      slot.socket.destroy();
    }
    assert.equal(await submissionCount(), before);
  });

  test('with the slot free, /ASSIGNMENTS/…/SUBMISSIONS is no address of the tool: 404, and no paper is kept', async () => {
    const before = await submissionCount();
    const answer = await uploadTo(`${shouting()}/SUBMISSIONS`);
    assert.equal(answer.status, 404, await answer.text());
    assert.equal(await submissionCount(), before);
    const page = await fetch(`${tool.url}${shouting()}?ltik=${encodeURIComponent(ltik)}`);
    assert.equal(page.status, 404);
  });

  test('a callback to /CHECKER/CALLBACK/<secret> is not taken, and the secret appears in no log line', async () => {
    for (const path of [
      `/CHECKER/CALLBACK/${CALLBACK_SECRET}`,
      `/checker/Callback/${CALLBACK_SECRET}`,
      `/Checker/callback/${CALLBACK_SECRET}?x=1`,
    ]) {
      const answer = await fetch(`${tool.url}${path}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ paper_id: 1 }),
      });
      assert.equal(answer.status, 404, path);
    }
    // The request log line is written once the answer is sent.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(
      tool.logs.some((line) => /"path":"\/CHECKER\/CALLBACK\/\[redacted\]"/.test(line)),
      'the requests are logged, redacted',
    );
    assert.deepEqual(
      tool.logs.filter((line) => line.includes(CALLBACK_SECRET)),
      [],
    );
  });

  for (const form of ['/asset-processor/attach', '/asset-processor/eula']) {
    test(`a post to ${form} counts as a page: while it holds the one page slot, the next page is answered 503`, async () => {
      const slot = await held('POST', form, 'application/x-www-form-urlencoded');
      try {
        const page = await fetch(`${tool.url}${course.path}?ltik=${encodeURIComponent(ltik)}`);
        assert.equal(page.status, 503, await page.text());
      } finally {
        slot.socket.destroy();
      }
      await eventually(
        async () => (await fetch(`${tool.url}${course.path}?ltik=${encodeURIComponent(ltik)}`)).status === 200,
        'the slot is free again once the post is gone',
      );
    });
  }
});
