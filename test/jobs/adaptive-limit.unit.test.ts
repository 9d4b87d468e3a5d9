// The pace of uploads to the service (src/jobs/adaptive-limit.ts): more at once while the service accepts them,
// fewer when it asks to wait, never more in flight than the limit allows. The deadline surge (bench/surge.ts)
// shows what it does to a drain; here, the rules themselves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AdaptiveLimit } from '../../src/jobs/adaptive-limit.js';

test('runs in flight never exceed the limit, and a freed place goes to the next waiting run', async () => {
  const limit = new AdaptiveLimit(3, 10);
  let inFlight = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: 30 }, async () => {
      const free = await limit.acquire();
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight -= 1;
      free();
    }),
  );
  assert.equal(most, 3);
});

test('each accepted run allows one more at once, up to the maximum', () => {
  const limit = new AdaptiveLimit(4, 32);
  for (let i = 0; i < 10; i += 1) limit.accepted();
  assert.equal(limit.limit, 14);
  for (let i = 0; i < 100; i += 1) limit.accepted();
  assert.equal(limit.limit, 32);
});

test('a refusal cuts a quarter once per named wait, never below the minimum', async () => {
  const limit = new AdaptiveLimit(4, 32);
  for (let i = 0; i < 28; i += 1) limit.accepted();
  limit.refused(50);
  assert.equal(limit.limit, 24);
  limit.refused(50); // the same overload: within the wait it named
  assert.equal(limit.limit, 24);
  await new Promise((resolve) => setTimeout(resolve, 1050)); // waits shorter than a second count as one
  limit.refused(50);
  assert.equal(limit.limit, 18);
  for (let i = 0; i < 10; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1010));
    limit.refused(0);
  }
  assert.equal(limit.limit, 4);
});

test('a raised limit lets waiting runs start at once', async () => {
  const limit = new AdaptiveLimit(1, 4);
  const first = await limit.acquire();
  let started = 0;
  const waiting = Array.from({ length: 3 }, async () => {
    const free = await limit.acquire();
    started += 1;
    return free;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(started, 0);
  limit.accepted();
  limit.accepted();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(started, 2);
  first();
  for (const free of await Promise.all(waiting)) free();
  assert.equal(started, 3);
});
