// The sandbox's fault switches and its upload limit, over real HTTP: 429 with Retry-After, 503, slow answers,
// and 413 for an upload over the limit, answered at once without the body being stored.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, createFolder, login, upload } from '../fixtures/sandbox/client.js';

const LIMIT = 1024 * 1024;
// The sandbox makes its upload directory under the system temp directory: point that at a directory of the
// test's own, to see what the sandbox stores.
const scratch = mkdtempSync(join(tmpdir(), 'sandbox-faults-'));
let sandbox: Sandbox;
let token: string;
let folderId: number;

/** Files anywhere under the sandbox's upload directory. */
function storedFiles(): string[] {
  return readdirSync(scratch, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

before(async () => {
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  try {
    sandbox = await startSandbox({ delayMs: 60_000, maxUploadBytes: LIMIT });
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
  token = await login(sandbox.url, 'demo@example.edu', 'demo-password');
  folderId = await createFolder(sandbox.url, token, 'pro', 'Limits');
});
after(async () => {
  await sandbox.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('fault switches', () => {
  test('rate limit 1: every request is 429 with Retry-After and the error body; lifted, requests pass again', async () => {
    sandbox.setFaults({ rateLimit: { ratio: 1, retryAfterSeconds: 7 } });
    try {
      const limited = await call(sandbox.url, 'GET', '/pro/folders', { token });
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('retry-after'), '7');
      assert.equal(limited.body.status, 429);
      assert.equal(limited.body.description, 'TOO_MANY_REQUESTS');
      assert.equal(
        (
          await call(sandbox.url, 'POST', '/authentication/authenticate', {
            json: { username: 'demo@example.edu', password: 'demo-password' },
          })
        ).status,
        429,
        'the login is limited too',
      );
    } finally {
      sandbox.setFaults({});
    }
    assert.equal((await call(sandbox.url, 'GET', '/pro/folders', { token })).status, 200);
  });

  test('rate limit 0.5: about half the requests are 429', async () => {
    sandbox.setFaults({ rateLimit: { ratio: 0.5 } });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 200 }, () => call(sandbox.url, 'GET', '/pro/folders', { token }).then((a) => a.status)),
      );
      const limited = statuses.filter((s) => s === 429).length;
      assert.ok(limited > 60 && limited < 140, `${limited} of 200 limited`);
      assert.ok(statuses.every((s) => s === 200 || s === 429));
    } finally {
      sandbox.setFaults({});
    }
  });

  test('outage: 503 with the error body, for the login as for the rest', async () => {
    sandbox.setFaults({ outage: true });
    try {
      const down = await call(sandbox.url, 'GET', '/extreme/myFolders', { token });
      assert.equal(down.status, 503);
      assert.equal(down.body.description, 'SERVICE_UNAVAILABLE');
      assert.equal(
        (
          await call(sandbox.url, 'POST', '/authentication/authenticate', {
            json: { username: 'demo@example.edu', password: 'demo-password' },
          })
        ).status,
        503,
      );
    } finally {
      sandbox.setFaults({});
    }
  });

  test('slowMs delays every answer by at least that long', async () => {
    sandbox.setFaults({ slowMs: 400 });
    try {
      const started = Date.now();
      assert.equal((await call(sandbox.url, 'GET', '/pro/folders', { token })).status, 200);
      assert.ok(Date.now() - started >= 400, `answered after ${Date.now() - started} ms`);
    } finally {
      sandbox.setFaults({});
    }
  });

  test('switches out of range are refused where they are set', () => {
    assert.throws(() => sandbox.setFaults({ rateLimit: { ratio: 1.5 } }), /ratio/);
    assert.throws(() => sandbox.setFaults({ slowMs: -1 }), /slowMs/);
  });
});

/** Streams `total` bytes of a file part at the sandbox, stops writing once an answer comes; how much it wrote. */
function pushUpload(
  total: number,
  withLength: boolean,
): Promise<{ status: number; body: Record<string, unknown>; written: number; ms: number }> {
  const boundary = 'sandbox-test-boundary';
  const head = Buffer.from(
    ['authorName', 'title', 'documentType', 'plagiarismCheck', 'grammarCheck']
      .map(
        (name) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${name === 'plagiarismCheck' || name === 'grammarCheck' ? 'NO' : 'x'}\r\n`,
      )
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = request(
      `${sandbox.url}/files/folder/${folderId}/singleFile`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          ...(withLength ? { 'content-length': String(head.length + total + tail.length) } : {}),
        },
      },
      (res) => {
        answered = true;
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text) as Record<string, unknown>,
            written,
            ms: Date.now() - started,
          }),
        );
      },
    );
    req.on('error', (error) => (answered ? undefined : reject(error)));
    req.write(head);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      while (!answered && written < total) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end(tail);
    };
    pump();
  });
}

describe('upload limit (413)', () => {
  for (const withLength of [true, false]) {
    test(`an upload over the limit ${withLength ? '(Content-Length declared)' : '(chunked, counted as it streams)'} is 413 at once; the rest is not taken and nothing is stored`, async () => {
      const before = sandbox.stats();
      const total = 64 * 1024 * 1024;
      const answer = await pushUpload(total, withLength);
      assert.equal(answer.status, 413);
      assert.equal(answer.body.description, 'PAYLOAD_TOO_LARGE');
      assert.equal(answer.body.path, `/files/folder/${folderId}/singleFile`);
      assert.ok(answer.written < total / 4, `the sandbox took ${answer.written} of ${total} bytes before refusing`);
      assert.deepEqual(storedFiles(), [], 'a refused upload left a file behind');
      assert.equal(sandbox.stats().uploads, before.uploads);
      assert.equal(sandbox.stats().papers, before.papers);
    });
  }

  test('a file of exactly the limit is accepted, one byte more is 413; the accepted one waits on disk for its analysis', async () => {
    const exact = await upload(sandbox.url, token, 'pro', folderId, 'exact.txt', 'a'.repeat(LIMIT));
    assert.equal(exact.status, 200, JSON.stringify(exact.body));
    assert.equal((await upload(sandbox.url, token, 'pro', folderId, 'over.txt', 'a'.repeat(LIMIT + 1))).status, 413);
    assert.equal(storedFiles().length, 1);
  });

  test('the server is still answering after the refusals', async () => {
    assert.equal((await call(sandbox.url, 'GET', `/pro/folder/${folderId}/submissions`, { token })).status, 200);
  });
});
