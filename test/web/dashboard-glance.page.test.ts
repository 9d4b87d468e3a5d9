// The class at a glance, as an instructor sees it in Moodle's frame: the summary line first and its counts, the
// first student in sight without scrolling at 1366×900 (with Moodle's course index beside the frame), the highest
// similarity first and another sort one click away, compact rows with the states in words, the histogram after the
// list, and nothing wider than the frame at 1366, 768 and 390 (test/support/frame-fit.ts checks the layout and axe).
// At home in the frame: the course's LMS is registered as Moodle, so the page has Moodle's type at 15 px, leaves
// the title Moodle shows above the frame to screen readers, and names its tabs apart from Moodle's.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  applyLook,
  assertFits,
  course,
  openFramed,
  frameUrl,
  startFrameCourse,
  stopFrameCourse,
  TITLE,
  tool,
  type Look,
} from '../support/frame-fit.js';
import { eventually } from '../support/wait.js';

// Moodle 4.5 (Boost) with the course index open: its frame is the content column beside the 285 px index, below
// Moodle's headers; at 768 the index is closed and the column takes the window; at 390 a phone.
const MOODLE: Look[] = [
  {
    name: 'moodle-1366x900',
    window: { width: 1366, height: 900 },
    frame: { width: 1000, height: 562 },
    resizes: false,
    panel: 285,
  },
  { name: 'moodle-768', window: { width: 768, height: 1024 }, frame: { width: 704, height: 700 }, resizes: false },
  { name: 'moodle-390', window: { width: 390, height: 844 }, frame: { width: 358, height: 480 }, resizes: false },
];

before(async () => {
  // The course's LMS is registered as Moodle: the pages take on its type.
  await startFrameCourse({ productFamily: 'moodle' });
  // A copy of Noor's paper: the class has a paper in the red band, at or near 100 %.
  await course.submit(
    'student-copy',
    Array.from(
      { length: 40 },
      (_, i) => `Sentence ${i} about urban heat islands with its own evidence number ${i * 7}.`,
    ).join(' '),
  );
  await eventually(
    async () => {
      const states = await tool.tool.database.db.selectFrom('submission').select('state').execute();
      return states.length === 3 && states.every((s) => s.state === 'scored' || s.state === 'graded');
    },
    'the copied paper was not checked in time',
    60_000,
    250,
  );
});
after(stopFrameCourse);

const percentOf = (text: string) => (/(\d+(?:\.\d)?)%/.exec(text) ? Number(/(\d+(?:\.\d)?)%/.exec(text)![1]) : null);

