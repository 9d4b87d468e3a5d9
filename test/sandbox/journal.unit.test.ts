// The sandbox on a data folder (as `npm start` runs it, in DATA_DIR/sandbox): stopped and started again, it has its
// folders, papers, results and id counters; a paper still waiting for its analysis is analysed after resume(),
// against the papers analysed before the stop, and its callback goes out; a callback that had not got through is
// sent again. A second sandbox on the same folder is refused while the first runs; a last line cut short by a
// crash is left out.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { SandboxDataBusy } from '../../src/sandbox/journal.js';
import {
  call,
  createFolder,
  getSubmission,
  login,
  prose,
  startReceiver,
  upload,
  waitForResult,
  waitUntil,
  type Receiver,
} from '../fixtures/sandbox/client.js';

const USER = { email: 'ana@example.edu', password: 'pw-ana' };
let dataDir: string;
let receiver: Receiver;
const running: Sandbox[] = [];

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'olti-sandbox-journal-'));
  receiver = await startReceiver();
});
after(async () => {
  await Promise.all(running.map((sandbox) => sandbox.close()));
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(options: SandboxOptions): Promise<{ sandbox: Sandbox; token: string }> {
  const sandbox = await startSandbox({ callbackUrl: receiver.url, users: [USER], dataDir, ...options });
  running.push(sandbox);
  return { sandbox, token: await login(sandbox.url, USER.email, USER.password) };
}
async function stop(sandbox: Sandbox): Promise<void> {
  running.splice(running.indexOf(sandbox), 1);
  await sandbox.close();
}
const callbacksFor = (paperId: number) => receiver.calls.filter((c) => c.body.paper_id === paperId);

test('stopped and started again on its data folder, it goes on where it stopped', async () => {
  // First run: a folder, a paper analysed and announced, a folder removed.
  const first = await start({ delayMs: 100 });
  const kept = await createFolder(first.sandbox.url, first.token, 'classroom', 'Essays');
  const removed = await createFolder(first.sandbox.url, first.token, 'pro', 'Drafts');
  const original = Number(
    (
      (await upload(first.sandbox.url, first.token, 'classroom', kept, 'original.txt', prose('original'))).body
        .submissions as { paper_id: string }
    ).paper_id,
  );
  const analysed = await waitForResult(first.sandbox.url, first.token, kept, original);
  await waitUntil('the callback of the first paper', () => callbacksFor(original).length === 1);
  assert.equal((await call(first.sandbox.url, 'DELETE', `/pro/folder/${removed}`, { token: first.token })).status, 200);
  await stop(first.sandbox);

  // Second run: a copy of the first paper uploaded, and the sandbox stopped long before its analysis is due.
  const second = await start({ delayMs: 60_000 });
  assert.deepEqual(second.sandbox.restored, { folders: 1, papers: 1, skippedLines: 0 });
  const copy = Number(
    (
      (await upload(second.sandbox.url, second.token, 'classroom', kept, 'copy.txt', prose('original'))).body
        .submissions as { paper_id: string }
    ).paper_id,
  );
  assert.ok(copy > original);
  assert.deepEqual(second.sandbox.resume(), { waiting: 0, toAnnounce: 0 });
  await stop(second.sandbox);
  assert.equal(readdirSync(join(dataDir, 'uploads')).length, 1, 'the waiting upload is kept for the next start');

  // Third run: the same folders, the first paper's results, the copy analysed once resumed, against the first.
  const third = await start({ delayMs: 100 });
  const lines = readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').trim().split('\n');
  assert.equal(
    lines.length,
    1 + 1 + 2,
    'rewritten at start with the live data alone: the next ids, 1 folder, 2 papers',
  );
  assert.equal((await getSubmission(third.sandbox.url, third.token, kept, original)).body.percent, analysed.percent);
  assert.equal((await getSubmission(third.sandbox.url, third.token, kept, original)).body.d_key, analysed.d_key);
  assert.equal(
    (await call(third.sandbox.url, 'GET', `/pro/folder/${removed}`, { token: third.token })).status,
    404,
    'the removed folder stays removed',
  );
  assert.equal((await getSubmission(third.sandbox.url, third.token, kept, copy)).body.percent, '--');
  assert.deepEqual(third.sandbox.resume(), { waiting: 1, toAnnounce: 0 });
  const copied = await waitForResult(third.sandbox.url, third.token, kept, copy);
  assert.equal(copied.percent, '100', 'compared with the paper analysed before the restarts');
  await waitUntil('the callback of the copy', () => callbacksFor(copy).length === 1);
  assert.equal(callbacksFor(original).length, 1, 'the first paper is not announced again');
  assert.deepEqual(readdirSync(join(dataDir, 'uploads')), [], 'its upload is removed once analysed');
  // New ids go on after every id handed out before, the removed folder's included.
  const next = await createFolder(third.sandbox.url, third.token, 'classroom', 'More essays');
  assert.ok(next > removed, `folder id ${next} after ${removed}`);
  const later = Number(
    (
      (await upload(third.sandbox.url, third.token, 'classroom', next, 'later.txt', prose('later'))).body
        .submissions as { paper_id: string }
    ).paper_id,
  );
  assert.ok(later > copy);
  await waitForResult(third.sandbox.url, third.token, next, later);
  // Its callback is delivered before the receiver starts refusing: only the next paper's is to be sent again.
  await waitUntil('the callback of the later paper', () => callbacksFor(later).length === 1);

  // A callback that does not get through before the stop is sent again after the next start.
  receiver.answer = 503;
  const unlucky = Number(
    (
      (await upload(third.sandbox.url, third.token, 'classroom', next, 'unlucky.txt', prose('unlucky'))).body
        .submissions as { paper_id: string }
    ).paper_id,
  );
  await waitUntil('a refused callback', () => callbacksFor(unlucky).length >= 1);
  await stop(third.sandbox);
  receiver.answer = 200;
  const fourth = await start({ delayMs: 100 });
  assert.deepEqual(fourth.sandbox.resume(), { waiting: 0, toAnnounce: 1 });
  await waitUntil('the callback sent again', () => callbacksFor(unlucky).length >= 2);
  await stop(fourth.sandbox);
});

test('one sandbox at a time on a data folder; a last line cut short by a crash is left out', async () => {
  const { sandbox } = await start({});
  await assert.rejects(
    startSandbox({ users: [USER], dataDir }),
    (error: unknown) =>
      error instanceof SandboxDataBusy && error.pid === process.pid && /in use by process/.test(error.message),
  );
  await stop(sandbox);
  appendFileSync(join(dataDir, 'journal.jsonl'), '{"paper":{"id":5000');
  const restarted = await start({});
  assert.equal(restarted.sandbox.restored?.skippedLines, 1);
  assert.equal(restarted.sandbox.restored?.folders, 2);
  await stop(restarted.sandbox);
});
