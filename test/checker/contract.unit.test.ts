// The checker client against the sandbox over real HTTP: every operation of both families and the statuses the
// specification lists, each seen as the client's caller sees it.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import {
  CheckerClient,
  CheckerError,
  REPORT_KINDS,
  type FolderSettings,
  type PaperFile,
} from '../../src/checker/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { pdf } from '../fixtures/sandbox/client.js';

const dir = mkdtempSync(join(tmpdir(), 'olti-checker-'));
let sandbox: Sandbox;
let receiver: Server;
const callbacks: Array<Record<string, unknown>> = [];
let alice: CheckerClient;
let bob: CheckerClient;

const settings: FolderSettings = {
  excludeReferences: true,
  excludeQuotes: false,
  excludeSmallSources: true,
  excludeThresholdWords: 12,
  excludedPhrases: ['lorem ipsum'],
  grammarCheck: true,
  databases: { studentPapers: true, publications: false, internet: true, institutionRepository: true },
};

/** Prose from a seeded generator: the same seed gives the same text, different seeds share almost no phrase. */
function text(seed: string): string {
  let state = [...seed].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  const vocabulary =
    'river mountain theory evidence argument history culture energy market policy climate language memory science method symbol network poem ocean migration'.split(
      ' ',
    );
  const next = () => ((state = (state * 1103515245 + 12345) >>> 0) >>> 16) % vocabulary.length;
  return Array.from({ length: 120 }, () => Array.from({ length: 8 }, () => vocabulary[next()]).join(' ') + '.').join(
    ' ',
  );
}

/** A paper written to disk and read from it as a stream, each time the client reads it. */
function file(name: string, content: string | Buffer): PaperFile {
  const path = join(dir, name);
  writeFileSync(path, content);
  return { size: statSync(path).size, read: () => createReadStream(path) };
}

