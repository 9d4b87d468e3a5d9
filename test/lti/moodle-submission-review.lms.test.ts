// Moodle's submission review as Moodle builds it (test/fixtures/lms/moodle/submission-review-request.json, with its
// source): the fixture's payload, signed with the test platform's key, is posted through the tool's real login and
// launch. What the teacher sees: that student's name and their attempts, scores and reports; the student opening
// their own lands on their page; a student opening another's is refused with a sentence.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { en } from '../../src/i18n/en.js';
import { payloadOf } from '../support/id-token.js';
import { pageText } from '../support/page-text.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/lms/moodle/submission-review-request.json', import.meta.url), 'utf8'),
) as {
  source: { repository: string; dateRead: string };
  payload: Record<string, unknown>;
};
const LEARNER = ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'];

let tool: TestTool;
let lms: TestPlatform;
let assignmentId: string;
const db = () => tool.tool.database.db;

before(async () => {
  tool = await startTestTool();
  lms = await startTestPlatform(tool, { rules: 'moodle', clientId: 'moodle-review' });
  lms.platform.addResourceLink({
    id: 'essay-12',
    title: 'Research essay',
    lineItem: { label: 'Research essay', scoreMaximum: 100 },
  });
  // The teacher opens the activity once (the assignment is made), both students open it (the tool knows them).
  for (const userId of ['instructor-1', 'student-1', 'student-2']) {
    const opened = await launch(lms.platform, { userId, resourceLinkId: 'essay-12' });
    assert.equal(opened.status, 200, pageText(opened.body));
  }
  const assignment = await db()
    .selectFrom('assignment')
    .select(['id', 'platform_id'])
    .where('resource_link_id', '=', 'essay-12')
    .executeTakeFirstOrThrow();
  assignmentId = assignment.id;
  const user = (subject: string) =>
    db()
      .selectFrom('lti_user')
      .select('id')
      .where('platform_id', '=', assignment.platform_id)
      .where('subject', '=', subject)
      .executeTakeFirstOrThrow();
  const sam = await user('student-1');
  const noor = await user('student-2');
  const attempt = (
    userId: string,
    n: number,
    fileLabel: string,
    similarity: number | null,
    state: 'scored' | 'processing',
  ) => ({
    assignment_id: assignmentId,
    user_id: userId,
    attempt: n,
    state,
    file_label: fileLabel,
    file_type: 'pdf',
    file_size: 2048,
    sha256: String(n).repeat(64).slice(0, 64),
    paper_id: similarity === null ? null : 7000 + n,
    similarity,
    report_key: similarity === null ? null : `key-${fileLabel}`,
    scored_at: similarity === null ? null : new Date(),
  });
  await db()
    .insertInto('submission')
    .values([
      attempt(sam.id, 1, 'glaciers-draft.pdf', 37, 'scored'),
      attempt(sam.id, 2, 'glaciers-final.pdf', 12, 'scored'),
      attempt(noor.id, 1, 'noor-essay.pdf', null, 'processing'),
    ])
    .execute();
});
after(async () => {
  await lms.close();
  await tool.stop();
});

/** A fixture's payload, re-signed by the test platform: its identity and this course's ids in place of Moodle's. */
function resigned(payload: Record<string, unknown>, viewer: string, resourceLinkId: string, changes = {}) {
  return async (idToken: string) => {
    const sent = payloadOf(idToken);
    const { iat: _iat, exp: _exp, ...shape } = payload;
    return lms.platform.sign({
      ...shape,
      iss: sent.iss,
      aud: sent.aud,
      nonce: sent.nonce,
      sub: viewer,
      [`${CLAIM}/deployment_id`]: sent[`${CLAIM}/deployment_id`],
      [`${CLAIM}/target_link_uri`]: sent[`${CLAIM}/target_link_uri`],
      [`${CLAIM}/context`]: { ...(payload[`${CLAIM}/context`] as object), id: lms.platform.course().id },
      [`${CLAIM}/resource_link`]: { ...(payload[`${CLAIM}/resource_link`] as object), id: resourceLinkId },
      [`${CLAIM}/custom`]: {},
      ...changes,
    });
  };
}

