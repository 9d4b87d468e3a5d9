// Waiting in a test for something another process or job does: the condition is asked every `everyMs` until it
// holds, or the test fails with `what` once `timeoutMs` has passed.
import assert from 'node:assert/strict';

export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await condition());) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
