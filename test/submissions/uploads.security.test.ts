// Attacks through the upload: a 1 GB body sent without a Content-Length (so the declared size cannot refuse it
// unread) must be refused once the assignment's limit is passed, not read to the end, and what was stored of it
// deleted; and file names that try to leave the upload directory are kept only as labels. (A zip bomb as .docx, a
// lying Content-Length and names with control characters are input cases in
// test/submissions/bad-uploads.hardening.test.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { openCourse, postStreamedUpload, streamedFileHead, type TestCourse } from '../support/course.js';
import { unclaimedChunks } from '../support/stored-files.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
let course: TestCourse;
const db = () => tool.tool.database.db;
const GB = 1024 ** 3;
const CHUNK = new Uint8Array(256 * 1024).fill(0x41);

before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '200', JOB_POLLING_SECONDS: '0.5' });
  course = await openCourse(tool, { clientId: 'security-uploads' });
});
after(async () => {
  await course?.lms.close();
  await tool?.stop();
});

async function studentLtik(userId: string): Promise<string> {
  await course.trySubmit(userId, 'A first paper, so that the student exists.');
  const student = await launch(course.lms.platform, { userId, resourceLinkId: 'essay' });
  assert.ok(student.ltik);
  return student.ltik;
}

describe('uploads an attacker sends', () => {
  test('1 GB streamed without a Content-Length is refused with 413 soon after the limit, and the tool stops reading it', async () => {
    const ltik = await studentLtik('student-big');
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(streamedFileHead('huge.txt'));
      },
      pull(controller) {
        if (sent >= GB) return controller.close();
        sent += CHUNK.length;
        controller.enqueue(CHUNK);
      },
    });
    const started = Date.now();
    const answer = await postStreamedUpload(`${tool.url}${course.path}`, ltik, body).catch(
      (error: unknown) => error as Error,
    );
    const sentAtAnswer = sent;
    // The assignment allows 100 MB by default: the answer comes after that, long before the gigabyte is through. How
    // much more the client has pushed by then is the machine's (a busy one answers later), so the bound is half of it.
    assert.ok(!(answer instanceof Error), `the connection failed instead of an answer: ${String(answer)}`);
    assert.equal(answer.status, 413);
    assert.match(((await answer.json()) as { error: string }).error, /larger than this assignment allows/);
    assert.ok(sentAtAnswer < GB / 2, `${Math.round(sentAtAnswer / 1024 / 1024)} MB were sent before the refusal`);
    // Whatever the client goes on sending, the tool soon stops reading it (a second's grace for the answer).
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const sentLater = sent;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.equal(
      sent,
      sentLater,
      `the tool still reads the refused upload: ${Math.round(sent / 1024 / 1024)} MB within ${Date.now() - started} ms`,
    );
    assert.ok(sent < GB);
    const stored = await db().selectFrom('submission').select('id').where('file_label', '=', 'huge.txt').execute();
    assert.deepEqual(stored, [], 'nothing recorded');
    assert.equal(await unclaimedChunks(db()), 0, 'no half-received file left in the database');
  });

  test('file names that try to leave the upload directory are kept as plain labels; the file is stored under an id', async () => {
    for (const [i, name] of [
      '../../etc/passwd',
      '..\\..\\windows\\win.ini',
      `${'a/'.repeat(200)}b.txt`,
      'x'.repeat(5000) + '.txt',
    ].entries()) {
      const ltik = await studentLtik(`student-paths-${i}`);
      const form = new FormData();
      form.append(
        'file',
        new Blob([`A paper sent under the name ${name}, with enough words to be a paper. `.repeat(3)]),
        name,
      );
      const response = await fetch(`${tool.url}${course.path}/submissions`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${ltik}`, accept: 'application/json' },
      });
      const text = await response.text();
      assert.ok(
        response.status === 201 || response.status === 400 || response.status === 403,
        `${name}: ${response.status} ${text}`,
      );
      if (response.status !== 201) continue;
      const receipt = JSON.parse(text) as { submissionId: string; fileName: string };
      assert.doesNotMatch(receipt.fileName, /[\\/]|\.\./, `${name} kept path parts: ${receipt.fileName}`);
      assert.ok(receipt.fileName.length <= 255);
      const row = await db()
        .selectFrom('submission')
        .select(['file_label', 'file_id'])
        .where('id', '=', receipt.submissionId)
        .executeTakeFirstOrThrow();
      // Named by an id of the tool's while it waits (null once the service has it), never by what the client sent.
      if (row.file_id) assert.match(row.file_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });
});
