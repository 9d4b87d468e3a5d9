// The LMSs the tool tells apart (src/lti/product-family.ts): a code names one LMS whatever its case, and an LMS the
// tool treats in its own way rests on sources kept beside the tests (test/fixtures/lms/<lms>/gradebook.md), as the
// quirks and the settings page's consequences say of each rule.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { LMS_CONSEQUENCES } from '../../src/grades/gradebook-use.js';
import { QUIRKS } from '../../src/grades/platform-quirks.js';
import { LMS_CODES, PRODUCT_FAMILIES, lmsOf, type Lms } from '../../src/lti/product-family.js';

test('each code names its one LMS, without regard to case or spaces; any other, or none, is other', () => {
  const codes = Object.values(LMS_CODES).flatMap((known) => known.map((code) => code.toLowerCase()));
  assert.deepEqual([...new Set(codes)], codes, 'a code is known for two LMSs');
  for (const [lms, known] of Object.entries(LMS_CODES))
    for (const code of known) {
      assert.equal(lmsOf(code), lms);
      assert.equal(lmsOf(` ${code.toUpperCase()} `), lms);
    }
  assert.deepEqual(PRODUCT_FAMILIES, ['moodle', 'canvas', 'desire2learn', 'BlackboardLearn', 'sakai', 'schoology']);
  for (const other of ['', '  ', 'ilias', null, undefined]) assert.equal(lmsOf(other), 'other');
});

test('an LMS with quirks or consequences of its own has its sources in test/fixtures/lms/<lms>/gradebook.md', () => {
  const lmss = Object.keys(QUIRKS) as Lms[];
  const own = lmss.filter((lms) => QUIRKS[lms] !== QUIRKS.other || Object.keys(LMS_CONSEQUENCES[lms]).length > 0);
  assert.ok(own.includes('moodle') && own.includes('canvas'));
  for (const lms of own)
    assert.ok(existsSync(new URL(`../fixtures/lms/${lms}/gradebook.md`, import.meta.url)), `${lms} has no sources`);
});