const asMoodleBuildsIt = (viewer: string, forUser: string, changes: Record<string, unknown> = {}) =>
  resigned(fixture.payload, viewer, 'essay-12', {
    [`${CLAIM}/for_user`]: { ...(fixture.payload[`${CLAIM}/for_user`] as object), user_id: forUser },
    ...changes,
  });

const review = (viewer: string, forUser: string, changes: Record<string, unknown> = {}) =>
  launch(lms.platform, {
    userId: viewer,
    resourceLinkId: 'essay-12',
    messageType: 'LtiSubmissionReviewRequest',
    forUserId: forUser,
    replaceIdToken: asMoodleBuildsIt(viewer, forUser, changes),
  });

describe(`Moodle's grade analysis (${fixture.source.repository}, read ${fixture.source.dateRead})`, () => {
  test('the fixture is the message Moodle builds: LtiSubmissionReviewRequest, for_user with only user_id, the resource link', () => {
    assert.equal(fixture.payload[`${CLAIM}/message_type`], 'LtiSubmissionReviewRequest');
    assert.deepEqual(Object.keys(fixture.payload[`${CLAIM}/for_user`] as object), ['user_id']);
    assert.ok((fixture.payload[`${CLAIM}/resource_link`] as { id?: string }).id);
  });

  test("the teacher opening a student's grade sees that student's name and each of their attempts with its score and report", async () => {
    const opened = await review('instructor-1', 'student-1');
    assert.equal(opened.status, 200, pageText(opened.body));
    assert.match(opened.url, new RegExp(`/assignments/${assignmentId}/students/[0-9a-f-]{36}\\?ltik=`));
    const text = pageText(opened.body);
    assert.match(text, /Submissions of Sam Student/);
    assert.match(text, /glaciers-draft\.pdf/);
    assert.match(text, /glaciers-final\.pdf/);
    assert.match(text, /37\s*%/);
    assert.match(text, /12\s*%/);
    assert.doesNotMatch(text, /noor-essay/, "another student's attempt is not on the page");
    assert.match(opened.body, /\/reports\/[0-9a-f-]{36}\/similarity\/view\?ltik=/);
  });

  test("another student's grade shows theirs, still being checked", async () => {
    const opened = await review('instructor-1', 'student-2');
    assert.equal(opened.status, 200, pageText(opened.body));
    const text = pageText(opened.body);
    assert.match(text, /Submissions of Noor Student/);
    assert.match(text, /noor-essay\.pdf/);
    assert.ok(text.includes(en['state.processing']), `the paper reads ${en['state.processing']}`);
    assert.doesNotMatch(text, /glaciers/);
  });

  test('a student the tool never saw in this course: the page says there is nothing, under the id Moodle sent', async () => {
    const opened = await review('instructor-1', 'student-3');
    assert.equal(opened.status, 404, pageText(opened.body));
    assert.match(pageText(opened.body), /student-3 has no submissions to this assignment yet/);
  });

  test('the student opening their own lands on their own assignment page', async () => {
    const opened = await review('student-1', 'student-1', { [`${CLAIM}/roles`]: LEARNER });
    assert.equal(opened.status, 200, pageText(opened.body));
    assert.match(opened.url, new RegExp(`/assignments/${assignmentId}\\?ltik=`));
    assert.match(pageText(opened.body), /glaciers-final\.pdf/);
  });

  test("a student opening another student's is refused with a sentence, and sees nothing of theirs", async () => {
    const opened = await review('student-2', 'student-1', { [`${CLAIM}/roles`]: LEARNER });
    assert.equal(opened.status, 403);
    const text = pageText(opened.body);
    assert.match(text, /You can open only your own submissions/);
    assert.doesNotMatch(text, /glaciers|Sam Student/);
  });
});

// The grader report's column menu, "View External tool results" (grader-report-review-request.json, with its source):
// the same message with no for_user. A teacher lands on the activity's class, a student on their own page.
const columnMenu = JSON.parse(
  readFileSync(new URL('../fixtures/lms/moodle/grader-report-review-request.json', import.meta.url), 'utf8'),
) as { source: { paths: string[]; dateRead: string }; payload: Record<string, unknown> };

