// The instructor dashboard's rows: roster students who have not submitted, colour bands, sorting and
// filtering, the histogram's text alternative, and CSV that a spreadsheet cannot turn into a formula.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assignmentSettings } from '../../src/assignments/settings.js';
import type { Assignment } from '../../src/assignments/store.js';
import { classSummary, dashboardRows, filterAndSort } from '../../src/submissions/class-overview.js';
import type { ClassRow } from '../../src/submissions/read-models.js';
import { histogramSvg, readDashboardQuery, toCsv } from '../../src/web/instructor-dashboard.js';
import { wordsFor } from '../../src/i18n/index.js';

const LEARNER = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';
const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
const assignment = { settings: assignmentSettings.parse({}) } as Assignment;

function row(subject: string, name: string, similarity: number | null, state = 'graded'): ClassRow {
  return {
    userId: subject,
    subject,
    name,
    email: `${subject}@example.edu`,
    attempts: 1,
    latest: {
      id: `s-${subject}`,
      state,
      similarity,
      aiScore: similarity === null ? null : 5,
      grammarScore: null,
      submittedAt: new Date('2026-11-20T10:00:00Z'),
      late: false,
      reportKey: 'K',
      failureReason: null,
      gradeState: 'posted',
      gradeError: null,
    } as ClassRow['latest'],
  };
}

const submitted = [
  row('u1', 'Zoë', 80),
  row('u2', 'Ana', 10),
  row('u3', '=HYPERLINK("http://evil")', 30),
  row('u4', 'Ben', null, 'processing'),
];
const roster = [
  { subject: 'u1', name: 'Zoë', email: null, roles: [LEARNER], active: true },
  { subject: 'u9', name: 'Carla', email: 'carla@example.edu', roles: [LEARNER], active: true },
  { subject: 't1', name: 'Teacher', email: null, roles: [INSTRUCTOR], active: true },
  { subject: 'u8', name: 'Dropped', email: null, roles: [LEARNER], active: false },
];

test('students on the roster who have not submitted are listed; teachers and inactive members are not', () => {
  const rows = dashboardRows(assignment, submitted, roster);
  assert.deepEqual(rows.map((r) => `${r.name}:${r.state}`).sort(), [
    '=HYPERLINK("http://evil"):graded',
    'Ana:graded',
    'Ben:processing',
    'Carla:not-submitted',
    'Zoë:graded',
  ]);
});

test('the default bands: 0-24 green, 25-49 yellow, 50-74 orange, 75-100 red, with words beside the colour', () => {
  const rows = dashboardRows(assignment, submitted, []);
  const byName = Object.fromEntries(rows.map((r) => [r.name, [r.band, r.bandText]]));
  assert.deepEqual(byName['Ana'], ['green', 'low']);
  assert.deepEqual(byName['=HYPERLINK("http://evil")'], ['yellow', 'moderate']);
  assert.deepEqual(byName['Zoë'], ['red', 'very high']);
  assert.deepEqual(byName['Ben'], [null, null]);
});

test('sorting by similarity, highest first; filtering by band and by status', () => {
  const rows = dashboardRows(assignment, submitted, roster);
  assert.deepEqual(
    filterAndSort(rows, readDashboardQuery({ sort: 'similarity', dir: 'desc' }))
      .slice(0, 3)
      .map((r) => r.similarity),
    [80, 30, 10],
  );
  assert.deepEqual(
    filterAndSort(rows, readDashboardQuery({ band: 'red' })).map((r) => r.name),
    ['Zoë'],
  );
  assert.deepEqual(
    filterAndSort(rows, readDashboardQuery({ state: 'not-submitted' })).map((r) => r.name),
    ['Carla'],
  );
  assert.equal(readDashboardQuery({ sort: 'drop table', band: 'purple' }).sort, 'similarity');
  assert.equal(readDashboardQuery({}).descending, true, 'highest similarity first when nothing is asked');
  assert.equal(readDashboardQuery({ sort: 'name' }).descending, false, 'names A to Z');
});

test('the histogram counts scored papers per 10 points and says so in words', () => {
  const { svg, summary } = histogramSvg(dashboardRows(assignment, submitted, []), wordsFor('en'));
  assert.match(svg, /aria-label="Similarity of the class, 3 scored"/);
  assert.equal(summary, '1 between 10 and 19 %; 1 between 30 and 39 %; 1 between 80 and 89 %');
});

test("a paper at 100 % is in the 90-100 bar; each bar is stacked in the colours of its papers' bands", () => {
  const rows = dashboardRows(
    assignment,
    [row('u1', 'A', 100), row('u2', 'B', 92), row('u3', 'C', 24), row('u4', 'D', 25)],
    [],
  );
  const { svg, summary } = histogramSvg(rows, wordsFor('en'));
  assert.equal(summary, '2 between 20 and 29 %; 2 between 90 and 100 %');
  assert.match(svg, /<title>90-100 %: 2<\/title><rect [^>]*fill="#C62828"\/><\/g>/);
  assert.match(svg, /<title>20-29 %: 2<\/title><rect [^>]*fill="#2E7D32"\/><rect [^>]*fill="#F9A825"\/><\/g>/);
  // The count axis: 0, half and the tallest bar's count.
  assert.deepEqual(
    [...svg.matchAll(/class="histogram-count"[^>]*>(\d+)<\/text>/g)].map((m) => m[1]),
    ['0', '1', '2'],
  );
});

test('the summary line: who submitted, who is missing, how many are in the red band', () => {
  assert.deepEqual(classSummary(assignment, dashboardRows(assignment, submitted, roster)), {
    total: 5,
    submitted: 4,
    missing: 1,
    redFrom: 75,
    inRed: 1,
  });
});

test('CSV: quoted where needed, and a name that looks like a formula is shown, not run', () => {
  const csv = toCsv(
    filterAndSort(dashboardRows(assignment, submitted, []), readDashboardQuery({ sort: 'name' })),
    wordsFor('en'),
  );
  const lines = csv.trim().split('\r\n');
  assert.equal(
    lines[0],
    'name,email,status,similarity,band,ai,grammar,submitted_at,late,attempts,grade_sync,result_at',
  );
  assert.ok(
    lines.includes(
      `"'=HYPERLINK(""http://evil"")",u3@example.edu,Checked,30,moderate,5,,2026-11-20T10:00:00.000Z,false,1,posted,`,
    ),
    csv,
  );
});
