// Every event that posts to a Canvas gradebook, under Canvas's own rules (the dev platform's canvas-gradebook.ts,
// following test/fixtures/lms/canvas/gradebook.md): a result whose receipt came late, a resend, a deletion, a
// resubmission under "the similarity as the grade" with and without the teacher's grade, a change of the gradebook
// choice, a column of its own, and a manual post policy. Each asserts what a Canvas teacher and student read: the
// paper recorded as submitted, never back in "needs grading" once graded, one comment per attempt, a teacher's grade
// kept, the tool's own grade following the latest attempt, a column the teacher sees.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import type { GradebookRow } from '../../src/devplatform/index.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { paper } from '../support/papers.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';
import { saveSettings, setGradeColumn } from '../support/grade-column.js';

let tool: TestTool;
let lms: TestPlatform;
const CANVAS_SUBMISSION = 'https://canvas.instructure.com/lti/submission';

before(async () => {
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '200',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '60',
  });
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'canvas-events', productFamily: 'canvas' });
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const essay = (seed: string) => paper(seed.replace(/\s+/g, ''));

const db = () => tool.tool.database.db;
const row = (id: string) => db().selectFrom('submission').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function inGradebook(id: string) {
  await eventually(async () => (await row(id)).state === 'graded', `submission ${id} never graded`, 60_000, 200);
  return row(id);
}

const comment = (similarity: string | null) =>
  `Similarity ${Number(similarity)}%. The full report is in the assignment.`;

/** An assignment of the course on its own resource link, opened by its instructor. */
const assignment = (linkId: string) =>
  openCourse(tool, { clientId: 'canvas-events', lms, linkId, title: `Essay ${linkId}` });

const columnOf = (linkId: string) => lms.platform.resourceLinks().find((link) => link.id === linkId)!.lineItemIds[0]!;
const cellOf = (linkId: string, userId: string): GradebookRow | undefined =>
  lms.platform.gradebook().find((cell) => cell.lineItemId === columnOf(linkId) && cell.userId === userId);
/** The teacher's reading of a cell: grade, who gave it, Canvas's state and attempt, its comments, and the list. */
const teacherReads = (linkId: string, userId: string) => {
  const cell = cellOf(linkId, userId);
  return {
    grade: cell?.scoreGiven ?? null,
    by: cell?.scoreGiven == null ? null : cell.gradedBy,
    state: cell?.canvas?.workflowState,
    attempt: cell?.canvas?.attempt,
    comments: cell ? lms.platform.teacherComments(cell) : [],
    toGrade: lms.platform.toGrade().some((row) => row.lineItemId === columnOf(linkId) && row.userId === userId),
  };
};
const postsOf = (userId: string, linkId: string) =>
  lms.platform
    .scoreLog()
    .filter((entry) => entry.userId === userId && entry.lineItemId === columnOf(linkId) && entry.status < 300)
    .map((entry) => entry.body as Record<string, unknown>);

async function instructorPost(course: TestCourse, linkId: string, path: string) {
  const instructor = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: linkId });
  const answer = await fetch(`${tool.url}${course.path}${path}`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ ltik: instructor.ltik! }),
  });
  assert.equal(answer.status, 303);
  return new URL(answer.headers.get('location')!, tool.url).searchParams.get('notice') ?? '';
}

/** Waits until every grade job of the assignment's papers has posted (after a resync). */
async function allPosted(course: TestCourse) {
  const assignmentId = course.path.split('/').pop()!;
  await eventually(
    async () =>
      (
        await db()
          .selectFrom('submission')
          .select('grade_state')
          .where('assignment_id', '=', assignmentId)
          .where('state', 'in', ['scored', 'graded'])
          .execute()
      ).every((r) => r.grade_state === 'posted'),
    'a paper of the assignment was not posted again',
    60_000,
    200,
  );
}

