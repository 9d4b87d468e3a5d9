// The submission state machine and the score clock on a real database: moves only where allowed, one winner
// when workers race, an event row for every move, score timestamps strictly increasing and a second apart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '../../src/db/index.js';
import { nextScoreTimestamp } from '../../src/grades/index.js';
import { transition } from '../../src/submissions/state.js';
import { openTestDatabase } from '../support/db.js';

let database: Database;
let cleanup: () => Promise<void>;
let platformId: string;
let userId: string;
let assignmentId: string;

before(async () => {
  ({ database, cleanup } = await openTestDatabase());
  const db = database.db;
  platformId = (
    await db
      .insertInto('platform')
      .values({
        name: 'P',
        issuer: 'https://lms.test',
        client_id: 'c',
        auth_url: 'https://lms.test/a',
        token_url: 'https://lms.test/t',
        jwks_url: 'https://lms.test/k',
        registered_by: 'cli',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  userId = (
    await db
      .insertInto('lti_user')
      .values({ platform_id: platformId, subject: 'student-1', name: 'Ana', email: null })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const courseId = (
    await db
      .insertInto('course')
      .values({ platform_id: platformId, deployment_id: 'd', context_id: 'ctx', title: 'Course', label: null })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  assignmentId = (
    await db
      .insertInto('assignment')
      .values({
        platform_id: platformId,
        course_id: courseId,
        resource_link_id: 'rl',
        title: 'Essay',
        settings: '{}',
        created_by: userId,
        line_item_url: null,
        line_items_url: null,
        memberships_url: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});
after(() => cleanup());

let attempt = 0;
async function newSubmission(): Promise<string> {
  attempt += 1;
  const row = await database.db
    .insertInto('submission')
    .values({
      assignment_id: assignmentId,
      user_id: userId,
      attempt,
      state: 'received',
      file_label: 'essay.pdf',
      file_type: 'pdf',
      file_size: 10,
      sha256: 'x'.repeat(64),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function stateOf(id: string) {
  const row = await database.db
    .selectFrom('submission')
    .select(['state', 'paper_id', 'similarity'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const events = await database.db
    .selectFrom('submission_event')
    .select(['from_state', 'to_state', 'reason'])
    .where('submission_id', '=', id)
    .orderBy('id')
    .execute();
  return { ...row, events };
}

describe('transitions', () => {
  test('the normal path records every move with its reason', async () => {
    const id = await newSubmission();
    assert.equal(await transition(database.db, { submissionId: id, to: 'uploading', reason: 'sending' }), 'received');
    assert.equal(
      await transition(database.db, {
        submissionId: id,
        to: 'processing',
        reason: 'accepted',
        changes: { paper_id: 4242 },
      }),
      'uploading',
    );
    assert.equal(
      await transition(database.db, { submissionId: id, to: 'scored', reason: 'done', changes: { similarity: 37.5 } }),
      'processing',
    );
    const state = await stateOf(id);
    assert.equal(state.state, 'scored');
    assert.equal(state.paper_id, '4242');
    assert.equal(state.similarity, '37.50');
    assert.deepEqual(
      state.events.map((e) => `${e.from_state}→${e.to_state}`),
      ['received→uploading', 'uploading→processing', 'processing→scored'],
    );
  });

  test('a move the state does not allow changes nothing and writes no event', async () => {
    const id = await newSubmission();
    assert.equal(
      await transition(database.db, {
        submissionId: id,
        to: 'scored',
        reason: 'too early',
        changes: { similarity: 99 },
      }),
      null,
    );
    const state = await stateOf(id);
    assert.equal(state.state, 'received');
    assert.equal(state.similarity, null);
    assert.equal(state.events.length, 0);
  });

  test('a rejected or failed submission stays so', async () => {
    const id = await newSubmission();
    await transition(database.db, { submissionId: id, to: 'rejected', reason: 'unsupported file type' });
    assert.equal(await transition(database.db, { submissionId: id, to: 'uploading', reason: 'retry' }), null);
    assert.equal((await stateOf(id)).state, 'rejected');
  });

  test('ten workers racing to score one submission: exactly one moves it, one event', async () => {
    const id = await newSubmission();
    await transition(database.db, { submissionId: id, to: 'uploading', reason: 'sending' });
    await transition(database.db, { submissionId: id, to: 'processing', reason: 'accepted' });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        transition(database.db, { submissionId: id, to: 'scored', reason: `worker ${i}`, changes: { similarity: i } }),
      ),
    );
    assert.equal(results.filter((r) => r !== null).length, 1);
    const state = await stateOf(id);
    assert.equal(state.events.filter((e) => e.to_state === 'scored').length, 1);
  });
});

describe('score timestamps per line item and user', () => {
  const key = () => ({ platformId, lineItemUrl: 'https://lms.test/lineitems/1?type_id=1', userSubject: 'student-1' });

  test('each is at least a second after the one before, even when asked for at once', async () => {
    const stamps = await Promise.all(Array.from({ length: 8 }, () => nextScoreTimestamp(database.db, key())));
    const sorted = stamps.map((d) => d.getTime()).sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i += 1)
      assert.ok(sorted[i]! - sorted[i - 1]! >= 1000, `gap ${sorted[i]! - sorted[i - 1]!} ms`);
  });

  test('another user or line item has its own clock', async () => {
    const before = Date.now();
    const other = await nextScoreTimestamp(database.db, { ...key(), userSubject: 'student-2' });
    assert.ok(Math.abs(other.getTime() - before) < 5000, 'a fresh clock starts at the current time');
  });
});
