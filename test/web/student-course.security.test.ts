// A student's name stays inside their course (issue 42, finding 3). An instructor of course 1 asked for
// /assignments/<a1>/students/<id> of a student who is only in course 2 of the same LMS, by the student's id or by a
// submission review naming them (Moodle launches any user id a teacher puts in view.php?action=gradeReport&user=),
// and the page showed that student's name. Now a student of another course is no one here: 404, nothing of them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { payloadOf } from '../support/id-token.js';
import { pageText } from '../support/page-text.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';

let tool: TestTool;
let lms: TestPlatform;
let assignmentId = '';
let teacherLtik = '';
const db = () => tool.tool.database.db;

/** The same platform's launch in its other course, course-2 (same deployment, another context). */
const inCourseTwo = async (idToken: string) => {
  const sent = payloadOf(idToken);
  return lms.platform.sign({
    ...sent,
    [`${CLAIM}/context`]: { ...(sent[`${CLAIM}/context`] as object), id: 'course-2', title: 'Another course' },
  });
};

const userId = (subject: string) =>
  db().selectFrom('lti_user').select('id').where('subject', '=', subject).executeTakeFirstOrThrow();

before(async () => {
  tool = await startTestTool();
  lms = await startTestPlatform(tool, { rules: 'moodle', clientId: 'student-course' });
  lms.platform.addResourceLink({ id: 'essay-1', title: 'Essay 1', lineItem: { label: 'Essay 1', scoreMaximum: 100 } });
  lms.platform.addResourceLink({ id: 'essay-2', title: 'Essay 2' });
  lms.platform.addUser({ id: 'olga', name: 'Olga Elsewhere', email: 'olga@example.edu', roles: ROLES.learner });
  const teacher = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay-1' });
  assert.equal(teacher.status, 200, pageText(teacher.body));
  teacherLtik = teacher.ltik!;
  assert.equal((await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay-1' })).status, 200);
  // Olga is a student of course 2 only: the tool knows her from there.
  const olga = await launch(lms.platform, { userId: 'olga', resourceLinkId: 'essay-2', replaceIdToken: inCourseTwo });
  assert.equal(olga.status, 200, pageText(olga.body));
  assignmentId = (
    await db().selectFrom('assignment').select('id').where('resource_link_id', '=', 'essay-1').executeTakeFirstOrThrow()
  ).id;
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const studentPage = async (id: string) => {
  const answer = await fetch(`${tool.url}/assignments/${assignmentId}/students/${id}?ltik=${teacherLtik}`);
  return { status: answer.status, body: await answer.text() };
};

/** The teacher of course 1 opens the grade of `forUserId` in Moodle's gradebook (a submission review). */
const reviewOf = (forUserId: string) =>
  launch(lms.platform, {
    userId: 'instructor-1',
    resourceLinkId: 'essay-1',
    messageType: 'LtiSubmissionReviewRequest',
    forUserId,
  });

describe('an instructor asks for a student of another course of the same LMS', () => {
  test("by id: the page of a student of this course opens; another course's student is no one here", async () => {
    const own = await studentPage((await userId('student-1')).id);
    assert.equal(own.status, 200, pageText(own.body));
    assert.match(pageText(own.body), /Submissions of Sam Student/);

    const other = await studentPage((await userId('olga')).id);
    assert.equal(other.status, 404, pageText(other.body));
    assert.doesNotMatch(other.body, /Olga|olga@example/);
  });

  test('by a submission review naming her: 404, and nothing the tool knows of her', async () => {
    const review = await reviewOf('olga');
    assert.equal(review.status, 404, pageText(review.body));
    assert.doesNotMatch(review.body, /Olga Elsewhere|olga@example/);
    assert.doesNotMatch(review.url, /\/students\//);
  });

  test('a review of a student of this course still opens their page', async () => {
    const review = await reviewOf('student-1');
    assert.equal(review.status, 200, pageText(review.body));
    assert.match(pageText(review.body), /Submissions of Sam Student/);
  });
});
