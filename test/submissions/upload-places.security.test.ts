// Uploads that trickle a byte a second from one school's students must not hold the upload places every school
// shares: one person has at most UPLOADS_PER_PERSON (2) in flight, one platform at most half the places, and an upload
// that sends less than the floor (UPLOAD_MIN_KB_PER_SECOND over UPLOAD_RATE_WINDOW_SECONDS) is cut off with a
// sentence, long before HTTP_REQUEST_TIMEOUT_MS. School B's students upload beside a control without the attack.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openCourse, postStreamedUpload, streamedFileHead, studentLtik, type TestCourse } from '../support/course.js';
import { essay } from '../support/hardening.js';
import { unclaimedChunks } from '../support/stored-files.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const PLACES = 8;
const WINDOW_SECONDS = 2;
const say = (line: string) => process.stdout.write(`# ${line}\n`);

let tool: TestTool;
let schoolA: TestCourse;
let schoolB: TestCourse;

before(async () => {
  tool = await startTestTool({
    CONCURRENT_UPLOADS: String(PLACES),
    UPLOAD_MIN_KB_PER_SECOND: '1',
    UPLOAD_RATE_WINDOW_SECONDS: String(WINDOW_SECONDS),
    SANDBOX_DELAY_MS: '200',
    SHUTDOWN_TIMEOUT_MS: '1000',
  });
  schoolA = await openCourse(tool, { clientId: 'school-a' });
  schoolB = await openCourse(tool, { clientId: 'school-b' });
});
after(async () => {
  await schoolA?.lms.close();
  await schoolB?.lms.close();
  await tool?.stop();
});

/** An upload whose file comes a byte a second until `stop` is called; its answer, and when it came. */
function trickle(ltik: string, name: string) {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(streamedFileHead(`${name}.txt`));
      timer = setInterval(() => {
        if (!closed) controller.enqueue(new Uint8Array([0x41]));
      }, 1000);
    },
    cancel() {
      closed = true;
      clearInterval(timer);
    },
  });
  const started = Date.now();
  const answer = postStreamedUpload(`${tool.url}${schoolA.path}`, ltik, body).then(
    async (response) => ({ status: response.status, text: await response.text(), ms: Date.now() - started }),
    (error: unknown) => ({ status: 0, text: String(error), ms: Date.now() - started }),
  );
  return {
    answer: answer.finally(() => {
      closed = true;
      clearInterval(timer);
    }),
  };
}

/** Three of B's students upload an essay each: status and time of each upload. */
async function schoolBUploads(round: string) {
  const rows: Array<{ status: number; ms: number }> = [];
  for (let i = 0; i < 3; i += 1) {
    const ltik = await studentLtik(schoolB, `b-${round}-${i}`);
    const form = new FormData();
    form.append('file', new Blob([essay(`${round} ${i}`)]), `b-${i}.txt`);
    const started = Date.now();
    const response = await fetch(`${tool.url}${schoolB.path}/submissions`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${ltik}`, accept: 'application/json' },
    });
    await response.text();
    rows.push({ status: response.status, ms: Date.now() - started });
  }
  say(
    `${round}: B's uploads ${rows.filter((row) => row.status === 201).length} of 3 answered 201, ` +
      `slowest ${Math.max(...rows.map((row) => row.ms))} ms (${rows.map((row) => row.status).join(' ')})`,
  );
  return rows;
}

test("one school's trickling uploads hold no other school's places, and are cut off at the floor", async () => {
  const control = await schoolBUploads('control');
  for (const row of control) assert.equal(row.status, 201);

  // Five of A's students, each opening three uploads that send a byte a second: fifteen, more than every place.
  const ltiks = await Promise.all(Array.from({ length: 5 }, (_, i) => studentLtik(schoolA, `a-${i}`)));
  const trickles = ltiks.flatMap((ltik, i) =>
    Array.from({ length: tool.config.uploadsPerPerson + 1 }, (_, n) => trickle(ltik, `a-${i}-${n}`)),
  );
  const attackStarted = Date.now();
  // The attack holds its places once the tool has read the first bytes of A's uploads.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const attacked = await schoolBUploads('during the attack');
  const answers = await Promise.all(trickles.map((upload) => upload.answer));
  const byStatus = new Map<number, number[]>();
  for (const answer of answers) byStatus.set(answer.status, [...(byStatus.get(answer.status) ?? []), answer.ms]);
  say(
    `A's ${answers.length} trickling uploads: ` +
      [...byStatus]
        .map(([status, times]) => `${times.length} × ${status} (after at most ${Math.max(...times)} ms)`)
        .join(', ') +
      `; all answered ${Date.now() - attackStarted} ms after they began`,
  );

  for (const [i, row] of attacked.entries()) assert.equal(row.status, 201, `B's upload ${i + 1}`);
  // Past one person's and one platform's share, A's uploads are answered at once; the ones let in are cut at the
  // floor within a few windows, with the sentence, not held until the request's deadline (300 s).
  const cut = answers.filter((answer) => answer.status === 408);
  assert.ok(cut.length >= 1 && cut.length <= PLACES / 2, `${cut.length} cut at the floor`);
  for (const answer of cut) {
    assert.match(answer.text, /too slow: less than 1 KB a second arrived over 2 seconds/);
    assert.ok(answer.ms < 4 * WINDOW_SECONDS * 1000 + 2000, `cut after ${answer.ms} ms`);
  }
  assert.equal(answers.filter((answer) => answer.status === 503).length, answers.length - cut.length);
  // Nothing of the cut uploads is kept.
  assert.equal(await unclaimedChunks(tool.tool.database.db), 0);
});
