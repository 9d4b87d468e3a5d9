// The report kinds (src/reports/kinds.ts): every kind the service makes reaches the pages. A kind is offered to an
// instructor and, where every setting allows it, to a student, once each, in an order of its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultSettings } from '../../src/assignments/settings.js';
import { REPORT_KINDS, REPORTS, reportsOffered } from '../../src/reports/kinds.js';

const everyReportMade = { grammarScore: 12 };
const everythingShown = { ...defaultSettings(), showAiScoreToStudents: true, grammarCheck: true };

test('every report kind is offered to an instructor and to a student, once each', () => {
  for (const reader of ['instructor', 'student'] as const) {
    const offered = reportsOffered(reader, everythingShown, everyReportMade).map(({ kind }) => kind);
    assert.deepEqual([...offered].sort(), [...REPORT_KINDS].sort(), reader);
  }
});

test("each report kind has a place of its own on the student's pages", () => {
  const places = REPORT_KINDS.map((kind) => REPORTS[kind].studentPlace);
  assert.deepEqual([...new Set(places)], places);
  assert.deepEqual(
    reportsOffered('student', everythingShown, everyReportMade).map(({ kind }) => kind),
    ['similarity', 'summary', 'ai', 'grammar'],
  );
});
