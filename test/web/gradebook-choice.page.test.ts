// What an instructor is told of the gradebook before acting: the settings page says, beside each choice and before
// Save, what that LMS makes of it (Canvas's needs-grading list and posted comments, Brightspace's "ready for
// evaluation", Blackboard's grades shown at once) and what saving it would post now, to how many checked papers; and a
// dashboard offers no gradebook action where the tool posts no grade (an Asset Processor assignment, whose results
// are reports beside the LMS's files; an assignment the LMS gave no gradebook service).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { decodeHtml } from '../../src/devplatform/html.js';
import { en } from '../../src/i18n/en.js';
import { attachToActivity, checkedAsset } from '../support/asset-processor.js';
import { openCourse, type TestCourse } from '../support/course.js';
import { pageText } from '../support/page-text.js';
import { paper } from '../support/papers.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

let tool: TestTool;
const platforms: TestPlatform[] = [];

before(async () => {
  tool = await startTestTool({
    ASSET_PROCESSOR: 'on',
    SANDBOX_DELAY_MS: '200',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    JOB_POLLING_SECONDS: '0.5',
  });
});
after(async () => {
  for (const lms of platforms) await lms.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;

/** A course of one assignment on a platform registered as `productFamily`. */
async function courseIn(productFamily: string, rules: 'canvas' | 'brightspace' | 'blackboard'): Promise<TestCourse> {
  const clientId = `choice-${rules}`;
  const lms = await startTestPlatform(tool, { rules, clientId, productFamily });
  platforms.push(lms);
  return openCourse(tool, { clientId, lms, title: 'Essay on tides' });
}

/** The instructor's page at `path` of the assignment (settings or dashboard), as its words read. */
async function instructorPage(course: TestCourse, path: 'settings' | 'dashboard'): Promise<string> {
  const instructor = await launch(course.lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
  const page = await fetch(`${tool.url}${course.path}/${path}?ltik=${encodeURIComponent(instructor.ltik!)}`);
  assert.equal(page.status, 200);
  return (await page.text()).replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** The help said beside one choice of the gradebook column (everything between its radio and the next). */
function besideChoice(html: string, choice: 'comment' | 'assignment' | 'similarity'): string {
  const start = html.indexOf(`value="${choice}"`);
  assert.ok(start > 0, `no ${choice} choice`);
  const next = html.slice(start + 1).search(/name="gradeColumn"|id="column-preview"/);
  // The tool writes quotes as numeric references (&#34;).
  return pageText(html.slice(start, start + 1 + next)).replace(/&#(\d+);/g, (_, code: string) =>
    String.fromCharCode(Number(code)),
  );
}

describe('the settings say what each gradebook choice does in this LMS, and what saving it posts now', () => {
  test('Canvas, with two checked papers: the count and the consequences beside each choice, none for the current one', async () => {
    const course = await courseIn('canvas', 'canvas');
    for (const [student, seed] of [
      ['student-1', 'tidesone'],
      ['student-2', 'tidestwo'],
    ] as const) {
      const id = await course.submit(student, paper(seed));
      await eventually(
        async () =>
          (await db().selectFrom('submission').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state ===
          'graded',
        'a paper was not checked',
        60_000,
        200,
      );
    }
    const html = await instructorPage(course, 'settings');
    const current = besideChoice(html, 'comment');
    assert.match(current, /stays in your "needs grading" list until you grade it/);
    assert.doesNotMatch(current, /If you save this choice/, 'the current choice says what saving it posts');
    assert.match(
      besideChoice(html, 'assignment'),
      /In Canvas the student sees the grade at once.*If you save this choice: Saving this choice posts the similarity of each of the 2 checked papers as its grade \(out of 100\); a grade you gave stays yours\./,
    );
    assert.match(
      besideChoice(html, 'similarity'),
      /a new assignment, "Similarity: Essay on tides".*If you save this choice: Saving this choice posts the similarity of each of the 2 checked papers to a column of its own/,
    );
    // The page's script says it again, as the choice is made, where a screen reader announces it.
    assert.match(html, /<p id="column-preview" class="help" role="status"><\/p>/);
    assert.match(
      html,
      /value="assignment"[^>]*data-preview="If you save this choice: Saving this choice posts the similarity of each of the 2/,
    );
  });

  test('Brightspace flags the default\'s papers "ready for evaluation"; Blackboard Ultra shows a grade at once; no paper checked yet, nothing is posted', async () => {
    const brightspace = await instructorPage(await courseIn('desire2learn', 'brightspace'), 'settings');
    assert.match(besideChoice(brightspace, 'comment'), /every checked paper is flagged "ready for evaluation"/);
    assert.match(
      besideChoice(brightspace, 'assignment'),
      /No paper is checked yet: saving this choice posts nothing now/,
    );
    const blackboard = await instructorPage(await courseIn('BlackboardLearn', 'blackboard'), 'settings');
    assert.match(
      besideChoice(blackboard, 'assignment'),
      /In Blackboard Ultra the grade is posted to the student at once\./,
    );
  });
});

describe('no gradebook action where the tool posts no grade', () => {
  test('an Asset Processor assignment: its reports may be sent again, no score; the resync of scores is refused with a sentence', async () => {
    const lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'choice-ap', productFamily: 'canvas' });
    platforms.push(lms);
    const activity = { id: 'c3a5e7d9-0000-4000-8000-000000000046', title: 'Essay on dunes' };
    const assignmentId = await attachToActivity(tool, lms, activity);
    await checkedAsset(tool, lms, assignmentId, {
      subject: 'student-1',
      name: 'Sam Student',
      lmsSubmissionId: 'sub-1:1',
      assetId: 'asset-dunes',
      fileLabel: 'dunes.pdf',
      paperId: 4646,
    });
    const settings = await launch(lms.platform, {
      userId: 'instructor-1',
      assetProcessor: { messageType: 'LtiAssetProcessorSettingsRequest', activityId: activity.id },
    });
    assert.equal(settings.status, 200, pageText(settings.body));
    assert.ok(
      decodeHtml(settings.body).includes(en['dashboard.gradebookUse.reports']),
      'the settings offer a gradebook choice',
    );
    assert.doesNotMatch(settings.body, /type="radio" name="gradeColumn"/);
    const ltik = new URL(settings.url).searchParams.get('ltik')!;
    const dashboard = decodeHtml(
      await (await fetch(`${tool.url}/assignments/${assignmentId}/dashboard?ltik=${encodeURIComponent(ltik)}`)).text(),
    );
    assert.ok(dashboard.includes(en['dashboard.gradebookUse.reports']));
    assert.doesNotMatch(dashboard, /Send all scores to the gradebook again|Resend grade/);
    assert.match(dashboard, /Send the reports again/);
    const refused = await fetch(`${tool.url}/assignments/${assignmentId}/resync-grades`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ ltik }),
    });
    assert.equal(refused.status, 303);
    assert.equal(
      new URL(refused.headers.get('location')!, tool.url).searchParams.get('notice'),
      en['dashboard.notice.reportsNotGrades'],
    );
    assert.equal(lms.platform.scoreLog().length, 0, 'a score was posted for an Asset Processor assignment');
  });

  test('an assignment the LMS gave no gradebook service: the dashboard says so and offers no gradebook action', async () => {
    const lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'choice-no-ags', productFamily: 'canvas' });
    platforms.push(lms);
    const course = await openCourse(tool, { clientId: 'choice-no-ags', lms, title: 'Essay without a column' });
    const id = await course.submit('student-1', paper('nocolumn'));
    const assignmentId = course.path.split('/').pop()!;
    await eventually(
      async () =>
        (await db().selectFrom('submission').select('similarity').where('id', '=', id).executeTakeFirstOrThrow())
          .similarity !== null,
      'the paper was not checked',
      60_000,
      200,
    );
    // As an LMS whose launches carry no gradebook service leaves the assignment.
    await db()
      .updateTable('assignment')
      .set({ line_item_url: null, line_items_url: null })
      .where('id', '=', assignmentId)
      .execute();
    const instructor = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    await db()
      .updateTable('assignment')
      .set({ line_item_url: null, line_items_url: null })
      .where('id', '=', assignmentId)
      .execute();
    const dashboard = decodeHtml(
      await (await fetch(`${tool.url}${course.path}/dashboard?ltik=${encodeURIComponent(instructor.ltik!)}`)).text(),
    );
    assert.ok(dashboard.includes(en['dashboard.gradebookUse.none']));
    assert.doesNotMatch(dashboard, /Send all scores to the gradebook again|Resend grade|Send the reports again/);
  });
});