describe('the default (a comment, no grade)', () => {
  test("a result posted before its receipt (the receipt's job ran late) records the paper as submitted, one attempt", async () => {
    const course = await assignment('late-receipt');
    lms.platform.setFaults({ agsStatus: 503 });
    const id = await course.submit('student-1', essay('late receipt'));
    await eventually(async () => (await row(id)).state === 'scored', 'never scored', 60_000, 200);
    lms.platform.setFaults({});
    const paper = await inGradebook(id);
    const [first] = postsOf('student-1', 'late-receipt');
    assert.deepEqual(
      {
        progress: first?.gradingProgress,
        newSubmission: (first?.[CANVAS_SUBMISSION] as { new_submission?: boolean }).new_submission,
      },
      { progress: 'FullyGraded', newSubmission: true },
      'the first post Canvas took was not the result recording the attempt',
    );
    assert.deepEqual(teacherReads('late-receipt', 'student-1'), {
      grade: null,
      by: null,
      state: 'submitted',
      attempt: 1,
      comments: [comment(paper.similarity)],
      toGrade: true,
    });
  });

  test('"Resend grade" and "Send all scores again" add no comment and send no graded paper back to needs grading', async () => {
    const course = await assignment('resend');
    const paper = await inGradebook(await course.submit('student-1', essay('resend topic')));
    lms.platform.gradeAsTeacher(columnOf('resend'), 'student-1', 82);
    const before = postsOf('student-1', 'resend').length;
    assert.match(await instructorPost(course, 'resend', `/submissions/${paper.id}/resync-grade`), /queued/);
    await allPosted(course);
    assert.match(await instructorPost(course, 'resend', '/resync-grades'), /^1 score queued/);
    await allPosted(course);
    assert.equal(postsOf('student-1', 'resend').length, before + 2, 'the two resends were not both posted');
    assert.deepEqual(teacherReads('resend', 'student-1'), {
      grade: 82,
      by: 'teacher',
      state: 'graded',
      attempt: 1,
      comments: [comment(paper.similarity)],
      toGrade: false,
    });
    const student = lms.platform.studentView(cellOf('resend', 'student-1')!);
    assert.deepEqual(student, { grade: 82, comments: [comment(paper.similarity)] });
  });

  test("an instructor deletes the attempt: no new attempt in Canvas, the teacher's grade stays, the deletion said once", async () => {
    const course = await assignment('removal');
    const paper = await inGradebook(await course.submit('student-1', essay('removal topic')));
    lms.platform.gradeAsTeacher(columnOf('removal'), 'student-1', 70);
    assert.match(await instructorPost(course, 'removal', `/submissions/${paper.id}/delete`), /attempt 1 is deleted/);
    await eventually(
      () => postsOf('student-1', 'removal').some((body) => body.gradingProgress === 'NotReady'),
      'the deletion was not posted',
      30_000,
      200,
    );
    const removal = postsOf('student-1', 'removal').find((body) => body.gradingProgress === 'NotReady')!;
    assert.deepEqual(removal[CANVAS_SUBMISSION], { new_submission: false, preserve_score: true });
    assert.deepEqual(teacherReads('removal', 'student-1'), {
      grade: 70,
      by: 'teacher',
      state: 'graded',
      attempt: 1,
      comments: [comment(paper.similarity), 'The submission was deleted by an instructor.'],
      toGrade: false,
    });
  });

  test('under a manual post policy the student reads neither the grade nor the comment until the teacher posts them', async () => {
    const course = await assignment('manual');
    lms.platform.setPostManually(columnOf('manual'), true);
    const paper = await inGradebook(await course.submit('student-1', essay('manual posting')));
    lms.platform.gradeAsTeacher(columnOf('manual'), 'student-1', 64);
    assert.deepEqual(lms.platform.studentView(cellOf('manual', 'student-1')!), { grade: null, comments: [] });
    lms.platform.postGrades(columnOf('manual'));
    assert.deepEqual(lms.platform.studentView(cellOf('manual', 'student-1')!), {
      grade: 64,
      comments: [comment(paper.similarity)],
    });
  });
});

