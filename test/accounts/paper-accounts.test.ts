// Two service accounts at two services that hand out the same paper ids (each sandbox counts from 500001): a
// paper is known by (account, id), and each submission gets its own account's result. The poller is held off,
// so the callbacks (which name only the id) must find the right submission by themselves.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CheckerClient } from '../../src/checker/client.js';
import { DEMO_USER, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { openCourse, openCourseWithOwnAccount, type TestCourse } from '../support/course.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';

const UNIVERSITY = { email: 'integration@uni-b.example.edu', password: 'uni-b secret', name: 'University B' };

let tool: TestTool;
let otherService: Sandbox;
let courseA: TestCourse;
let courseB: TestCourse;
const db = () => tool.tool.database.db;

before(async () => {
  // The default service analyses slowly, the other quickly: the other's callback comes first, for an id that
  // both accounts' submissions hold.
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '4000',
    POLL_SCHEDULE_SECONDS: '600',
    ...FAST_JOBS,
  });
  otherService = await startSandbox({
    users: [UNIVERSITY],
    delayMs: 300,
    callbackUrl: `${tool.url}/checker/callback/${tool.config.callbackSecret}`,
  });
  courseA = await openCourse(tool, { clientId: 'uni-a' });
  courseB = await openCourseWithOwnAccount(tool, {
    clientId: 'uni-b',
    serviceUrl: otherService.url,
    login: UNIVERSITY,
  });
});
after(async () => {
  await courseA?.lms.close();
  await courseB?.lms.close();
  await otherService?.close();
  await tool?.stop();
});

async function settled(id: string): Promise<{
  paper_id: string | null;
  paper_account_id: string | null;
  report_key: string | null;
  similarity: string | null;
  assignment_id: string;
}> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const row = await db()
      .selectFrom('submission')
      .select(['state', 'paper_id', 'paper_account_id', 'report_key', 'similarity', 'assignment_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (row.state === 'scored' || row.state === 'graded') return row;
    assert.ok(Date.now() < deadline, `submission ${id} stayed ${row.state}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test("equal paper ids at two services: each submission is settled by its own callback with its own account's result", async () => {
  const fromA = await courseA.submit(
    'student-1',
    'Rivers carve valleys over long ages, and the sea takes the sand. '.repeat(20),
  );
  const fromB = await courseB.submit(
    'student-1',
    'Glaciers grind mountains into plains while the summers shorten. '.repeat(20),
  );
  const [a, b] = await Promise.all([settled(fromA), settled(fromB)]);
  assert.equal(a.paper_id, b.paper_id, 'both services handed out the same paper id');
  assert.notEqual(a.paper_account_id, b.paper_account_id);
  assert.equal(a.paper_account_id, null, 'platform A uses the default account');

  // What each service itself says of its paper with that id.
  const folderOf = async (assignmentId: string) =>
    Number(
      (await db().selectFrom('assignment').select('folder_id').where('id', '=', assignmentId).executeTakeFirstOrThrow())
        .folder_id,
    );
  const atDefault = await new CheckerClient({
    baseUrl: tool.tool.sandbox!.url,
    username: DEMO_USER.email,
    password: DEMO_USER.password,
  }).getPaper(await folderOf(a.assignment_id), Number(a.paper_id));
  const atOther = await new CheckerClient({
    baseUrl: otherService.url,
    username: UNIVERSITY.email,
    password: UNIVERSITY.password,
  }).getPaper(await folderOf(b.assignment_id), Number(b.paper_id));
  assert.equal(a.report_key, atDefault.reportKey, "submission A holds the default account's result");
  assert.equal(b.report_key, atOther.reportKey, "submission B holds its own account's result");
  assert.notEqual(a.report_key, b.report_key);
  // Each read back once, by its own callback: no poll was due.
  const scoredEvents = await db()
    .selectFrom('submission_event')
    .select(['submission_id', 'reason'])
    .where('to_state', '=', 'scored')
    .where('submission_id', 'in', [fromA, fromB])
    .execute();
  assert.equal(scoredEvents.length, 2);
  for (const event of scoredEvents) assert.match(event.reason, /announced by the service/);
});
