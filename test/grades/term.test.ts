// A term of one course, end to end, on the dev platform under each LMS's gradebook rules (Moodle's, Canvas's,
// Brightspace's and Blackboard's, as test/fixtures/lms/<lms>/gradebook.md quotes them), each registered as that LMS,
// with the sandbox as the checking service: two assignments, three students (an original paper, a copied one, a
// resubmission after the first result, a late submission), a teacher who grades in the LMS before and after the
// similarity arrives, who changes the second assignment's gradebook setting mid-term, and who sends the first
// assignment's scores to the gradebook again at the end. Every cell is asserted as that LMS's teacher reads it (the
// grade, who gave it, every comment it holds, the list of papers to grade) and as its student reads it (the grade
// and comments shown to them), with both course totals: no grade and no total computed from a similarity unless the
// teacher chose so, every grade the teacher gave still theirs, no graded paper back in the list to grade, and one
// comment per attempt.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { decodeHtml } from '../../src/devplatform/html.js';
import type { GradebookRow, PlatformRules } from '../../src/devplatform/index.js';
import { en } from '../../src/i18n/en.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { halfOf, paper } from '../support/papers.js';
import { saveSettings } from '../support/grade-column.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

let tool: TestTool;
const platforms: TestPlatform[] = [];

before(async () => {
  tool = await startTestTool({
    // Time enough to stop the service's answers once it has Sam's first paper, before its analysis ends.
    SANDBOX_DELAY_MS: '1500',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '60',
  });
});
after(async () => {
  for (const platform of platforms) await platform.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;

async function submission(id: string) {
  return db().selectFrom('submission').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Waits until the submission's result is in the gradebook (state graded); gives the row. */
async function inGradebook(id: string) {
  await eventually(
    async () => (await submission(id)).state === 'graded',
    `submission ${id} never reached the gradebook`,
    90_000,
    200,
  );
  return submission(id);
}

/** The instructor's "Send all scores to the gradebook again", and the wait until every one of them is posted. */
async function sendAllAgain(course: TestCourse, linkId: string) {
  const instructor = await launch(course.lms.platform, { userId: 'instructor-1', resourceLinkId: linkId });
  const sent = await fetch(`${tool.url}${course.path}/resync-grades`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ ltik: instructor.ltik! }),
  });
  assert.equal(sent.status, 303);
  assert.match(new URL(sent.headers.get('location')!, tool.url).searchParams.get('notice') ?? '', /^3 scores queued/);
  const assignmentId = course.path.split('/').pop()!;
  await eventually(
    async () => {
      const rows = await db()
        .selectFrom('submission')
        .select('grade_state')
        .where('assignment_id', '=', assignmentId)
        .where('state', '=', 'graded')
        .execute();
      return rows.every((row) => row.grade_state === 'posted');
    },
    'the scores sent again never all reached the gradebook',
    60_000,
    200,
  );
}

const similarity = (row: { similarity: string | null }) => Number(row.similarity);
const comment = (value: number) => `Similarity ${value}%. The full report is in the assignment.`;

/** Each LMS as it is registered (the product family its dynamic registration announces). */
const FAMILY: Record<Exclude<PlatformRules, 'spec'>, string> = {
  moodle: 'moodle',
  canvas: 'canvas',
  brightspace: 'desire2learn',
  blackboard: 'BlackboardLearn',
};

/** A cell as the teacher and the student read it. */
interface Read {
  grade: number | null;
  by: 'teacher' | 'tool' | null;
  comments: string[];
  student: { grade: number | null; comments: string[] };
}

