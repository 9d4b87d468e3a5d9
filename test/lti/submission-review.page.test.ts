// Moodle-style submission review in a browser, through the dev platform: a student submits, the score reaches the
// LMS's gradebook, the teacher opens that grade ("Grade analysis", as Moodle's mod/lti/grade.php does) and sees
// that student's submission in the tool; another student who opens the same grade is refused with a sentence.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot, seriousAxeViolations } from '../support/browser.js';
import { browserPeople, type People } from '../support/people.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';
import { shownSimilarity } from '../support/gradebook-cell.js';

const essay =
  'Rivers carve valleys over long spans of time. ' +
  Array.from({ length: 50 }, (_, i) => `Sentence ${i} on sediment, meanders and floods, with figure ${i * 3}.`).join(
    ' ',
  );

let tool: TestTool;
let lms: ServedPlatform;
let browser: Browser;
let people: People;

before(async () => {
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '500',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
  });
  lms = await startTestPlatform(tool, { rules: 'moodle', clientId: 'review-browser' });
  lms.platform.addResourceLink({
    id: 'rivers',
    title: 'Essay on rivers',
    lineItem: { label: 'Essay on rivers', scoreMaximum: 100 },
  });
  browser = await launchBrowser();
  people = browserPeople(browser, lms.url);
});
after(async () => {
  await browser?.close();
  await lms?.close();
  await tool?.stop();
});

describe("submission review from the LMS's gradebook", () => {
  test("the teacher opens a student's grade and sees that student's submission; another student opening it is refused", async () => {
    // The teacher opens the activity once; the student submits.
    const teacherFirst = await people.openAssignmentAs('iris', 'Iris Instructor');
    await teacherFirst.close();
    const sam = await people.openAssignmentAs('sam', 'Sam Student');
    const [chooser] = await Promise.all([
      sam.waitForEvent('filechooser'),
      sam.getByLabel('Choose a file, or drop it here').click(),
    ]);
    await chooser.setFiles({ name: 'rivers.txt', mimeType: 'text/plain', buffer: Buffer.from(essay) });
    await sam.getByRole('button', { name: 'Submit' }).click();
    await sam.getByText(/^✓ rivers\.txt arrived on /).waitFor();
    await eventually(
      () => lms.platform.gradebook().some((row) => row.userId === 'student-1' && shownSimilarity(row) !== null),
      "Sam's score reached the gradebook",
      60_000,
      200,
    );

    // The teacher, in the LMS's gradebook: the grade's "Grade analysis" link launches the review for Sam.
    const iris = await people.page('iris');
    await iris.goto(`${lms.url}/`);
    const samsRow = iris.locator('tr', { hasText: 'Sam Student' });
    await samsRow.getByRole('link', { name: 'as Iris Instructor' }).click();
    await iris.waitForURL(/\/assignments\/[0-9a-f-]{36}\/students\/[0-9a-f-]{36}/);
    await iris.getByRole('heading', { name: 'Submissions of Sam Student' }).waitFor();
    const table = (await iris.getByRole('region', { name: "The student's submissions" }).textContent()) ?? '';
    assert.match(table, /rivers\.txt/);
    assert.match(table, /\d+\s*%/);
    await screenshot(iris, 'submission-review-teacher');
    assert.deepEqual(
      await seriousAxeViolations(iris),
      [],
      "axe found serious or critical problems on the student's submissions page",
    );

    // Noor, a student, opens the same grade (Moodle would launch her): refused, nothing of Sam's shown.
    const noor = await people.page('noor');
    await noor.goto(`${lms.url}/`);
    await noor.locator('tr', { hasText: 'Sam Student' }).getByRole('link', { name: 'as Noor Student' }).click();
    await noor.getByText('You can open only your own submissions.', { exact: false }).waitFor();
    const refused = (await noor.locator('body').textContent()) ?? '';
    assert.doesNotMatch(refused, /rivers\.txt|Sam Student/);
    await screenshot(noor, 'submission-review-refused');
  });
});
