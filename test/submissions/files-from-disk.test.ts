// Papers an earlier release received and kept in DATA_DIR/uploads, with their path in the database, reach the
// service from the database after the upgrade. While the tool is stopped, the database is given two submissions as
// that release wrote them (the row with the file's absolute path, its first event), one whose file is in this
// DATA_DIR and one whose file is not on this machine yet (another machine's folder), and the folder a file left by
// an upload that release never finished. The tool then moves the first file into the database at its start (the disk
// emptied, /metrics counting it), warns of the second, and sends both with the bytes the student sent, the second
// once its file can be read. (Migration 0030 only adds; what it meets is any database of migration 0025.)
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { Jobs, QUEUES } from '../../src/jobs/index.js';
import { createLogger } from '../../src/logger.js';
import { openCourse } from '../support/course.js';
import type { TestDatabase } from '../support/db.js';
import { startToolProcess, type ToolProcess } from '../support/process.js';
import { storedChunks } from '../support/stored-files.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

let database: TestDatabase | undefined;
let running: TestTool | undefined;
let process_: ToolProcess | undefined;
let opened: Database | undefined;
let lms: { close(): Promise<void> } | undefined;
const elsewhere = mkdtempSync(join(tmpdir(), 'olti-other-machine-'));
after(async () => {
  await running?.tool.close();
  await opened?.close();
  await process_?.stop();
  await lms?.close();
  await database?.drop();
  rmSync(elsewhere, { recursive: true, force: true });
});

/** A text paper of `bytes` bytes, its own words. */
const paper = (seed: string, bytes: number) =>
  Buffer.from(
    `${seed}: ${'Rivers carve valleys and people settle along them over long ages. '.repeat(bytes / 60)}`,
  ).subarray(0, bytes);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Whether the sandbox (in this tool, keeping its papers in DATA_DIR/sandbox/uploads) holds a paper with these bytes. */
function serviceHolds(dataDir: string, bytes: Buffer): boolean {
  const dir = join(dataDir, 'sandbox', 'uploads');
  return existsSync(dir) && readdirSync(dir).some((name) => readFileSync(join(dir, name)).equals(bytes));
}