for (const rules of ['moodle', 'canvas', 'brightspace', 'blackboard'] as const) {
  test(`a term in ${rules}: every cell as its teacher and its student read it, the list of papers to grade and both course totals`, async () => {
    const clientId = `term-${rules}`;
    const lms = await startTestPlatform(tool, { rules, clientId, productFamily: FAMILY[rules] });
    platforms.push(lms);
    const rivers = await openCourse(tool, { clientId, lms, linkId: 'rivers', title: 'Essay 1: rivers' });
    const glaciers = await openCourse(tool, { clientId, lms, linkId: 'glaciers', title: 'Essay 2: glaciers' });
    const column = (linkId: string) => lms.platform.resourceLinks().find((link) => link.id === linkId)!.lineItemIds[0]!;
    const cell = (linkId: string, userId: string): GradebookRow | undefined =>
      lms.platform.gradebook().find((row) => row.lineItemId === column(linkId) && row.userId === userId);

    // Essay 1, the default setting. Sam's original paper: the teacher grades it once the LMS has the receipt and
    // before its similarity arrives (the service is out of reach from the moment it has the paper, so the result
    // waits).
    const samOriginal = await rivers.submit('student-1', paper(`${rules}sam`));
    await eventually(
      async () => (await submission(samOriginal)).state === 'processing',
      "Sam's paper never reached the service",
      60_000,
      50,
    );
    tool.tool.sandbox!.setFaults({ outage: true });
    await eventually(
      async () => (await submission(samOriginal)).grade_state === 'pending',
      "Sam's receipt never reached the gradebook",
      60_000,
      100,
    );
    assert.notEqual((await submission(samOriginal)).state, 'graded', 'the similarity came before the teacher graded');
    lms.platform.gradeAsTeacher(column('rivers'), 'student-1', 88);
    tool.tool.sandbox!.setFaults({});
    const sam1 = await inGradebook(samOriginal);
    // Noor copies Sam's paper; the teacher grades it after its similarity arrived.
    const noor1 = await inGradebook(await rivers.submit('student-2', paper(`${rules}sam`)));
    assert.ok(similarity(noor1) >= 90, `the copy's similarity: ${noor1.similarity}`);
    lms.platform.gradeAsTeacher(column('rivers'), 'student-2', 40);
    // Lee resubmits after the first result; the teacher has not graded Lee.
    const lee1First = await inGradebook(await rivers.submit('student-3', paper(`${rules}leefirst`)));
    const lee1 = await inGradebook(await rivers.submit('student-3', paper(`${rules}leesecond`)));
    assert.equal(lee1.attempt, 2);

    // Essay 2: Sam and Noor submit under the default; the teacher grades Sam after the similarity arrived.
    const sam2 = await inGradebook(await glaciers.submit('student-1', paper(`${rules}samtwo`)));
    // Noor's Essay 2 takes half of Sam's.
    const noor2 = await inGradebook(
      await glaciers.submit('student-2', halfOf(paper(`${rules}samtwo`), paper(`${rules}noortwo`))),
    );
    assert.ok(similarity(noor2) > 20 && similarity(noor2) < 80, `half a copy's similarity: ${noor2.similarity}`);
    lms.platform.gradeAsTeacher(column('glaciers'), 'student-1', 75);
    // Mid-term the teacher chooses to post the similarity as Essay 2's grade, and its due date passes.
    const due = new Date(Date.now() - 60 * 60 * 1000);
    await saveSettings(tool, glaciers, 'glaciers', (form) => {
      form.set('gradeColumn', 'assignment');
      form.set('dueAt', due.toISOString().slice(0, 16));
      form.set('dueAtZone', 'UTC');
    });
    await eventually(
      () => cell('glaciers', 'student-2')?.scoreGiven === similarity(noor2),
      "Noor's Essay 2 similarity never became her grade after the change",
      60_000,
      200,
    );
    // Lee submits Essay 2 late.
    const lee2 = await inGradebook(await glaciers.submit('student-3', paper(`${rules}leetwo`)));
    assert.equal(lee2.late, true, "Lee's Essay 2 is late");
    // At the end of term the teacher sends Essay 1's scores to the gradebook again.
    await sendAllAgain(rivers, 'rivers');

    // The gradebook at the end of term, cell by cell, as the LMS's teacher and student read it.
    const read = (linkId: string, userId: string): Read | undefined => {
      const row = cell(linkId, userId);
      return (
        row && {
          grade: row.scoreGiven,
          by: row.scoreGiven === null ? null : (row.gradedBy ?? 'tool'),
          comments: lms.platform.teacherComments(row),
          student: lms.platform.studentView(row),
        }
      );
    };
    const graded = (grade: number, by: 'teacher' | 'tool', comments: string[], seen = comments): Read => ({
      grade,
      by,
      comments,
      student: { grade, comments: seen },
    });
    const ungraded = (comments: string[], seen: string[]): Read => ({
      grade: null,
      by: null,
      comments,
      student: { grade: null, comments: seen },
    });
    const essay2 = {
      'student-1': graded(75, 'teacher', [comment(similarity(sam2))]),
      'student-2': graded(similarity(noor2), 'tool', [comment(similarity(noor2))]),
      'student-3': graded(similarity(lee2), 'tool', [comment(similarity(lee2))]),
    };
    // Moodle: the comment is an empty grade's feedback, replaced by each post; an overridden grade keeps its feedback
    // as it was when the teacher graded (none yet for Sam). Canvas adds each comment to the submission once, and
    // its student reads them once the submission is posted (graded): Lee, never graded, reads none. Brightspace and
    // Blackboard: the specification's cell, the comment replaced by each post.
    const expected: Record<'rivers' | 'glaciers', Record<string, Read>> = {
      rivers: {
        'student-1': graded(88, 'teacher', rules === 'moodle' ? [] : [comment(similarity(sam1))]),
        'student-2': graded(40, 'teacher', [comment(similarity(noor1))]),
        'student-3':
          rules === 'canvas'
            ? ungraded([comment(similarity(lee1First)), comment(similarity(lee1))], [])
            : ungraded([comment(similarity(lee1))], [comment(similarity(lee1))]),
      },
      glaciers: essay2,
    };
    const actual = Object.fromEntries(
      (['rivers', 'glaciers'] as const).map((linkId) => [
        linkId,
        Object.fromEntries(['student-1', 'student-2', 'student-3'].map((userId) => [userId, read(linkId, userId)])),
      ]),
    );
    console.log(`End of term in ${rules}:\n${table(lms, ['rivers', 'glaciers'], column)}`);
    assert.deepEqual(actual, expected);

    // The teacher's list of papers to grade. Canvas lists a submitted paper without a grade (Lee's Essay 1) and no
    // graded one; Brightspace flags every result posted as PendingManual "ready for evaluation", and Blackboard
    // reads PendingManual as the specification's "human intervention is required": the default's results, and
    // Sam's Essay 2 (the teacher's grade stands; the similarity went as a comment). Moodle lists no tool's score.
    const toGrade = lms.platform
      .toGrade()
      .map((row) => `${row.label} / ${row.userId}`)
      .sort();
    const listed: Record<typeof rules, string[]> = {
      moodle: [],
      canvas: ['Essay 1: rivers / student-3'],
      brightspace: [
        'Essay 1: rivers / student-1',
        'Essay 1: rivers / student-2',
        'Essay 1: rivers / student-3',
        'Essay 2: glaciers / student-1',
      ],
      blackboard: [],
    };
    listed.blackboard = listed.brightspace;
    assert.deepEqual(toGrade, listed[rules]);

    // The students' papers: Sam's original and Lee's attempts score nothing; Lee's cell shows the later attempt.
    assert.deepEqual([similarity(sam1), similarity(lee1First), similarity(lee1)], [0, 0, 0]);
    // Lee's Essay 2 cell keeps his real submission time, after the due date (the LMS would mark it late itself).
    assert.equal(cell('glaciers', 'student-3')?.submittedAt, lee2.submitted_at.toISOString());
    assert.ok(lee2.submitted_at > due);
    if (rules === 'canvas') {
      // One Canvas attempt per attempt of the tool, none for a result or a resend.
      assert.deepEqual(
        ['rivers', 'glaciers'].map((linkId) =>
          ['student-1', 'student-2', 'student-3'].map((userId) => cell(linkId, userId)?.canvas?.attempt),
        ),
        [
          [1, 1, 2],
          [1, 1, 1],
        ],
      );
    }

    // Course totals: from graded cells only; Lee's Essay 1 (no grade) counts for nothing. The students read the same:
    // every grade counted is posted.
    const totals = (view: 'teacher' | 'student') =>
      Object.fromEntries(lms.platform.courseTotals(view).map((t) => [t.userId, t.percent]));
    const expectedTotals = {
      'student-1': (88 + 75) / 2,
      'student-2': (40 + similarity(noor2)) / 2,
      'student-3': similarity(lee2),
    };
    assert.deepEqual(totals('teacher'), expectedTotals);
    assert.deepEqual(totals('student'), expectedTotals);

    // The dashboard says what the tool posts and where, in the words of the messages.
    const essay1Page = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'rivers' });
    assert.ok(
      decodeHtml(essay1Page.body).includes(en['dashboard.gradebookUse.comment']),
      'Essay 1 dashboard: a comment, no grade',
    );
    const essay2Page = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'glaciers' });
    assert.ok(
      decodeHtml(essay2Page.body).includes(en['dashboard.gradebookUse.assignment']),
      'Essay 2 dashboard: as the grade',
    );
    for (const name of ['Sam Student', 'Noor Student', 'Lee Student']) {
      const row = essay2Page.body.split('<tr').find((tr) => tr.includes(name)) ?? '';
      assert.ok(row.includes(en['state.checked']), `${name}'s row on Essay 2's dashboard says ${en['state.checked']}`);
      assert.ok(row.includes(en['dashboard.gradebook.posted']), `${name}'s row says the gradebook has the score`);
    }
  });
}

