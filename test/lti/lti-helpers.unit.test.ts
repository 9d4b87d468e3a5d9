// Small LTI rules the tool depends on: who counts as an instructor, the scores URL beside a line item, paging links.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scoresUrl } from '../../src/grades/ags.js';
import { audienceOf, isPlatformAdmin } from '../../src/lti/roles.js';
import { nextLink } from '../../src/lti/roster.js';

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2';

describe('which side a launch opens', () => {
  const cases: Array<[string, string[], string]> = [
    ['a Moodle teacher', [`${LIS}/membership#Instructor`], 'instructor'],
    ['a Canvas TA (sub-role)', [`${LIS}/membership/Instructor#TeachingAssistant`], 'instructor'],
    ['a content developer', [`${LIS}/membership#ContentDeveloper`], 'instructor'],
    [
      'a Moodle site admin in the course',
      [`${LIS}/institution/person#Administrator`, `${LIS}/system/person#Administrator`],
      'instructor',
    ],
    ['a student', [`${LIS}/membership#Learner`, `${LIS}/institution/person#Student`], 'learner'],
    ['a student with a simple role name', ['Learner'], 'learner'],
    [
      'a teacher who is also enrolled as a student',
      [`${LIS}/membership#Learner`, `${LIS}/membership#Instructor`],
      'instructor',
    ],
    ['a mentor (parent)', [`${LIS}/membership#Mentor`], 'none'],
    ['a guest', [`${LIS}/institution/person#Guest`], 'none'],
    ['no roles', [], 'none'],
    ['a look-alike role from another vocabulary', ['http://example.com/roles#Instructor'], 'none'],
  ];
  for (const [who, roles, audience] of cases)
    test(`${who} → ${audience}`, () => assert.equal(audienceOf(roles), audience));

  test('platform administrators are recognised for the admin side', () => {
    assert.equal(isPlatformAdmin([`${LIS}/institution/person#Administrator`]), true);
    assert.equal(isPlatformAdmin([`${LIS}/membership#Instructor`]), false);
  });
});

describe('the scores URL keeps the line item query string (Moodle, Canvas)', () => {
  test('Moodle: /lineitem?type_id=1 → /lineitem/scores?type_id=1', () => {
    assert.equal(
      scoresUrl('https://moodle.example.edu/mod/lti/services.php/2/lineitems/7/lineitem?type_id=1'),
      'https://moodle.example.edu/mod/lti/services.php/2/lineitems/7/lineitem/scores?type_id=1',
    );
  });
  test('Canvas: a plain line item URL, with or without a trailing slash', () => {
    assert.equal(
      scoresUrl('https://canvas.example.edu/api/lti/courses/1/line_items/42'),
      'https://canvas.example.edu/api/lti/courses/1/line_items/42/scores',
    );
    assert.equal(
      scoresUrl('https://canvas.example.edu/api/lti/courses/1/line_items/42/'),
      'https://canvas.example.edu/api/lti/courses/1/line_items/42/scores',
    );
  });
});

describe('paging through a roster', () => {
  test('finds rel="next" among several links, and none when absent', () => {
    assert.equal(nextLink('<https://lms/m?p=1>; rel="first", <https://lms/m?p=3>; rel="next"'), 'https://lms/m?p=3');
    assert.equal(nextLink(['<https://lms/m?p=2>; rel=next']), 'https://lms/m?p=2');
    assert.equal(nextLink('<https://lms/m?p=1>; rel="prev"'), null);
    assert.equal(nextLink(undefined), null);
  });
});
