// A term of one course, end to end, on the dev platform under Moodle's, Canvas's and the specification's rules, with
// the sandbox as the checking service: two assignments, three students (an original paper, a copied one, a
// resubmission after the first result, a late submission), a teacher who grades in the LMS before and after the similarity arrives, and who
// changes the second assignment's gradebook setting mid-term. At the end every cell of the LMS's gradebook and every
// course total is what the teacher expects: no grade and no total computed from a similarity unless the teacher chose
// so, and every grade the teacher gave still theirs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { decodeHtml } from '../../src/devplatform/html.js';
import type { GradebookRow, PlatformRules } from '../../src/devplatform/index.js';
import { en } from '../../src/messages/en.js';
import { storedSettings } from '../../src/assignments/settings.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { settingsForm } from '../support/forms.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

let tool: TestTool;
const platforms: TestPlatform[] = [];

before(async () => {
  tool = await startTestTool({
    // Long enough for the teacher to grade a paper before its similarity arrives.
    SANDBOX_DELAY_MS: '2500',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    JOB_POLLING_SECONDS: '0.5',
    JOB_RETRY_DELAY_SECONDS: '1',
    JOB_RETRY_LIMIT: '30',
  });
});
after(async () => {
  for (const platform of platforms) await platform.close();
  await tool.stop();
});

/** A paper of its own: words no other seed's paper shares, so only a copy of it scores above 0. */
function paper(seed: string): string {
  const word = (n: number) =>
    seed +
    Array.from({ length: 3 }, (_, i) => String.fromCharCode(97 + ((n * 7 + i * 13 + seed.length) % 26))).join('') +
    String.fromCharCode(97 + (n % 26));
  return Array.from(
    { length: 40 },
    (_, s) => Array.from({ length: 8 }, (_, w) => word(s * 8 + w)).join(' ') + '.',
  ).join(' ');
}

/** The first half of `copied`'s sentences, then the second half of `own`'s. */
function halfOf(copied: string, own: string): string {
  const sentences = (text: string) => text.split('. ');
  const half = sentences(copied).length / 2;
  return [...sentences(copied).slice(0, half), ...sentences(own).slice(half)].join('. ');
}

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

/** Saves the assignment's settings as its instructor does on the settings page, with `change` applied. */
async function saveSettings(course: TestCourse, linkId: string, change: (form: URLSearchParams) => void) {
  const instructor = await launch(course.lms.platform, { userId: 'instructor-1', resourceLinkId: linkId });
  assert.ok(instructor.ltik);
  const assignmentId = course.path.split('/').pop()!;
  const row = await db()
    .selectFrom('assignment')
    .select('settings')
    .where('id', '=', assignmentId)
    .executeTakeFirstOrThrow();
  const form = settingsForm(storedSettings.parse(row.settings), instructor.ltik);
  change(form);
  const saved = await fetch(`${tool.url}${course.path}/settings`, { method: 'POST', body: form });
  assert.equal(saved.status, 200, await saved.text());
}

const similarity = (row: { similarity: string | null }) => Number(row.similarity);
const comment = (value: number) => `Similarity ${value}%. The full report is in the assignment.`;

