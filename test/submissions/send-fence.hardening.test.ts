// A worker cut off from the database in the middle of sending a paper: its lease on the send lapses, a second
// worker takes it over and sends the paper, and then the first one's database comes back. The first must not
// send the paper again (nor record anything): the lease is a fence, confirmed right before the request goes out.
import { gradebookSink } from '../../src/grades/gradebook-sink.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../src/db/index.js';
import { uploadSubmission, type PipelineDeps } from '../../src/submissions/pipeline.js';
import { LeaseLost } from '../../src/submissions/send-lease.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { databaseThrough, startDbGate, type DbGate } from '../support/db-gate.js';
import { recordFigures, tally } from '../support/hardening.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

let tool: TestTool;
let course: TestCourse;
let gate: DbGate;
let cutOff: Kysely<DatabaseSchema>;
const db = () => tool.tool.database.db;
const quiet = { info: () => undefined, warn: () => undefined };

before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '300', JOB_POLLING_SECONDS: '0.5', POLL_SCHEDULE_SECONDS: '1,2' });
  // The two senders are this test's: the tool's own worker leaves uploads alone.
  await tool.tool.jobs.offWork('submission-upload');
  course = await openCourse(tool, { clientId: 'fence-client' });
  gate = await startDbGate(tool.tool.database.pool.options.connectionString!);
  cutOff = databaseThrough(gate, 3);
});
after(async () => {
  gate?.open();
  await cutOff?.destroy().catch(() => undefined);
  await gate?.stop();
  await course?.lms.close();
  await tool?.stop();
});

describe('a sender that loses its lease while cut off from the database', () => {
  test('never sends: the paper is at the service once, sent by the worker that took over', async (t) => {
    const sandbox = tool.tool.sandbox!;
    const id = await course.submit(
      'student-1',
      'A paper whose first sender loses the database just before it sends the file.',
    );
    const shared = {
      services: tool.tool.services,
      jobs: tool.tool.jobs,
      sink: gradebookSink(tool.tool.database.db, tool.tool.jobs),
      pollScheduleSeconds: [1, 2],
      logger: quiet,
    };
    const first: PipelineDeps = { ...shared, db: cutOff, sendLeaseSeconds: 1.5 };
    const second: PipelineDeps = { ...shared, db: db(), sendLeaseSeconds: 30 };

    // The first worker's database becomes unreachable as it reads the author's name, its last read before sending.
    const partition = gate.closeOn('"lti_user"');
    const firstRun = uploadSubmission(first, id, 1).then(
      () => null,
      (error: unknown) => error,
    );
    await partition;
    const leased = await db()
      .selectFrom('submission')
      .select(['state', 'send_lease'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(leased.state, 'uploading');
    assert.ok(leased.send_lease, 'the first worker holds the lease');
    // Its lease lapses (it cannot renew it); the second worker takes over, finds no paper, and sends it, over a
    // slow link (the service reads it only after a while).
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    sandbox.setFaults({ uploadHoldMs: 4_000 });
    const secondRun = uploadSubmission(second, id, 2);
    for (
      let tries = 0;
      (await db().selectFrom('submission').select('send_lease').where('id', '=', id).executeTakeFirstOrThrow())
        .send_lease === leased.send_lease;
      tries += 1
    ) {
      assert.ok(tries < 100, 'the second worker took over the lease');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // The partition ends while the second worker's file is on its way: the first goes on from where it stood,
    // right before its own send, with the file still on disk.
    gate.open();
    const outcome = await firstRun;
    await secondRun;
    sandbox.setFaults({});
    assert.ok(outcome instanceof LeaseLost, `the first worker ended with ${String(outcome)}`);

    await eventually(
      async () =>
        (await db().selectFrom('submission').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state ===
        'graded',
      'the paper was not graded',
      60_000,
      250,
    );
    const counts = await tally(db(), course.lms.platform, [id], sandbox.stats().papers);
    recordFigures({
      fault: 'sender cut off from the database lost its lease',
      survived:
        sandbox.stats().uploads === 1 && counts.lost === 0 && counts.duplicated === 0 && counts.gradesWrong === 0,
      ...counts,
    });
    t.diagnostic(
      `lease lost while cut off: ${sandbox.stats().uploads} upload at the service, ${counts.duplicated} duplicated, ${counts.gradesWrong} grades wrong`,
    );
    assert.equal(sandbox.stats().uploads, 1, 'the worker that lost its lease sent the paper again');
    assert.equal(sandbox.stats().papers, 1);
    const events = await db()
      .selectFrom('submission_event')
      .select('to_state')
      .where('submission_id', '=', id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((event) => event.to_state),
      ['received', 'uploading', 'processing', 'scored', 'graded'],
    );
  });
});