test("the class at a glance in Moodle's frame: summary first, highest similarity first, the first row in sight, nothing wider than the frame", async () => {
  const [wide] = MOODLE;
  const { page, frame } = await openFramed(wide!, frameUrl(wide!, 'instructor-1'), TITLE);
  const framed = page.frameLocator('#tool-frame');
  try {
    // /dev/frame sizes its frame from the address alone (its page's CSP refuses a style attribute).
    const sized = (await page.locator('#tool-frame').boundingBox())!;
    assert.deepEqual(
      [sized.width, sized.height],
      [wide!.frame.width, wide!.frame.height],
      'the LMS frame has the size its address asks for',
    );
    // Moodle's course index stands beside the frame, not over it.
    const index = (await page.locator('#course-index').boundingBox())!;
    assert.equal(index.width, wide!.panel);
    assert.ok(
      index.x + index.width <= sized.x,
      `the course index (to ${index.x + index.width} px) overlaps the frame (from ${sized.x} px)`,
    );
    await applyLook(page, await frame(), wide!, TITLE);

    // At home in Moodle's frame: Moodle shows the assignment's title above the frame, so the page's own copy is
    // there for screen readers only (still its one level-1 heading); the tabs say what they are beside Moodle's
    // own "Settings"; the type is Moodle's, at its 15 px.
    const title = framed.getByRole('heading', { level: 1 });
    assert.equal(await title.count(), 1);
    assert.equal((await title.textContent())?.trim(), TITLE);
    const titleBox = (await title.boundingBox())!;
    assert.ok(
      titleBox.width <= 1 && titleBox.height <= 1,
      `the repeated title is drawn ${titleBox.width}×${titleBox.height} px`,
    );
    assert.deepEqual(await framed.getByRole('navigation', { name: 'Assignment' }).getByRole('link').allInnerTexts(), [
      'Submissions',
      'Check settings',
    ]);
    const type = await framed.locator('body').evaluate((body) => {
      const style = (
        globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string; fontFamily: string } }
      ).getComputedStyle(body);
      return { size: style.fontSize, family: style.fontFamily };
    });
    assert.equal(type.size, '15px');
    assert.match(type.family, /^-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial/);
    const rows = framed.locator('.class-table tbody tr');
    const texts = await rows.evaluateAll((trs) => trs.map((tr) => (tr as unknown as { innerText: string }).innerText));
    assert.ok(texts.length >= 5, `the roster's students: ${await framed.locator('.who .name').allInnerTexts()}`);

    // The summary line, before the list, says what the list shows.
    const missing = texts.filter((text) => /Not submitted/.test(text)).length;
    const red = await rows.locator('.band-red').count();
    assert.equal(missing, texts.length - 3);
    assert.ok(red >= 1, 'the copied paper is in the red band');
    assert.equal(
      (await framed.locator('#class-summary').innerText()).trim(),
      `3 of ${texts.length} submitted · ${missing} missing · ${red} at 75% or above`,
    );

    // Highest similarity first; those who sent nothing last; the states in words.
    const scores = texts.map(percentOf);
    assert.deepEqual(
      scores.slice(3),
      Array(missing).fill(null),
      `the students without a paper come last: ${texts.join(' | ')}`,
    );
    assert.deepEqual(
      scores.slice(0, 3),
      [...scores.slice(0, 3)].sort((a, b) => b! - a!),
      `not highest first: ${scores.join(', ')}`,
    );
    assert.ok(scores[0]! >= 90, `the copy (${scores[0]} %) leads the list`);
    for (const text of texts.slice(0, 3)) assert.match(text, /Checked/);
    // Ties (no paper) by name, A to Z.
    const unsent = (await framed.locator('.class-table tbody .who .name').allInnerTexts()).slice(3);
    assert.deepEqual(
      unsent,
      [...unsent].sort((a, b) => a.localeCompare(b)),
    );
    assert.equal(
      await framed.getByRole('columnheader', { name: /Similarity/ }).getAttribute('aria-sort'),
      'descending',
    );

    // The first student row is in sight in the frame as the page opens, and rows are compact.
    const first = await rows.first().boundingBox();
    const frameTop = (await page.locator('#tool-frame').boundingBox())!.y;
    assert.ok(first, 'the first row is drawn');
    assert.ok(
      first.y + first.height - frameTop <= wide!.frame.height,
      `the first row ends ${Math.round(first.y + first.height - frameTop)} px down a ${wide!.frame.height} px frame`,
    );
    assert.ok(await rows.first().locator('.who .name').isVisible());
    assert.ok(first.height <= 64, `a row is ${first.height} px tall`);

    // The histogram comes after the list, and a paper at 90 % or more is counted in the 90-100 bar.
    const order = await framed
      .locator('section:has(.class-table), .histogram-box')
      .evaluateAll((sections) => sections.map((s) => (s as unknown as { className: string }).className));
    assert.deepEqual(order, ['', 'histogram-box']);
    const top = await framed.locator('.histogram title').last().textContent();
    assert.match(top ?? '', /^90-100 %: [1-9]/);
    assert.equal(
      await framed
        .locator('.histogram text')
        .first()
        .evaluate(
          (text) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { fontSize: string } }).getComputedStyle(text)
              .fontSize,
        ),
      '12px',
    );

    // Another sort is one click away: names A to Z.
    await framed
      .getByRole('columnheader', { name: /Student/ })
      .getByRole('link')
      .click();
    await framed
      .getByRole('columnheader', { name: /Student/ })
      .and(framed.locator('[aria-sort="ascending"]'))
      .waitFor();
    const names = await framed.locator('.class-table tbody .who .name').allInnerTexts();
    assert.deepEqual(
      names,
      [...names].sort((a, b) => a.toLocaleLowerCase().localeCompare(b.toLocaleLowerCase())),
    );

    for (const look of MOODLE) {
      await applyLook(page, await frame(), look, TITLE);
      await assertFits(look, page, await frame(), 'dashboard-glance');
    }
  } finally {
    await page.context().close();
  }
});
