// An upload job that outlives its expiry while its file is still on its way (a large paper over a slow link):
// pg-boss hands the job to another run while the first still sends. The second run must not send the paper
// again; it waits for the first, which holds the lease on sending it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openCourse, type TestCourse } from '../support/course.js';
import { recordFigures, tally } from '../support/hardening.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
let course: TestCourse;
const db = () => tool.tool.database.db;

before(async () => {
  // Jobs expire after 5 s (pg-boss looks every 5 s); the upload is held 14 s, so its job expires at least once.
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '300',
    JOB_EXPIRE_SECONDS: '5',
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '20',
    POLL_SCHEDULE_SECONDS: '1,2',
  });
  course = await openCourse(tool, { clientId: 'lease-client' });
});
after(async () => {
  await course?.lms.close();
  await tool?.stop();
});

describe('a paper still on its way when its job expires', () => {
  test('is sent once: the job run that takes over waits for the sending one, and the submission is scored once', async (t) => {
    const sandbox = tool.tool.sandbox!;
    sandbox.setFaults({ uploadHoldMs: 14_000 });
    const id = await course.submit(
      'student-1',
      Array.from({ length: 40 }, (_, i) => `A long paper, sentence ${i}, on a slow link.`).join(' '),
    );
    const deadline = Date.now() + 120_000;
    for (;;) {
      const row = await db().selectFrom('submission').select('state').where('id', '=', id).executeTakeFirstOrThrow();
      if (row.state === 'graded') break;
      assert.ok(Date.now() < deadline, `still ${row.state}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // A second sending, were there one, started before the first ended and is held as long: it would be at the
    // service within the hold time after the first. (The job's row says nothing of it: pg-boss marks a job done
    // when any of its runs ends.)
    await new Promise((resolve) => setTimeout(resolve, 16_000));
    sandbox.setFaults({});
    const runs = (
      await sql<{
        retry_count: number;
      }>`SELECT retry_count FROM pgboss.job WHERE name = 'submission-upload' AND singleton_key = ${id}`.execute(db())
    ).rows;
    const expired = runs.reduce((total, job) => total + Number(job.retry_count), 0);
    const counts = await tally(db(), course.lms.platform, [id], sandbox.stats().papers);
    recordFigures({
      fault: 'upload job expired mid-send',
      survived: expired > 0 && counts.lost === 0 && counts.duplicated === 0 && counts.gradesWrong === 0,
      ...counts,
    });
    t.diagnostic(
      `upload job expired mid-send: ${expired} runs taken over while the file was held; ${counts.submissions} submission, ${counts.lost} lost, ${counts.duplicated} duplicated, ${counts.gradesWrong} grades wrong`,
    );
    assert.ok(expired > 0, 'the upload job expired and ran again while the file was held');
    assert.equal(sandbox.stats().uploads, 1, 'the paper was sent to the service more than once');
    assert.equal(sandbox.stats().papers, 1);
    const events = await db()
      .selectFrom('submission_event')
      .select('to_state')
      .where('submission_id', '=', id)
      .execute();
    assert.deepEqual(
      events.map((event) => event.to_state).filter((state) => state === 'processing' || state === 'scored'),
      ['processing', 'scored'],
    );
    const lease = await db()
      .selectFrom('submission')
      .select(['send_lease', 'send_lease_until'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(lease, { send_lease: null, send_lease_until: null }, 'the lease was given up');
  });
});