async function expectError(promise: Promise<unknown>, kind: string, status: number | null): Promise<CheckerError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof CheckerError, `not a CheckerError: ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    assert.equal(error.status, status);
    return error;
  }
  assert.fail(`expected a ${kind} error`);
}

async function waitForResult(client: CheckerClient, folderId: number, paperId: number) {
  for (let i = 0; i < 100; i += 1) {
    const paper = await client.getPaper(folderId, paperId);
    if (paper.similarity.state !== 'pending') return paper;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the analysis did not finish');
}

before(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      callbacks.push({ method: req.method, ...JSON.parse(body || '{}') });
      res.end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const port = (receiver.address() as { port: number }).port;
  sandbox = await startSandbox({
    delayMs: 200,
    maxUploadBytes: 2_000_000,
    tokenTtlSeconds: 3,
    callbackUrl: `http://127.0.0.1:${port}/cb`,
    users: [
      { email: 'alice@example.edu', password: 'pw-alice' },
      { email: 'bob@example.edu', password: 'pw-bob' },
    ],
  });
  alice = new CheckerClient({
    baseUrl: sandbox.url,
    username: 'alice@example.edu',
    password: 'pw-alice',
    timeoutMs: 2000,
    refreshMarginMs: 500,
  });
  bob = new CheckerClient({ baseUrl: sandbox.url, username: 'bob@example.edu', password: 'pw-bob', timeoutMs: 2000 });
});
after(async () => {
  await sandbox.close();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('login', () => {
  test('a wrong password is "unauthorized" with a sentence and no secret in it', async () => {
    const wrong = new CheckerClient({
      baseUrl: sandbox.url,
      username: 'alice@example.edu',
      password: 'not-her-password',
    });
    const error = await expectError(wrong.token(), 'unauthorized', 401);
    assert.doesNotMatch(error.message, /not-her-password/);
  });

  test('concurrent callers share one login; an expiring token is replaced before it runs out', async () => {
    // Tokens live 3 s (exp in whole seconds, so 2 to 3 s from now); the client renews 1.5 s before the end.
    const client = new CheckerClient({
      baseUrl: sandbox.url,
      username: 'alice@example.edu',
      password: 'pw-alice',
      refreshMarginMs: 1500,
    });
    const requestsBefore = sandbox.stats().requests;
    const tokens = await Promise.all(Array.from({ length: 10 }, () => client.token()));
    assert.equal(new Set(tokens).size, 1);
    assert.equal(sandbox.stats().requests - requestsBefore, 1, 'more than one login for concurrent callers');
    await client.token();
    assert.equal(sandbox.stats().requests - requestsBefore, 1, 'a fresh token was not reused');
    await new Promise((resolve) => setTimeout(resolve, 1600)); // now within the margin
    await client.token();
    assert.equal(sandbox.stats().requests - requestsBefore, 2, 'the token was not replaced before its end');
  });

  test('an expired token is replaced on the 401 and the call goes through', async () => {
    const client = new CheckerClient({
      baseUrl: sandbox.url,
      username: 'alice@example.edu',
      password: 'pw-alice',
      refreshMarginMs: 0,
    });
    await client.token();
    await new Promise((resolve) => setTimeout(resolve, 3200));
    const folders = await client.listFolders('classroom');
    assert.ok(Array.isArray(folders.folders));
  });
});

for (const family of ['classroom', 'pro'] as const) {
  describe(`${family} family`, () => {
    let folderId: number;

    test('create, list, update a folder; a duplicate name is a conflict', async () => {
      folderId = await alice.createFolder(family, `Essays ${family}`, settings);
      assert.ok(folderId > 0);
      const listed = await alice.allFolders(family);
      assert.ok(listed.some((f) => f.folderId === folderId && f.name === `Essays ${family}`));
      await alice.updateFolder(family, folderId, `Essays ${family}`, { ...settings, grammarCheck: false });
      await expectError(alice.createFolder(family, `Essays ${family}`, settings), 'conflict', 409);
    });

    test("another account's folder is forbidden; an unknown one is not found", async () => {
      await expectError(bob.listPapers(family, folderId), 'forbidden', 403);
      await expectError(alice.listPapers(family, 999_999), 'not-found', 404);
    });

    test('upload TXT, DOCX and PDF; same text twice scores near 100 %, unrelated near 0 %', async () => {
      const first = await alice.upload({
        family,
        folderId,
        file: file(`a-${family}.txt`, text(`rivers ${family}`)),
        fileName: 'a.txt',
        authorName: 'Ana',
        title: 'A',
        documentType: 'Assignment',
        plagiarismCheck: true,
        grammarCheck: true,
        language: 'English',
      });
      assert.equal(first.similarity.state, 'pending');
      assert.equal(first.reportKey, null);
      const firstDone = await waitForResult(alice, folderId, first.paperId);
      const docx = Buffer.from(
        zipSync({
          '[Content_Types].xml': strToU8('<Types/>'),
          'word/document.xml': strToU8(
            `<w:document><w:body><w:p><w:r><w:t>${text(`rivers ${family}`)}</w:t></w:r></w:p></w:body></w:document>`,
          ),
        }),
      );
      const copy = await alice.upload({
        family,
        folderId,
        file: file(`b-${family}.docx`, docx),
        fileName: 'b.docx',
        authorName: 'Ben',
        title: 'B',
        documentType: 'Assignment',
        plagiarismCheck: true,
        grammarCheck: false,
        language: 'English',
      });
      const copyDone = await waitForResult(alice, folderId, copy.paperId);
      const unrelated = await alice.upload({
        family,
        folderId,
        file: file(`c-${family}.pdf`, await pdf(text(`astronomy ${family} telescopes`))),
        fileName: 'c.pdf',
        authorName: 'Cy',
        title: 'C',
        documentType: 'Assignment',
        plagiarismCheck: true,
        grammarCheck: false,
        language: 'English',
      });
      const unrelatedDone = await waitForResult(alice, folderId, unrelated.paperId);
      assert.equal(firstDone.similarity.state, 'done');
      assert.ok(
        copyDone.similarity.state === 'done' && copyDone.similarity.percent >= 90,
        `copy: ${JSON.stringify(copyDone.similarity)}`,
      );
      assert.ok(
        unrelatedDone.similarity.state === 'done' && unrelatedDone.similarity.percent <= 10,
        `unrelated: ${JSON.stringify(unrelatedDone.similarity)}`,
      );
      assert.match(String(copyDone.reportKey), /^[A-Z0-9]{20}$/);
      assert.ok(
        callbacks.some(
          (c) =>
            c.paper_id === copy.paperId && c.method === 'PUT' && /^\d+%$/.test(String(c.similarity)) && c.flag === 0,
        ),
      );
      const papers = await alice.allPapers(family, folderId);
      assert.deepEqual(papers.map((p) => p.paperId).sort(), [first.paperId, copy.paperId, unrelated.paperId].sort());
    });

    test('reports stream as PDF; the grammar report is 400 where grammar was off, a PDF where it was on', async () => {
      const [paper] = (await alice.allPapers(family, folderId)).filter((p) => p.reportKey !== null && p.title === 'B');
      assert.ok(paper);
      // Every kind the client asks for, so that the sandbox serves a kind added to REPORT_KINDS as the service does.
      for (const kind of REPORT_KINDS.filter((kind) => kind !== 'grammar')) {
        const report = await alice.report(kind, paper.paperId, paper.reportKey);
        const chunks: Buffer[] = [];
        for await (const chunk of report.stream) chunks.push(chunk as Buffer);
        assert.equal(Buffer.concat(chunks).subarray(0, 5).toString(), '%PDF-', kind);
      }
      await expectError(alice.report('grammar', paper.paperId, null), 'bad-request', 400);
      const [checked] = (await alice.allPapers(family, folderId)).filter((p) => p.title === 'A');
      const grammar = await alice.report('grammar', checked!.paperId, null);
      const grammarChunks: Buffer[] = [];
      for await (const chunk of grammar.stream) grammarChunks.push(chunk as Buffer);
      assert.equal(
        Buffer.concat(grammarChunks).subarray(0, 5).toString(),
        '%PDF-',
        'grammar report of a paper checked for grammar',
      );
      await expectError(alice.report('similarity', paper.paperId, 'WRONGKEYWRONGKEY1234'), 'not-found', 404);
      await expectError(bob.report('similarity', paper.paperId, paper.reportKey), 'forbidden', 403);
    });

    test('too large (413), unsupported (422), missing fields; uploads are never retried', async () => {
      const before = sandbox.stats().uploads;
      await expectError(
        alice.upload({
          family,
          folderId,
          file: file(`big-${family}.txt`, 'word '.repeat(600_000)),
          fileName: 'big.txt',
          authorName: 'A',
          title: 'Big',
          documentType: 'Assignment',
          plagiarismCheck: true,
          grammarCheck: false,
          language: 'English',
        }),
        'too-large',
        413,
      );
      await expectError(
        alice.upload({
          family,
          folderId,
          file: file(`x-${family}.pdf`, Buffer.concat([Buffer.from('MZ'), Buffer.alloc(1000, 7)])),
          fileName: 'x.pdf',
          authorName: 'A',
          title: 'X',
          documentType: 'Assignment',
          plagiarismCheck: true,
          grammarCheck: false,
          language: 'English',
        }),
        'unsupported',
        422,
      );
      await expectError(
        alice.upload({
          family,
          folderId,
          file: file(`t-${family}.txt`, 'some text here'),
          fileName: 't.txt',
          authorName: '',
          title: 'T',
          documentType: 'Assignment',
          plagiarismCheck: true,
          grammarCheck: false,
          language: 'English',
        }),
        'bad-request',
        400,
      );
      assert.equal(sandbox.stats().uploads, before);
    });

    test('delete a paper, then the folder', async () => {
      const [paper] = await alice.allPapers(family, folderId);
      await alice.deletePaper(family, folderId, paper!.paperId);
      await expectError(alice.getPaper(folderId, paper!.paperId), 'not-found', 404);
      await alice.deleteFolder(family, folderId);
      await expectError(alice.listPapers(family, folderId), 'not-found', 404);
    });
  });
}

describe('faults', () => {
  test('429 with Retry-After is retried for reads, and goes through once the limit lifts', async () => {
    sandbox.setFaults({ rateLimit: { ratio: 1, retryAfterSeconds: 1 } });
    const started = Date.now();
    const pending = alice.listFolders('classroom');
    setTimeout(() => sandbox.setFaults({}), 1500);
    await pending;
    assert.ok(Date.now() - started >= 1000, 'Retry-After was not honoured');
  });

  test('503 for longer than the retries: "unavailable", to try again later', async () => {
    sandbox.setFaults({ outage: true });
    try {
      const client = new CheckerClient({
        baseUrl: sandbox.url,
        username: 'alice@example.edu',
        password: 'pw-alice',
        maxRetries: 1,
      });
      const error = await expectError(client.token(), 'unavailable', 503);
      assert.equal(error.failure, 'transient');
    } finally {
      sandbox.setFaults({});
    }
  });

  test('an upload meeting a rate limit is not sent again by the client', async () => {
    const folderId = await alice.createFolder('classroom', 'Rate limited uploads', settings);
    sandbox.setFaults({ rateLimit: { ratio: 1, retryAfterSeconds: 0 } });
    try {
      const before = sandbox.stats().requests;
      await expectError(
        alice.upload({
          family: 'classroom',
          folderId,
          file: file('rl.txt', text('limits')),
          fileName: 'rl.txt',
          authorName: 'A',
          title: 'RL',
          documentType: 'Assignment',
          plagiarismCheck: true,
          grammarCheck: false,
          language: 'English',
        }),
        'rate-limited',
        429,
      );
      assert.equal(sandbox.stats().requests - before, 1);
    } finally {
      sandbox.setFaults({});
    }
  });

  test('an answer slower than the timeout is a "timeout"', async () => {
    sandbox.setFaults({ slowMs: 2500 });
    try {
      const client = new CheckerClient({
        baseUrl: sandbox.url,
        username: 'alice@example.edu',
        password: 'pw-alice',
        timeoutMs: 500,
        maxRetries: 0,
      });
      await expectError(client.token(), 'timeout', null);
    } finally {
      sandbox.setFaults({});
    }
  });

  test('HTML instead of JSON, and a body that breaks the shape, are "bad-response"', async () => {
    const odd = createServer((req, res) => {
      if (req.url?.includes('authenticate'))
        return void res.end(JSON.stringify({ token: 'a.eyJleHAiOjQxMDI0NDQ4MDB9.b' }));
      if (req.url?.includes('myFolders')) return void res.end('<html>maintenance</html>');
      res.end(JSON.stringify({ paper_id: 'not a number' }));
    });
    odd.listen(0, '127.0.0.1');
    await once(odd, 'listening');
    try {
      const client = new CheckerClient({
        baseUrl: `http://127.0.0.1:${(odd.address() as { port: number }).port}`,
        username: 'u',
        password: 'p',
      });
      await expectError(client.listFolders('classroom'), 'bad-response', 200);
      await expectError(client.getPaper(1, 2), 'bad-response', null);
    } finally {
      odd.close();
    }
  });

  test('the service unreachable is a "network" error', async () => {
    const client = new CheckerClient({ baseUrl: 'http://127.0.0.1:1', username: 'u', password: 'p', maxRetries: 0 });
    await expectError(client.token(), 'network', null);
  });
});
