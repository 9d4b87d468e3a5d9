// The score clock (src/grades/score-clock.ts): each score timestamp for one (platform, line item, user) is after the
// last one by at least the LMS's gap, even when two are asked for at once, and a time the platform holds is passed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Database } from '../../src/db/index.js';
import { nextScoreTimestamp, type ScoreClockKey } from '../../src/grades/score-clock.js';
import { openTestDatabase } from '../support/db.js';
import { platformWithCourse } from '../support/rows.js';

let database: Database;
let cleanup: () => Promise<void>;
let platformId: string;
let keys = 0;

before(async () => {
  ({ database, cleanup } = await openTestDatabase());
  ({ platformId } = await platformWithCourse(database.db, 'Clock LMS'));
});
after(() => cleanup());

/** A line item and user of their own for each test. */
const freshKey = (): ScoreClockKey => ({
  platformId,
  lineItemUrl: `https://lms.example/lineitems/${++keys}`,
  userSubject: 'student-1',
});
const GAP_MS = 1000;

test("the first timestamp is the time asked for; the next, asked for at the same time, is the LMS's gap later", async () => {
  const key = freshKey();
  const now = new Date('2026-05-04T09:00:00.250Z');
  assert.equal((await nextScoreTimestamp(database.db, key, now, GAP_MS)).toISOString(), '2026-05-04T09:00:00.250Z');
  assert.equal((await nextScoreTimestamp(database.db, key, now, GAP_MS)).toISOString(), '2026-05-04T09:00:01.250Z');
  assert.equal((await nextScoreTimestamp(database.db, key, now, GAP_MS)).toISOString(), '2026-05-04T09:00:02.250Z');
});

test('a time later than the last one plus the gap is taken as it is: the clock never holds scores back', async () => {
  const key = freshKey();
  await nextScoreTimestamp(database.db, key, new Date('2026-05-04T09:00:00Z'), GAP_MS);
  const later = new Date('2026-05-04T10:30:00Z');
  assert.equal((await nextScoreTimestamp(database.db, key, later, GAP_MS)).toISOString(), later.toISOString());
});

test('each line item and each user has a clock of its own', async () => {
  const key = freshKey();
  const now = new Date('2026-05-04T09:00:00Z');
  await nextScoreTimestamp(database.db, key, now, GAP_MS);
  const other = await nextScoreTimestamp(database.db, { ...key, userSubject: 'student-2' }, now, GAP_MS);
  assert.equal(other.toISOString(), now.toISOString());
  const otherItem = await nextScoreTimestamp(database.db, freshKey(), now, GAP_MS);
  assert.equal(otherItem.toISOString(), now.toISOString());
});

test('timestamps asked for at once are all different and each a gap apart', async () => {
  const key = freshKey();
  const now = new Date('2026-05-04T09:00:00Z');
  const given = await Promise.all(Array.from({ length: 8 }, () => nextScoreTimestamp(database.db, key, now, GAP_MS)));
  const times = given.map((time) => time.getTime()).sort((a, b) => a - b);
  assert.deepEqual(
    times.map((time) => time - now.getTime()),
    Array.from({ length: 8 }, (_, i) => i * GAP_MS),
  );
});