describe('the similarity as the grade', () => {
  test("the tool's own grade follows the latest attempt; a teacher's grade stays through a resubmission and a change of choice", async () => {
    const course = await assignment('as-grade');
    await setGradeColumn(tool, course.path, 'assignment');
    // Noor's original; Sam copies it, then resubmits a paper of his own.
    const noor1 = await inGradebook(await course.submit('student-2', essay('glacier retreat')));
    const sam1 = await inGradebook(await course.submit('student-1', essay('glacier retreat')));
    assert.ok(Number(sam1.similarity) >= 90, `the copy: ${sam1.similarity}`);
    assert.deepEqual(teacherReads('as-grade', 'student-1').grade, Number(sam1.similarity));
    const sam2 = await inGradebook(await course.submit('student-1', essay('river deltas')));
    assert.equal(Number(sam2.similarity), 0);
    // The teacher regrades Noor; she resubmits.
    lms.platform.gradeAsTeacher(columnOf('as-grade'), 'student-2', 90);
    const noor2 = await inGradebook(await course.submit('student-2', essay('mountain lakes')));
    assert.deepEqual(teacherReads('as-grade', 'student-1'), {
      grade: 0,
      by: 'tool',
      state: 'graded',
      attempt: 2,
      comments: [comment(sam1.similarity), comment(sam2.similarity)],
      toGrade: false,
    });
    // Canvas's own rule for a resubmission over a grade: the teacher's grade stays, the paper is to be graded again.
    assert.deepEqual(teacherReads('as-grade', 'student-2'), {
      grade: 90,
      by: 'teacher',
      state: 'submitted',
      attempt: 2,
      comments: [comment(noor1.similarity), comment(noor2.similarity)],
      toGrade: true,
    });
    assert.deepEqual(lms.platform.studentView(cellOf('as-grade', 'student-1')!), {
      grade: 0,
      comments: [comment(sam1.similarity), comment(sam2.similarity)],
    });

    // Back to the default: the similarity the tool posted as Sam's grade goes; Noor's grade, the teacher's, stays.
    await saveSettings(tool, course, 'as-grade', (form) => form.set('gradeColumn', 'comment'));
    await allPosted(course);
    await eventually(() => teacherReads('as-grade', 'student-1').grade === null, "Sam's similarity grade stayed");
    assert.deepEqual(
      [teacherReads('as-grade', 'student-1'), teacherReads('as-grade', 'student-2')].map((read) => [
        read.grade,
        read.comments.length,
      ]),
      [
        [null, 2],
        [90, 2],
      ],
    );
  });
});

describe('a column of its own', () => {
  test('is an assignment of its own in Canvas, which the teacher sees with every similarity; the assignment records the paper as submitted', async () => {
    const course = await assignment('own');
    await setGradeColumn(tool, course.path, 'similarity');
    const paper = await inGradebook(await course.submit('student-1', essay('own column topic')));
    const own = lms.platform.lineItems().find((item) => item.label === 'Similarity: Essay own')!;
    assert.ok(own, 'no similarity column');
    assert.equal(own.resourceLinkId, undefined, "the column was made on the assignment's link, where it is no column");
    const inOwn = lms.platform.gradebook().find((cell) => cell.label === own.label && cell.userId === 'student-1');
    assert.deepEqual(
      { grade: inOwn?.scoreGiven, by: inOwn?.gradedBy, student: lms.platform.studentView(inOwn!).grade },
      { grade: Number(paper.similarity), by: 'tool', student: Number(paper.similarity) },
    );
    assert.deepEqual(teacherReads('own', 'student-1'), {
      grade: null,
      by: null,
      state: 'submitted',
      attempt: 1,
      comments: [],
      toGrade: true,
    });
  });
});

test('no score ever sent to Canvas asks for manual review (PendingManual), and no grade carries preserve_score', () => {
  const bodies = lms.platform.scoreLog().map((entry) => entry.body as Record<string, unknown>);
  assert.ok(bodies.length > 10, `only ${bodies.length} posts`);
  assert.deepEqual(
    bodies.filter(
      (body) =>
        body.gradingProgress === 'PendingManual' ||
        (typeof body.scoreGiven === 'number' &&
          (body[CANVAS_SUBMISSION] as { preserve_score?: unknown }).preserve_score !== undefined),
    ),
    [],
  );
});
