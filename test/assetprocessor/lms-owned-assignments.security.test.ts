// Uploads through the tool's own page into an assignment the LMS owns (the tool as its Asset Processor): the student
// hands papers in in the LMS's own assignment, whose deadline and attempts the LMS keeps, and the LMS sends the tool
// each file in a notice. A session of the course (an EULA launch whose student never accepted the terms, the report
// viewer's) must not open an upload page there nor post a paper the LMS never sent; and no page links to one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { attachToActivity, checkedAsset } from '../support/asset-processor.js';
import { pageText } from '../support/page-text.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const ACTIVITY = { id: 'c1d2e3f4-0000-4000-8000-000000000031', title: 'Essay on glaciers' };
const SUBMIT_IN_LMS = /hand(ed)? in .*in the LMS/i;

let tool: TestTool;
let lms: TestPlatform;
let assignmentId: string;
let checkedSubmission: string;
const db = () => tool.tool.database.db;

before(async () => {
  tool = await startTestTool({
    ASSET_PROCESSOR: 'on',
    ASSET_PROCESSOR_EULA: 'on',
    ASSET_PROCESSOR_EULA_TERMS: 'Your files are compared with other papers.',
  });
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'security-lms-owned' });
  assignmentId = await attachToActivity(tool, lms, ACTIVITY);
  // What the asset fetch leaves once student-1's file is checked, with reports open to students.
  checkedSubmission = await checkedAsset(tool, lms, assignmentId, {
    subject: 'student-1',
    name: 'Sam Student',
    lmsSubmissionId: 'sub-1:1',
    assetId: 'asset-1',
    fileLabel: 'glaciers.pdf',
    paperId: 6161,
  });
  const { settings } = await db()
    .selectFrom('assignment')
    .select('settings')
    .where('id', '=', assignmentId)
    .executeTakeFirstOrThrow();
  await db()
    .updateTable('assignment')
    .set({ settings: JSON.stringify({ ...(settings as object), resultsVisibleTo: 'students-after-scoring' }) })
    .where('id', '=', assignmentId)
    .execute();
});
after(async () => {
  await lms.close();
  await tool.stop();
});

/** An ltik of a student's session in the assignment's course: the EULA launch, which needs no acceptance. */
async function eulaSession(userId: string): Promise<string> {
  const page = await launch(lms.platform, { userId, assetProcessor: { messageType: 'LtiEulaRequest' } });
  assert.equal(page.status, 200, pageText(page.body));
  const ltik = page.body.match(/name="ltik" value="([^"]+)"/)?.[1];
  assert.ok(ltik, 'the EULA page carries its session');
  return ltik;
}

function upload(ltik: string, accept: string) {
  const form = new FormData();
  form.append(
    'file',
    new Blob(['A paper the LMS never sent, handed in past its deadline and attempts.']),
    'sneaked-in.txt',
  );
  return fetch(`${tool.url}/assignments/${assignmentId}/submissions?ltik=${encodeURIComponent(ltik)}`, {
    method: 'POST',
    body: form,
    headers: { accept },
    redirect: 'manual',
  });
}

const submissionsOfAssignment = async () =>
  (await db().selectFrom('submission').select('id').where('assignment_id', '=', assignmentId).execute()).length;

describe("a student's session in the course of an LMS-owned assignment", () => {
  test('an upload by its script is refused with a sentence saying to hand the paper in in the LMS, and nothing is kept', async () => {
    const ltik = await eulaSession('student-2');
    const answer = await upload(ltik, 'application/json');
    const body = (await answer.json()) as { error?: string };
    assert.equal(answer.status, 403, JSON.stringify(body));
    assert.match(body.error ?? '', SUBMIT_IN_LMS);
    assert.equal(await submissionsOfAssignment(), 1, 'only the file the LMS sent');
  });

  test('a plain form post gets the same refusal as a page', async () => {
    const ltik = await eulaSession('student-2');
    const answer = await upload(ltik, 'text/html');
    assert.equal(answer.status, 403);
    assert.match(pageText(await answer.text()), SUBMIT_IN_LMS);
    assert.equal(await submissionsOfAssignment(), 1);
  });

  test("the assignment's page offers no upload form and says where to hand papers in", async () => {
    const ltik = await eulaSession('student-2');
    const page = await fetch(`${tool.url}/assignments/${assignmentId}?ltik=${encodeURIComponent(ltik)}`);
    const body = await page.text();
    // The student's own page (their papers, if any), without a way to hand one in here.
    assert.equal(page.status, 200);
    assert.match(pageText(body), SUBMIT_IN_LMS);
    assert.doesNotMatch(body, /type="file"|\/submissions\?ltik=/);
  });

  test('the report viewer opened from the LMS does not link back to an assignment page in the tool', async () => {
    const page = await launch(lms.platform, {
      userId: 'student-1',
      assetProcessor: {
        messageType: 'LtiReportReviewRequest',
        activityId: ACTIVITY.id,
        submissionId: 'sub-1:1',
        assetId: 'asset-1',
        reportType: 'originality',
        forUserId: 'student-1',
      },
    });
    assert.equal(page.status, 200, pageText(page.body));
    assert.match(page.url, new RegExp(`/reports/${checkedSubmission}/similarity/view`));
    assert.doesNotMatch(page.body, new RegExp(`/assignments/${assignmentId}`));
    assert.doesNotMatch(pageText(page.body), /Back to the assignment/);
  });

  test('the EULA page links to no assignment of the tool', async () => {
    const page = await launch(lms.platform, { userId: 'student-3', assetProcessor: { messageType: 'LtiEulaRequest' } });
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.body, /\/assignments\//);
  });
});