/** The column menu's payload as Moodle builds it, re-signed by the test platform. */
const fromColumnMenu = (viewer: string, resourceLinkId: string, roles?: string[]) =>
  launch(lms.platform, {
    userId: viewer,
    resourceLinkId,
    messageType: 'LtiSubmissionReviewRequest',
    replaceIdToken: resigned(columnMenu.payload, viewer, resourceLinkId, roles ? { [`${CLAIM}/roles`]: roles } : {}),
  });

describe(`Moodle's grader report column menu (${columnMenu.source.paths.join(', ')}, read ${columnMenu.source.dateRead})`, () => {
  test('the fixture is the grade analysis message without for_user', () => {
    assert.equal(columnMenu.payload[`${CLAIM}/message_type`], 'LtiSubmissionReviewRequest');
    assert.equal(columnMenu.payload[`${CLAIM}/for_user`], undefined);
    const { [`${CLAIM}/for_user`]: _forUser, ...cell } = fixture.payload;
    assert.deepEqual(columnMenu.payload, cell, "the column's launch is the cell's launch less for_user");
  });

  test("the teacher choosing View External tool results lands on the activity's class, every student in it", async () => {
    const opened = await fromColumnMenu('instructor-1', 'essay-12');
    assert.equal(opened.status, 200, pageText(opened.body));
    assert.match(opened.url, new RegExp(`/assignments/${assignmentId}/dashboard\\?ltik=`));
    const text = pageText(opened.body);
    // The class: both students who submitted (names aside: the launches above re-signed them with the fixture's).
    assert.match(text, /2 of 3 submitted/);
    assert.match(text, /Similarity: 12\s*%/, "Sam's latest attempt");
    assert.match(text, /Status: Being checked/, "Noor's paper");
    assert.doesNotMatch(text, /Could not open|LMS administrator/);
  });

  test('a student opening the same menu item lands on their own page, with their own papers only', async () => {
    const opened = await fromColumnMenu('student-2', 'essay-12', LEARNER);
    assert.equal(opened.status, 200, pageText(opened.body));
    assert.match(opened.url, new RegExp(`/assignments/${assignmentId}\\?ltik=`));
    const text = pageText(opened.body);
    assert.match(text, /noor-essay\.pdf/);
    assert.doesNotMatch(text, /glaciers|Sam Student/);
  });
});

describe("a learner's review of their own submission to the LMS's own assignment (the Asset Processor's)", () => {
  let processorAssignment: string;
  before(async () => {
    lms.platform.addResourceLink({ id: 'essay-ap', title: 'Essay handed in in the LMS' });
    const opened = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay-ap' });
    assert.equal(opened.status, 200, pageText(opened.body));
    // The assignment becomes the LMS's own, as an Asset Processor attach makes it: papers come by notices.
    const made = await db()
      .updateTable('assignment')
      .set({ kind: 'asset-processor', activity_id: 'lms-activity-ap' })
      .where('resource_link_id', '=', 'essay-ap')
      .returning(['id', 'platform_id'])
      .executeTakeFirstOrThrow();
    processorAssignment = made.id;
    const sam = await db()
      .selectFrom('lti_user')
      .select('id')
      .where('platform_id', '=', made.platform_id)
      .where('subject', '=', 'student-1')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('submission')
      .values({
        assignment_id: processorAssignment,
        user_id: sam.id,
        attempt: 1,
        state: 'scored',
        file_label: 'sams-lms-essay.pdf',
        file_type: 'pdf',
        file_size: 2048,
        sha256: 'e'.repeat(64),
        paper_id: 7301,
        similarity: 21,
        report_key: 'key-sams-lms-essay',
        scored_at: new Date(),
      })
      .execute();
  });

  test('the student sees their paper and its result, and no form to hand in here: that is done in the LMS', async () => {
    const opened = await launch(lms.platform, {
      userId: 'student-1',
      resourceLinkId: 'essay-ap',
      messageType: 'LtiSubmissionReviewRequest',
      forUserId: 'student-1',
    });
    assert.equal(opened.status, 200, pageText(opened.body));
    assert.match(opened.url, new RegExp(`/assignments/${processorAssignment}\\?ltik=`));
    const text = pageText(opened.body);
    assert.match(text, /sams-lms-essay\.pdf/);
    assert.match(text, /handed in in the LMS/);
    assert.doesNotMatch(opened.body, /id="submit-form"/);
  });
});