test("an earlier release's received files move into the database and reach the service from there", async () => {
  running = await startTestTool();
  database = running.database;
  const port = Number(new URL(running.url).port);
  const course = await openCourse(running, { clientId: 'files-from-disk' });
  lms = course.lms;
  for (const userId of ['student-a', 'student-b']) {
    course.lms.platform.addUser({ id: userId, name: userId, email: `${userId}@example.edu`, roles: ROLES.learner });
    const student = await launch(course.lms.platform, { userId, resourceLinkId: 'essay' });
    assert.equal(student.status, 200);
  }
  await running.tool.close();
  running = undefined;

  // What the earlier release left: its submissions with their files on disk.
  const earlier = await openDatabase({
    url: database.url,
    dataDir: database.dataDir,
    poolSize: 2,
    embedded: 'serve',
  });
  const assignmentId = course.path.split('/').pop()!;
  const here = { id: randomUUID(), bytes: paper('here', 1_500_000), user: 'student-a' };
  const away = { id: randomUUID(), bytes: paper('away', 40_000), user: 'student-b' };
  const uploads = join(database.dataDir, 'uploads');
  mkdirSync(join(uploads, 'incoming'), { recursive: true });
  writeFileSync(join(uploads, here.id), here.bytes);
  const awayPath = join(elsewhere, 'uploads', away.id);
  // Left by an upload the earlier release never finished, two hours ago.
  const abandoned = join(uploads, 'incoming', `${randomUUID()}.part`);
  writeFileSync(abandoned, 'half a paper');
  utimesSync(abandoned, new Date(Date.now() - 7_200_000), new Date(Date.now() - 7_200_000));
  for (const [submission, path] of [
    [here, join(uploads, here.id)],
    [away, awayPath],
  ] as const) {
    // As the earlier release's recordSubmission wrote it: the row with its path, its first event.
    await earlier.pool.query(
      `INSERT INTO submission (id, assignment_id, user_id, attempt, state, file_label, file_type, file_size, sha256, stored_path, late)
       SELECT $1, $2, id, 1, 'received', $3, 'txt', $4, $5, $6, false FROM lti_user WHERE subject = $7`,
      [
        submission.id,
        assignmentId,
        `${submission.user}.txt`,
        submission.bytes.length,
        sha256(submission.bytes),
        path,
        submission.user,
      ],
    );
    await earlier.pool.query(
      `INSERT INTO submission_event (submission_id, to_state, reason) VALUES ($1, 'received', 'File received and stored')`,
      [submission.id],
    );
  }
  await earlier.close();

  // This release, as a process of its own (ltijs is set up once per process): the files it can read moved in at start.
  const tool = await startToolProcess({
    ...database.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SANDBOX_DELAY_MS: '300',
    JOB_POLLING_SECONDS: '0.5',
    JOB_RETRY_DELAY_SECONDS: '1',
    JOB_RETRY_LIMIT: '30',
  });
  process_ = tool;
  await eventually(
    () => tool.output().includes('Moved 1 received files'),
    'the file in DATA_DIR was not moved at start',
    30_000,
    200,
  );
  const reading = await openDatabase({
    url: database.url,
    dataDir: database.dataDir,
    poolSize: 2,
    embedded: 'share',
  });
  opened = reading;
  const db = reading.db;
  const moved = await db
    .selectFrom('submission')
    .select(['file_id', 'stored_path'])
    .where('id', '=', here.id)
    .executeTakeFirstOrThrow();
  assert.notEqual(moved.file_id, null);
  assert.equal(moved.stored_path, null);
  assert.deepEqual(await storedChunks(db), { chunks: 2, bytes: here.bytes.length });
  assert.ok(!existsSync(uploads), 'the upload folder (the moved file, the abandoned one) is still there');
  assert.match(tool.output(), /1 received files kept on disk by an earlier release are not at their recorded paths/);
  const metrics = await (await fetch(`${tool.url}/metrics`)).text();
  assert.match(metrics, /^originality_received_files 1$/m);
  assert.match(metrics, new RegExp(`^originality_received_file_bytes ${here.bytes.length}$`, 'm'));

  // Their upload jobs, as the earlier release queued them.
  const jobs = new Jobs(reading.pool, loadConfig(database.env).jobs, createLogger({ level: 'silent' }));
  await jobs.start();
  try {
    for (const submission of [here, away])
      await jobs.send(QUEUES.upload, { submissionId: submission.id }, { key: submission.id });
  } finally {
    await jobs.stop(0);
  }
  const stateOf = async (id: string) =>
    (await db.selectFrom('submission').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;
  const sent = async (id: string) => !['received', 'uploading'].includes(await stateOf(id));
  await eventually(() => sent(here.id), 'the moved paper was not sent', 30_000, 200);
  assert.ok(serviceHolds(database.dataDir, here.bytes), 'the service does not hold the bytes the student sent');
  assert.deepEqual(await storedChunks(db), { chunks: 0, bytes: 0 }, 'the sent file is still kept');

  // The other waits while its file is on no disk this process reads, and goes once it is.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  assert.equal(await stateOf(away.id), 'received');
  mkdirSync(join(elsewhere, 'uploads'), { recursive: true });
  writeFileSync(awayPath, away.bytes);
  await eventually(() => sent(away.id), 'the paper whose file appeared was not sent', 60_000, 200);
  assert.ok(serviceHolds(database.dataDir, away.bytes), 'the service does not hold the bytes of the second paper');
  assert.ok(!existsSync(awayPath), 'the second file was left on disk');
  assert.deepEqual(await storedChunks(db), { chunks: 0, bytes: 0 });
});
