// One installation serves several schools, and every queue that calls an LMS shares its places between them. LMS A's
// Asset Report Service answers each report after several seconds; A sends one notice of 16 files, whose reports fill
// the queue; then LMS B's student submits one file. B's first report reaches B within seconds, not after A's, and A
// holds at most its share of the places (the process's places less one) while its reports are held. Across two
// worker processes: report-fairness-processes.security.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  A_FILES,
  B_WITHIN_MS,
  CONCURRENCY,
  SLOW_MS,
  closeSchools,
  delayBehindSlowLms,
  jobSettings,
  openSchools,
  type School,
} from '../support/slow-lms.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
let schools: School;
before(async () => {
  tool = await startTestTool({ ...jobSettings, SANDBOX_DELAY_MS: '300' });
  schools = await openSchools(tool);
});
after(async () => {
  await closeSchools(schools);
  await tool?.stop();
});

describe('one LMS slow to take reports cannot stall another school, in one worker process', () => {
  test(
    "LMS B's first report comes within seconds behind LMS A's 16 slow ones; A holds at most its places",
    { timeout: 180_000 },
    async () => {
      const { firstReportMs, mostOfA } = await delayBehindSlowLms(schools, CONCURRENCY - 1);
      console.log(
        `one worker process: LMS B's first report ${firstReportMs} ms after its notice, behind ${A_FILES} files of LMS A whose reports take ${SLOW_MS} ms each; A held ${mostOfA} of ${CONCURRENCY} places at most`,
      );
      assert.ok(firstReportMs < B_WITHIN_MS, `B's first report came ${firstReportMs} ms after its notice`);
      assert.equal(mostOfA, CONCURRENCY - 1, "A's reports held every place but one, and no more");
    },
  );
});