/**
 * The gradebook as a table: a row per student, a column per assignment (as the teacher reads the cell: grade, who
 * gave it, its state, every comment; then what the student reads), both totals.
 */
function table(lms: TestPlatform, linkIds: string[], column: (linkId: string) => string): string {
  const totals = (view: 'teacher' | 'student') =>
    new Map(lms.platform.courseTotals(view).map((t) => [t.userId, t.percent]));
  const [teacher, student] = [totals('teacher'), totals('student')];
  const toGrade = new Set(lms.platform.toGrade().map((row) => `${row.lineItemId}\n${row.userId}`));
  const shown = (percent: number | null | undefined) =>
    percent === null || percent === undefined ? '—' : `${percent} %`;
  const lines = [
    `| student | ${linkIds.join(' | ')} | course total (teacher / student) |`,
    `|---|${linkIds.map(() => '---|').join('')}---|`,
  ];
  for (const user of lms.platform.users().filter((u) => u.id.startsWith('student-'))) {
    const cells = linkIds.map((linkId) => {
      const row = lms.platform.gradebook().find((g) => g.lineItemId === column(linkId) && g.userId === user.id);
      if (!row) return '';
      const grade = row.scoreGiven === null ? '—' : `${row.scoreGiven} / 100 (${row.gradedBy ?? 'tool'})`;
      const state = row.canvas ? `${row.canvas.workflowState}, attempt ${row.canvas.attempt}` : row.gradingProgress;
      const flag = toGrade.has(`${row.lineItemId}\n${row.userId}`) ? ', to grade' : '';
      const seen = lms.platform.studentView(row);
      const comments = lms.platform.teacherComments(row).map((text) => `"${text}"`);
      return `${grade}; ${state}${flag}; ${comments.join(' + ') || 'no comment'}; student: ${seen.grade ?? '—'}, ${seen.comments.length} comment(s)`;
    });
    lines.push(
      `| ${user.name} | ${cells.join(' | ')} | ${shown(teacher.get(user.id))} / ${shown(student.get(user.id))} |`,
    );
  }
  return lines.join('\n');
}
