// The database gives back the space of what the tool deletes. PGlite runs no autovacuum worker, so on the embedded
// database the tool vacuums what it deletes once the dead rows are worth it: refused 20 MB uploads, stored and then
// deleted, leave DATA_DIR its size within a vacuum's round. /metrics shows the database's size and its dead rows on
// either engine.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openCourse, postStreamedUpload, streamedFileHead, studentLtik, type TestCourse } from '../support/course.js';
import { backend } from '../support/db.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const MB = 1024 * 1024;
const REFUSED_UPLOADS = 4;
const say = (line: string) => process.stdout.write(`# ${line}\n`);

let tool: TestTool;
let course: TestCourse;

before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '200', JOB_POLLING_SECONDS: '0.5' });
  course = await openCourse(tool, { clientId: 'database-space' });
});
after(async () => {
  await course?.lms.close();
  await tool?.stop();
});

/** The value of a sample without labels on /metrics, or null when it is not there. */
async function metric(name: string): Promise<number | null> {
  const text = await (await fetch(`${tool.url}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : null;
}

const sizeOf = (path: string) => Number(execFileSync('du', ['-sb', path], { encoding: 'utf8' }).split('\t')[0]);
/** The write-ahead log, whose old segments PostgreSQL keeps for reuse up to max_wal_size. */
const walBytes = () => sizeOf(join(tool.config.dataDir, 'pgdata', 'pg_wal'));
/** DATA_DIR but for its write-ahead log. */
const dataDirBytes = () => sizeOf(tool.config.dataDir) - walBytes();

/** 20 MB of bytes that are no document the assignment takes: stored as they arrive, then refused (422) and deleted. */
async function refusedUpload(ltik: string, n: number): Promise<number> {
  const piece = new Uint8Array(MB).fill(0x01 + (n % 8));
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(streamedFileHead(`noise-${n}.txt`));
    },
    pull(controller) {
      if (sent === 20) {
        controller.enqueue(new TextEncoder().encode('\r\n--' + '----streamed-upload--\r\n'));
        return controller.close();
      }
      sent += 1;
      controller.enqueue(piece);
    },
  });
  const answer = await postStreamedUpload(`${tool.url}${course.path}`, ltik, body);
  await answer.text();
  return answer.status;
}

test("/metrics shows the database's size and its dead rows", async () => {
  const bytes = await metric('originality_database_bytes');
  assert.ok(bytes !== null && bytes > MB, `originality_database_bytes ${bytes}`);
  assert.ok((await metric('originality_database_dead_rows')) !== null);
  assert.ok((await metric('originality_database_dead_bytes')) !== null);
});

test(
  'refused 20 MB uploads cost the embedded database nothing lasting',
  { skip: backend === 'pglite' ? false : "PostgreSQL's own autovacuum gives the space back on a server" },
  async () => {
    const ltik = await studentLtik(course, 'student-noise');
    const before = { database: (await metric('originality_database_bytes'))!, dataDir: dataDirBytes() };
    for (let n = 0; n < REFUSED_UPLOADS; n += 1) assert.equal(await refusedUpload(ltik, n), 422);
    const refused = { database: (await metric('originality_database_bytes'))!, dataDir: dataDirBytes() };
    say(
      `before: database ${(before.database / MB).toFixed(1)} MB, DATA_DIR but its write-ahead log ${(before.dataDir / MB).toFixed(1)} MB; ` +
        `right after ${REFUSED_UPLOADS} refused 20 MB uploads: ${(refused.database / MB).toFixed(1)} MB, ` +
        `${(refused.dataDir / MB).toFixed(1)} MB`,
    );
    // Within a few of the tool's rounds (every 10 s), the space is given back.
    await eventually(
      async () => (await metric('originality_database_bytes'))! - before.database < 20 * MB,
      `the refused uploads' space stayed: ${(((await metric('originality_database_bytes'))! - before.database) / MB).toFixed(1)} MB more`,
      60_000,
      1000,
    );
    const after = { database: (await metric('originality_database_bytes'))!, dataDir: dataDirBytes() };
    say(
      `a vacuum's round later: database ${(after.database / MB).toFixed(1)} MB, DATA_DIR ${(after.dataDir / MB).toFixed(1)} MB ` +
        `and its write-ahead log ${(walBytes() / MB).toFixed(1)} MB, ` +
        `dead rows ${await metric('originality_database_dead_rows')}`,
    );
    assert.ok(
      after.dataDir - before.dataDir < 20 * MB,
      `DATA_DIR grew ${((after.dataDir - before.dataDir) / MB).toFixed(1)} MB beside its write-ahead log`,
    );
    // The log's old segments are kept for reuse, up to the embedded server's max_wal_size (128 MB, embedded.ts).
    assert.ok(walBytes() <= 144 * MB, `the write-ahead log holds ${(walBytes() / MB).toFixed(1)} MB`);
  },
);
