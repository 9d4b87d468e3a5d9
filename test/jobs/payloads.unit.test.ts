// Each queue's payload is declared once (src/jobs/queues.ts): sends queue what it declares, handlers read it, and the
// fair-share grouping of the queues that call an LMS names its fields through it. A field the payload does not have
// (one renamed or removed) is a type error where a grouping names it, and is refused when the grouping is made; here,
// that every grouping reads only fields its payload has, as text the SQL can look up, and that the refusal holds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { fieldAt, groupOf, LMS_OF_JOB, payloadOf, QUEUES, type QueueName } from '../../src/jobs/queues.js';

const groupings = Object.entries(LMS_OF_JOB) as Array<[QueueName, (typeof LMS_OF_JOB)[keyof typeof LMS_OF_JOB]]>;

test('every fair-share grouping reads only fields its queue’s payload declares, each a text', () => {
  assert.deepEqual(groupings.map(([queue]) => queue).sort(), [QUEUES.assetFetch, QUEUES.assetReport, QUEUES.grade]);
  for (const [queue, group] of groupings) {
    assert.ok(group.reads.length > 0, `${queue}'s grouping reads nothing of its job's data`);
    for (const path of group.reads) {
      let field = fieldAt(queue, path);
      assert.ok(field, `${queue}'s grouping reads ${path.join('.')}, which its payload does not declare`);
      while (field instanceof z.ZodOptional) field = field.unwrap() as z.ZodType;
      assert.ok(field instanceof z.ZodString, `${queue}'s grouping reads ${path.join('.')}, which is not a text`);
      assert.ok(group.sql.includes(`j.data #>> '{${path.join(',')}}'`), `${queue}'s SQL does not read ${path}`);
    }
  }
  assert.deepEqual(LMS_OF_JOB[QUEUES.grade].reads, [['submissionId'], ['clear', 'assignmentId']]);
});

test('a grouping that names a field its payload does not have is refused', () => {
  assert.throws(
    // @ts-expect-error: the asset report's payload names its asset `assetRowId`
    () => groupOf(QUEUES.assetReport, (at) => `SELECT ${at('assetId')}`),
    /The payload of asset-report has no field assetId/,
  );
  assert.throws(
    // @ts-expect-error: a cell is an assignment and a user
    () => groupOf(QUEUES.grade, (at) => `SELECT ${at('clear', 'submissionId')}`),
    /The payload of grade-post has no field clear\.submissionId/,
  );
  assert.throws(
    // @ts-expect-error: submissionId is a text, with no fields of its own
    () => groupOf(QUEUES.grade, (at) => `SELECT ${at('submissionId', 'id')}`),
    /The payload of grade-post has no field submissionId\.id/,
  );
});

test('a job’s data is its payload: what the payload does not declare is dropped, a wrong shape refused', () => {
  assert.deepEqual(payloadOf(QUEUES.upload, { submissionId: 's-1', platformId: 'p-1', note: 'not declared' }), {
    submissionId: 's-1',
    platformId: 'p-1',
  });
  assert.throws(() => payloadOf(QUEUES.grade, { clear: { assignmentId: 'a-1' } }), /userId/);
  assert.throws(() => payloadOf(QUEUES.assetReport, { assetId: 'x-1' }), /assetRowId/);
});
