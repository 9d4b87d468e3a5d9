// Grade posts call each school's LMS, and one LMS's slow gradebook must not hold another's. LMS A's AGS endpoints
// answer after several seconds; a dozen of A's students are scored and their grade posts hang at A; then a student of
// LMS B is scored. B's score reaches B's gradebook within seconds of being scored, not after A's posts end, and A
// holds no more than its pace of the grade posts' places (the process's JOB_CONCURRENCY at first).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openCourse, type TestCourse } from '../support/course.js';
import { essay } from '../support/hardening.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const CONCURRENCY = 4;
const A_STUDENTS = 12;
/** How long A's gradebook holds each request (a grade post makes one or two). */
const SLOW_MS = 12_000;
/** B's score in its gradebook within this of being scored: a few of the job queue's polls on a loaded machine. */
const B_WITHIN_MS = 8_000;

let tool: TestTool;
let a: TestCourse;
let b: TestCourse;

before(async () => {
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '300',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
    JOB_CONCURRENCY: String(CONCURRENCY),
    SHUTDOWN_TIMEOUT_MS: '1000',
  });
  a = await openCourse(tool, { clientId: 'school-a', title: 'Essay at school A' });
  b = await openCourse(tool, { clientId: 'school-b', title: 'Essay at school B' });
});
after(async () => {
  a?.lms.platform.setFaults({});
  await a?.lms.close();
  await b?.lms.close();
  await tool?.stop();
});

const stateOf = async (submissionId: string) =>
  (
    await tool.tool.database.db
      .selectFrom('submission')
      .select('state')
      .where('id', '=', submissionId)
      .executeTakeFirstOrThrow()
  ).state;

describe("one LMS slow to take grades cannot stall another school's", () => {
  test(
    "LMS B's score reaches its gradebook within seconds behind a dozen of LMS A's slow grade posts",
    { timeout: 180_000 },
    async () => {
      a.lms.platform.setFaults({ agsDelayMs: SLOW_MS });
      let mostOfA = 0;
      const watch = setInterval(() => (mostOfA = Math.max(mostOfA, a.lms.platform.heldRequests())), 20);
      try {
        await Promise.all(
          Array.from({ length: A_STUDENTS }, (_, i) => a.submit(`student-a-${i}`, essay(`school A paper ${i}`))),
        );
        await eventually(
          () => a.lms.platform.heldRequests() >= CONCURRENCY,
          "LMS A's grade posts did not take their places",
          60_000,
          50,
        );
        const paperB = await b.submit('student-b', essay('school B paper'));
        await eventually(
          async () => ['scored', 'graded'].includes(await stateOf(paperB)),
          "B's paper was not scored",
          60_000,
          20,
        );
        const scored = Date.now();
        await eventually(
          () => b.lms.platform.gradebook().some((row) => row.userId === 'student-b'),
          'B got no score at all',
          120_000,
          50,
        );
        const gradedMs = Date.now() - scored;
        console.log(
          `LMS B's score in its gradebook ${gradedMs} ms after it was scored, behind ${A_STUDENTS} grade posts of LMS A whose gradebook holds each request ${SLOW_MS} ms; A held ${mostOfA} requests at most`,
        );
        assert.ok(a.lms.platform.heldRequests() > 0, "A's grade posts were still held");
        assert.ok(gradedMs < B_WITHIN_MS, `B's score reached its gradebook ${gradedMs} ms after it was scored`);
        assert.ok(mostOfA <= CONCURRENCY, `A held ${mostOfA} places: more than its pace`);
      } finally {
        clearInterval(watch);
      }
    },
  );
});
