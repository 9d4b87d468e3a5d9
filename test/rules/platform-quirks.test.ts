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

test("Canvas's final score keeps the student's submit time and the teacher's own grade; Moodle's adds nothing", () => {
  const submittedAt = new Date('2026-03-01T10:15:30.250Z');
  assert.deepEqual(quirksFor('canvas').finalScoreExtension(submittedAt), {
    [CANVAS_SUBMISSION]: {
      new_submission: false,
      prioritize_non_tool_grade: true,
      preserve_score: true,
      submitted_at: '2026-03-01T10:15:30.250Z',
    },
  });
  assert.deepEqual(quirksFor('moodle').finalScoreExtension(submittedAt), {});
  assert.deepEqual(
    quirksFor(null).finalScoreExtension(submittedAt),
    quirksFor('canvas').finalScoreExtension(submittedAt),
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
