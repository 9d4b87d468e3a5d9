// Each LMS's score quirks (src/grades/platform-quirks.ts), chosen by the product family stored at registration: the
// timestamp gap, Canvas's submission extension, and which refusals mean a later timestamp or a user who cannot be
// graded. The platform-quirks test of the gradebook runs them through the dev platform.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgsAnswer } from '../../src/grades/ags.js';
import { quirksFor } from '../../src/grades/platform-quirks.js';

const CANVAS_SUBMISSION = 'https://canvas.instructure.com/lti/submission';
const answer = (status: number, body: string): AgsAnswer => ({ status, body });

test('the family is matched without regard to case or surrounding spaces; an unknown or missing one gets the generic rules', () => {
  assert.equal(quirksFor(' Canvas '), quirksFor('canvas'));
  assert.equal(quirksFor('MOODLE'), quirksFor('moodle'));
  assert.notEqual(quirksFor('canvas'), quirksFor('moodle'));
  assert.equal(quirksFor('desire2learn'), quirksFor(null));
  assert.equal(quirksFor(''), quirksFor(null));
});

test('score timestamps are a whole second apart for every LMS, the coarsest clock known (Moodle)', () => {
  for (const family of ['moodle', 'canvas', null])
    assert.equal(quirksFor(family).scoreTimestampGapMs, 1000, String(family));
});

test("Canvas's extension: an attempt once, a grade that keeps any grade there unless it is the tool's own, a post without a grade that keeps the grade unless told; Moodle's adds nothing", () => {
  const submittedAt = new Date('2026-03-01T10:15:30.250Z');
  const canvas = quirksFor('canvas');
  // The result as the grade, on a cell that is empty or not known: Canvas keeps any grade already there (C2).
  assert.deepEqual(
    canvas.scoreExtension({ submittedAt, newSubmission: false, grades: true, keepGradeThere: true, keepGrade: true }),
    {
      [CANVAS_SUBMISSION]: {
        new_submission: false,
        prioritize_non_tool_grade: true,
        submitted_at: '2026-03-01T10:15:30.250Z',
      },
    },
  );
  // A receipt, the attempt's first post: a new attempt, and the grade of an earlier attempt kept (C5, C1).
  assert.deepEqual(
    canvas.scoreExtension({ submittedAt, newSubmission: true, grades: false, keepGradeThere: true, keepGrade: true }),
    {
      [CANVAS_SUBMISSION]: { new_submission: true, preserve_score: true, submitted_at: '2026-03-01T10:15:30.250Z' },
    },
  );
  // A grade never carries preserve_score, which would stop it (C1).
  assert.equal(
    'preserve_score' in
      (canvas.scoreExtension({
        submittedAt,
        newSubmission: false,
        grades: true,
        keepGradeThere: false,
        keepGrade: true,
      })[CANVAS_SUBMISSION] as object),
    false,
  );
  // A deletion names no submission time.
  assert.deepEqual(
    canvas.scoreExtension({
      submittedAt: null,
      newSubmission: false,
      grades: false,
      keepGradeThere: true,
      keepGrade: false,
    }),
    { [CANVAS_SUBMISSION]: { new_submission: false, preserve_score: false } },
  );
  assert.deepEqual(
    quirksFor('moodle').scoreExtension({
      submittedAt,
      newSubmission: true,
      grades: true,
      keepGradeThere: false,
      keepGrade: false,
    }),
    {},
  );
  // An LMS of unknown family may be a Canvas registered without it: it keeps every grade, never clears one.
  assert.deepEqual(
    quirksFor(null).scoreExtension({
      submittedAt,
      newSubmission: false,
      grades: false,
      keepGradeThere: false,
      keepGrade: false,
    }),
    { [CANVAS_SUBMISSION]: { new_submission: false, preserve_score: true, submitted_at: '2026-03-01T10:15:30.250Z' } },
  );
});

test('a result without a grade: FullyGraded in Canvas (its PendingManual flips a graded paper), PendingManual elsewhere', () => {
  assert.equal(quirksFor('canvas').ungradedResultProgress, 'FullyGraded');
  assert.equal(quirksFor('moodle').ungradedResultProgress, 'PendingManual');
  assert.equal(quirksFor('desire2learn').ungradedResultProgress, 'PendingManual');
  assert.deepEqual(
    ['canvas', 'moodle', null].map((family) => [
      quirksFor(family).commentsAccumulate,
      quirksFor(family).linksOwnColumn,
    ]),
    [
      [true, false],
      [false, true],
      [false, true],
    ],
  );
});

test("each LMS's refusal of an older timestamp is recognised, and the generic rules recognise both", () => {
  const moodle = answer(409, 'Refusing score with an earlier timestamp for item 3 and user 7');
  const canvas = answer(
    400,
    'Provided timestamp of 2026-03-01T10:15:30Z before last updated timestamp of 2026-03-01T10:15:31Z',
  );
  assert.equal(quirksFor('moodle').isTimestampConflict(moodle), true);
  assert.equal(quirksFor('moodle').isTimestampConflict(canvas), false);
  assert.equal(quirksFor('canvas').isTimestampConflict(canvas), true);
  assert.equal(quirksFor('canvas').isTimestampConflict(answer(400, 'scoreMaximum must be positive')), false);
  assert.equal(quirksFor(null).isTimestampConflict(moodle), true);
  assert.equal(quirksFor(null).isTimestampConflict(canvas), true);
});

test("a user who cannot be graded is recognised in each LMS's words; an instructor's problem is not", () => {
  assert.equal(quirksFor('moodle').isNotGradable(answer(400, 'Incorrect score received')), true);
  assert.equal(quirksFor('canvas').isNotGradable(answer(422, 'User not found in course or is not a student')), true);
  assert.equal(
    quirksFor('canvas').isNotGradable(answer(422, 'The maximum number of allowed attempts has been reached')),
    false,
  );
  assert.equal(
    quirksFor(null).isNotGradable(answer(422, 'The maximum number of allowed attempts has been reached')),
    true,
  );
  assert.equal(quirksFor('moodle').isNotGradable(answer(500, 'Incorrect score received')), false);
});
