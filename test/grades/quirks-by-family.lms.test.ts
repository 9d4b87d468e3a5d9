// The gradebook's quirks follow the LMS product family stored with the platform's registration, never its address:
// two platforms at the same kind of address (http://127.0.0.1:PORT/lms), registered as Canvas and as Moodle, get
// their own LMS's scores and have their own refusals understood. A platform whose family is not known gets what is
// safe for every LMS; grades.test.ts runs that against Moodle's and Canvas's rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ROLES, type PlatformRules } from '../../src/devplatform/index.js';
import { resyncGrade } from '../../src/grades/index.js';
import { saveRegistration } from '../../src/lti/registrations.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';
import { isResult, shownSimilarity } from '../support/gradebook-cell.js';

let tool: TestTool;
const platforms: TestPlatform[] = [];
const CANVAS_SUBMISSION = 'https://canvas.instructure.com/lti/submission';

before(async () => {
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '200',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
  });
});
after(async () => {
  for (const platform of platforms) await platform.close();
  await tool.stop();
});

const essay = (seed: string) =>
  Array.from({ length: 40 }, (_, i) => `${seed} remark ${i} weighs evidence ${i * 7} about ${seed}.`).join(' ');

/** A course on a platform with these AGS rules, registered by an administrator with this product family. */
async function courseOf(rules: PlatformRules, productFamily: string, clientId: string): Promise<TestCourse> {
  const lms = await startTestPlatform(tool, { rules, clientId, register: false });
  platforms.push(lms);
  assert.doesNotMatch(lms.url, /canvas|moodle/i, "the platform's address names no product");
  await saveRegistration(
    { db: tool.tool.database.db, provider: tool.tool.platforms },
    { ...lms.platform.registration(), productFamily },
    'cli',
  );
  return openCourse(tool, { clientId, lms });
}

async function gradeOf(submissionId: string) {
  return tool.tool.database.db
    .selectFrom('submission')
    .select(['state', 'grade_state', 'grade_error', 'similarity'])
    .where('id', '=', submissionId)
    .executeTakeFirstOrThrow();
}

/** Waits until the paper's score is in the gradebook or the gradebook refused it; gives its row then. */
async function settled(submissionId: string) {
  await eventually(
    async () => {
      const row = await gradeOf(submissionId);
      return row.state === 'graded' || row.grade_state === 'not-gradable' || row.grade_state === 'failed';
    },
    `submission ${submissionId} never settled`,
    45_000,
    200,
  );
  return gradeOf(submissionId);
}

const finalPostOf = (course: TestCourse, userId: string) =>
  course.lms.platform
    .scoreLog()
    .filter(
      (entry) =>
        entry.userId === userId &&
        entry.status < 300 &&
        isResult((entry.body as { gradingProgress?: string }).gradingProgress),
    )
    .at(-1);

describe('the quirks applied follow the product family stored at registration', () => {
  test("a Canvas at an address that names no product: its result is one attempt, no grade and never over the instructor's grade, and never back to needs grading; a refusal that is not about the student waits for a resync", async () => {
    const course = await courseOf('canvas', 'canvas', 'quirks-canvas');
    const graded = await settled(await course.submit('student-1', essay('canvas quirks')));
    assert.equal(graded.state, 'graded');
    const final = finalPostOf(course, 'student-1')?.body as Record<string, unknown>;
    // The default, a comment and no grade: FullyGraded without scoreGiven, keeping any grade there (C1, C4).
    assert.deepEqual(
      {
        progress: final.gradingProgress,
        scoreGiven: final.scoreGiven,
        preserve: (final[CANVAS_SUBMISSION] as { preserve_score?: boolean }).preserve_score,
      },
      { progress: 'FullyGraded', scoreGiven: undefined, preserve: true },
    );
    const lineItemId = course.lms.platform.lineItems()[0]!.id.split('/').pop()!;
    assert.equal(course.lms.platform.attempts(lineItemId, 'student-1'), 1, 'the paper is not one attempt in Canvas');
    const cell = course.lms.platform.gradebook().find((row) => row.userId === 'student-1');
    assert.deepEqual(
      { state: cell?.canvas?.workflowState, toGrade: course.lms.platform.toGrade().map((row) => row.userId) },
      { state: 'submitted', toGrade: ['student-1'] },
    );

    // Canvas answers 422 for more than a user who is no student (attempts used up, an unpublished assignment):
    // such a refusal is a failure for an instructor to fix, not a student the gradebook does not know. The paper
    // waits for a resync, which posts it.
    course.lms.platform.setFaults({ agsStatus: 422 });
    const refusedId = await course.submit('student-2', essay('canvas refused'));
    // Scored while every score post is refused: the receipt's, and the result's when its job still ran.
    await eventually(
      async () => {
        const row = await gradeOf(refusedId);
        return row.state === 'scored' && row.grade_state === 'failed';
      },
      'the paper was not scored with its score refused',
      45_000,
      200,
    );
    const refused = await gradeOf(refusedId);
    assert.match(String(refused.grade_error), /HTTP 422/);
    course.lms.platform.setFaults({});
    await resyncGrade(tool.tool.database.db, tool.tool.jobs, refusedId);
    assert.equal((await settled(refusedId)).state, 'graded');
    assert.ok(finalPostOf(course, 'student-2'), 'no final score reached the gradebook');
  });

  test('a Moodle (stored as "Moodle", as an administrator typed it): its scores carry nothing of Canvas\'s, and its "Incorrect score received" for a non-student means not gradable', async () => {
    const course = await courseOf('moodle', 'Moodle', 'quirks-moodle');
    const graded = await settled(await course.submit('student-1', essay('moodle quirks')));
    assert.equal(graded.state, 'graded');
    const final = finalPostOf(course, 'student-1');
    assert.equal(
      final?.body && CANVAS_SUBMISSION in (final.body as object),
      false,
      "a Moodle was sent Canvas's extension",
    );
    assert.equal(shownSimilarity(final?.body as { comment?: string }), Number(graded.similarity));

    const teacherId = await course.submit('student-2', essay('moodle teacher'));
    // The gradebook no longer counts the user as a student (a role changed since the launch).
    course.lms.platform.addUser({
      id: 'student-2',
      name: 'Now a teacher',
      email: 'teacher@example.edu',
      roles: ROLES.instructor,
    });
    const refused = await settled(teacherId);
    assert.deepEqual(
      { grade: refused.grade_state, error: /Incorrect score received/.test(String(refused.grade_error)) },
      { grade: 'not-gradable', error: true },
    );
    assert.deepEqual(
      course.lms.platform.scoreLog().filter((entry) => entry.status === 409),
      [],
      'Moodle refused a timestamp',
    );
  });
});