// The specification's rules stand for an LMS whose gradebook rules are not known (Blackboard, Brightspace): there the
// tool reads a cell before it posts a grade over it.
for (const rules of ['moodle', 'canvas', 'spec'] as const satisfies PlatformRules[]) {
  test(`a term in ${rules}: every cell of the gradebook and every course total is what the teacher expects`, async () => {
    const lms = await startTestPlatform(tool, { rules, clientId: `term-${rules}` });
    platforms.push(lms);
    const rivers = await openCourse(tool, {
      clientId: `term-${rules}`,
      lms,
      linkId: 'rivers',
      title: 'Essay 1: rivers',
    });
    const glaciers = await openCourse(tool, {
      clientId: `term-${rules}`,
      lms,
      linkId: 'glaciers',
      title: 'Essay 2: glaciers',
    });
    const column = (linkId: string) => lms.platform.resourceLinks().find((link) => link.id === linkId)!.lineItemIds[0]!;
    const cell = (linkId: string, userId: string): GradebookRow | undefined =>
      lms.platform.gradebook().find((row) => row.lineItemId === column(linkId) && row.userId === userId);

    // Essay 1, the default setting. Sam's original paper: the teacher grades it before its similarity arrives.
    const samOriginal = await rivers.submit('student-1', paper(`${rules}sam`));
    assert.notEqual((await submission(samOriginal)).state, 'graded', 'the similarity came before the teacher graded');
    lms.platform.gradeAsTeacher(column('rivers'), 'student-1', 88);
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
    await saveSettings(glaciers, 'glaciers', (form) => {
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

    // The gradebook at the end of term, cell by cell.
    const shown = (linkId: string, userId: string) => {
      const row = cell(linkId, userId);
      return (
        row && {
          grade: row.scoreGiven,
          by: row.scoreGiven === null ? null : row.gradedBy,
          comment: row.comment ?? null,
        }
      );
    };
    // Moodle keeps an overridden grade's feedback as it was when the teacher graded (no comment yet for Sam);
    // Canvas adds each comment to the submission.
    const expected = {
      rivers: {
        'student-1': { grade: 88, by: 'teacher', comment: rules === 'moodle' ? null : comment(similarity(sam1)) },
        'student-2': { grade: 40, by: 'teacher', comment: comment(similarity(noor1)) },
        'student-3': { grade: null, by: null, comment: comment(similarity(lee1)) },
      },
      glaciers: {
        'student-1': { grade: 75, by: 'teacher', comment: comment(similarity(sam2)) },
        'student-2': { grade: similarity(noor2), by: 'tool', comment: comment(similarity(noor2)) },
        'student-3': { grade: similarity(lee2), by: 'tool', comment: comment(similarity(lee2)) },
      },
    };
    const actual = Object.fromEntries(
      (['rivers', 'glaciers'] as const).map((linkId) => [
        linkId,
        Object.fromEntries(['student-1', 'student-2', 'student-3'].map((userId) => [userId, shown(linkId, userId)])),
      ]),
    );
    console.log(`End of term in ${rules}:\n${table(lms, ['rivers', 'glaciers'], column)}`);
    assert.deepEqual(actual, expected);
    // The students' papers: Sam's original and Lee's attempts score nothing; Lee's cell shows the later attempt.
    assert.deepEqual([similarity(sam1), similarity(lee1First), similarity(lee1)], [0, 0, 0]);
    // Lee's Essay 2 cell keeps his real submission time, after the due date (the LMS would mark it late itself).
    assert.equal(cell('glaciers', 'student-3')?.submittedAt, lee2.submitted_at.toISOString());
    assert.ok(lee2.submitted_at > due);

    // Course totals: from graded cells only; Lee's Essay 1 (no grade) counts for nothing.
    const totals = Object.fromEntries(lms.platform.courseTotals().map((t) => [t.userId, t.percent]));
    assert.deepEqual(totals, {
      'student-1': (88 + 75) / 2,
      'student-2': (40 + similarity(noor2)) / 2,
      'student-3': similarity(lee2),
    });

    // The dashboard says what the tool posts and where, in the words of the messages.
    const essay1 = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'rivers' });
    assert.ok(
      decodeHtml(essay1.body).includes(en['dashboard.gradebookUse.comment']),
      'Essay 1 dashboard: a comment, no grade',
    );
    const essay2 = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'glaciers' });
    assert.ok(
      decodeHtml(essay2.body).includes(en['dashboard.gradebookUse.assignment']),
      'Essay 2 dashboard: as the grade',
    );
    for (const name of ['Sam Student', 'Noor Student', 'Lee Student']) {
      const row = essay2.body.split('<tr').find((tr) => tr.includes(name)) ?? '';
      assert.ok(row.includes(en['state.checked']), `${name}'s row on Essay 2's dashboard says ${en['state.checked']}`);
      assert.ok(row.includes(en['dashboard.gradebook.posted']), `${name}'s row says the gradebook has the score`);
    }
  });
}

/** The gradebook as a table: a row per student, a column per assignment (grade, who gave it, comment), the total. */
function table(lms: TestPlatform, linkIds: string[], column: (linkId: string) => string): string {
  const totals = new Map(lms.platform.courseTotals().map((t) => [t.userId, t.percent]));
  const lines = [
    `| student | ${linkIds.join(' | ')} | course total |`,
    `|---|${linkIds.map(() => '---|').join('')}---|`,
  ];
  for (const user of lms.platform.users().filter((u) => u.id.startsWith('student-'))) {
    const cells = linkIds.map((linkId) => {
      const row = lms.platform.gradebook().find((g) => g.lineItemId === column(linkId) && g.userId === user.id);
      if (!row) return '';
      const grade = row.scoreGiven === null ? '—' : `${row.scoreGiven} / 100 (${row.gradedBy})`;
      return `${grade}; ${row.gradingProgress}; "${row.comment ?? ''}"`;
    });
    const total = totals.get(user.id);
    lines.push(
      `| ${user.name} | ${cells.join(' | ')} | ${total === null || total === undefined ? '—' : `${total} %`} |`,
    );
  }
  return lines.join('\n');
}
