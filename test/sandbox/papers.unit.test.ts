// Papers through the sandbox over real HTTP, both families: the upload answer and the list entries field for
// field, the analysis after the configured delay with computed similarity, the completion callback (normal,
// duplicated, dropped), unreadable files, and the four PDF reports.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import {
  call,
  createFolder,
  docx,
  getSubmission,
  login,
  pdf,
  pdfText,
  prose,
  readPdf,
  sleep,
  startReceiver,
  upload,
  waitForResult,
  waitUntil,
  type Family,
  type Receiver,
} from '../fixtures/sandbox/client.js';

const DELAY_MS = 600;
let sandbox: Sandbox;
let receiver: Receiver;
let alice: string;
let bob: string;

before(async () => {
  receiver = await startReceiver();
  sandbox = await startSandbox({
    delayMs: DELAY_MS,
    callbackUrl: receiver.url,
    users: [
      { email: 'alice@example.edu', password: 'pw-alice' },
      { email: 'bob@example.edu', password: 'pw-bob' },
    ],
  });
  alice = await login(sandbox.url, 'alice@example.edu', 'pw-alice');
  bob = await login(sandbox.url, 'bob@example.edu', 'pw-bob');
});
after(async () => {
  await sandbox.close();
  await receiver.close();
});

const callbacksFor = (paperId: unknown) => receiver.calls.filter((c) => c.body.paper_id === paperId);

async function download(
  path: string,
  token?: string,
): Promise<{ status: number; contentType: string; bytes: Buffer; json: Record<string, unknown> | null }> {
  const response = await fetch(`${sandbox.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const bytes = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    contentType,
    bytes,
    json: contentType.includes('json') ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) : null,
  };
}

for (const family of ['classroom', 'pro'] as const satisfies readonly Family[]) {
  describe(`${family} family`, () => {
    let folderId: number;
    const ids: Record<string, number> = {};
    const keys: Record<string, string> = {};

    before(async () => {
      folderId = await createFolder(sandbox.url, alice, family, `Papers ${family}`, { grammar_check: 'YES' });
    });

    test('an upload answers 200 with the submission of the spec, pending; the result comes after the delay', async () => {
      const started = Date.now();
      const answer = await upload(sandbox.url, alice, family, folderId, 'original.txt', prose(`original ${family}`), {
        authorName: 'Ana',
        title: 'Original',
        grammarCheck: 'YES',
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.status, 200);
      assert.match(String(answer.body.timeStamp), /^\d\d-\d\d-\d{4} \d\d:\d\d:\d\d$/);
      const submission = answer.body.submissions as Record<string, unknown>;
      const expected =
        family === 'classroom'
          ? [
              'ai',
              'd_key',
              'date_up',
              'doc_type',
              'file_length',
              'links',
              'name',
              'original_fn',
              'paper_id',
              'percent',
              'title',
              'to_pages',
            ]
          : [
              'ai',
              'd_key',
              'date_up',
              'file_length',
              'grammar',
              'links',
              'name',
              'paper_id',
              'percent',
              'status',
              'title',
              'to_pages',
            ];
      assert.deepEqual(Object.keys(submission).sort(), expected);
      assert.equal(submission.percent, '--');
      assert.equal(submission.ai, '--');
      assert.equal(submission.d_key, '--');
      assert.equal(submission.name, 'Ana');
      assert.match(String(submission.date_up), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      assert.match(String(submission.file_length), /^\d+(\.\d+)? Kb$/);
      if (family === 'classroom') assert.equal(submission.original_fn, 'original.txt');
      const links = submission.links as Array<{ rel: string; href: string }>;
      assert.deepEqual(links.map((l) => l.rel).sort(), ['self', 'submissions']);
      ids.original = Number(submission.paper_id);

      const pending = await getSubmission(sandbox.url, alice, folderId, ids.original);
      assert.equal(pending.body.percent, '--');
      assert.equal(pending.body.d_key, '--');
      if (family === 'classroom') {
        const list = await call<{ _embedded: { submissionsList: Array<Record<string, unknown>> } }>(
          sandbox.url,
          'GET',
          `/extreme/myFolder/${folderId}/submissions`,
          { token: alice },
        );
        const entry = list.body._embedded.submissionsList.find((p) => p.paper_id === ids.original)!;
        assert.equal(entry.percent, 'NA', 'pending in the classroom list');
        assert.equal(entry.d_key, 'NA');
      }

      const done = await waitForResult(sandbox.url, alice, folderId, ids.original);
      assert.ok(Date.now() - started >= DELAY_MS, 'the result came before the configured delay');
      assert.equal(done.percent, '0', 'the first paper of the account has nothing to match');
      assert.match(String(done.ai), /^\d{1,3}$/);
      assert.match(String(done.grammar), /^\d{1,3}$/);
      assert.match(String(done.d_key), /^[A-Z0-9]{20}$/);
      assert.equal(done.flag, 0);
      assert.equal(done.total_words, String(prose(`original ${family}`).split(' ').length));
      keys.original = String(done.d_key);
    });

    test('the same text again as DOCX scores at least 90; unrelated text as PDF at most 10', async () => {
      const copy = await upload(sandbox.url, alice, family, folderId, 'copy.docx', docx(prose(`original ${family}`)), {
        title: 'Copy',
      });
      const otherPdf = await pdf(prose(`something else entirely ${family}`));
      const unrelated = await upload(sandbox.url, alice, family, folderId, 'other.pdf', otherPdf, { title: 'Other' });
      assert.equal(copy.status, 200, JSON.stringify(copy.body));
      assert.equal(unrelated.status, 200, JSON.stringify(unrelated.body));
      ids.copy = Number((copy.body.submissions as Record<string, unknown>).paper_id);
      ids.other = Number((unrelated.body.submissions as Record<string, unknown>).paper_id);
      const copyDone = await waitForResult(sandbox.url, alice, folderId, ids.copy);
      const otherDone = await waitForResult(sandbox.url, alice, folderId, ids.other);
      assert.ok(Number(copyDone.percent) >= 90, `copy: ${String(copyDone.percent)}`);
      assert.ok(Number(otherDone.percent) <= 10, `unrelated: ${String(otherDone.percent)}`);
      assert.equal(copyDone.original_file_name, 'copy.docx');
      assert.equal(otherDone.total_pages, String((await readPdf(otherPdf)).pages));
      assert.equal(copyDone.grammar, '--', 'grammar not checked for this paper');
      keys.copy = String(copyDone.d_key);
    });

    test('the list of the family has its own field names', async () => {
      if (family === 'classroom') {
        const list = await call<{
          _embedded: { submissionsList: Array<Record<string, unknown>> };
          page: Record<string, number>;
        }>(sandbox.url, 'GET', `/extreme/myFolder/${folderId}/submissions`, { token: alice });
        assert.equal(list.status, 200);
        assert.equal(list.body.page.totalElements, 3);
        const entry = list.body._embedded.submissionsList.find((p) => p.paper_id === ids.copy)!;
        for (const field of [
          'original_fn',
          'doc_type',
          'lang',
          'lang1',
          'to_char',
          'to_words',
          'to_sens',
          'to_pages',
          'grammar_url',
          'og_percent',
          'ai_sup',
        ])
          assert.ok(field in entry, field);
        assert.ok(Number(entry.percent) >= 90);
        assert.equal(entry.d_key, keys.copy);
        assert.deepEqual(
          list.body._embedded.submissionsList.map((p) => p.paper_id),
          [ids.other, ids.copy, ids.original],
          'paper_id desc',
        );
      } else {
        const list = await call<{ _embedded: { submissionsDTOList: Array<Record<string, unknown>> } }>(
          sandbox.url,
          'GET',
          `/pro/folder/${folderId}/submissions?orderBy=asc`,
          { token: alice },
        );
        assert.equal(list.status, 200);
        const entries = list.body._embedded.submissionsDTOList;
        assert.deepEqual(
          entries.map((p) => p.paper_id),
          [ids.original, ids.copy, ids.other],
        );
        for (const field of [
          'original_file_name',
          'document_type',
          'language',
          'total_char',
          'total_words',
          'total_pages',
          'flag',
          'grammar',
          'status',
          'mail_id',
        ])
          assert.ok(field in entries[0]!, field);
        assert.equal(entries[0]!.status, 'active');
      }
    });

    test('the single submission has the fields of 4.2/4.3; another account gets 403, an unknown paper 404', async () => {
      const answer = await getSubmission(sandbox.url, alice, folderId, ids.copy!);
      for (const field of [
        'paper_id',
        'folder_id',
        'folder_name',
        'title',
        'percent',
        'total_char',
        'total_words',
        'total_pages',
        'd_key',
        'document_type',
        'language',
        'original_file_name',
        'ai',
        'og_percent',
        'ai_sup',
        'name',
        'mail_id',
        'date_up',
        'file_length',
        'status',
        'grammar',
        'flag',
      ])
        assert.ok(field in answer.body, field);
      assert.equal('language1' in answer.body, family === 'classroom', 'language1 only in the classroom family');
      assert.equal(answer.body.folder_id, folderId);
      assert.equal((await getSubmission(sandbox.url, bob, folderId, ids.copy!)).status, 403);
      assert.equal((await getSubmission(sandbox.url, alice, folderId, 987_654)).status, 404);
    });

    test('the callback is a PUT of paper_id, "NN%", a download_url that gives the report with the token, and flag 0', async () => {
      // The callback goes out after the analysis, on its own: the result read earlier does not mean it has arrived.
      await waitUntil('the callback for the copy', () => callbacksFor(ids.copy).length > 0);
      const [callback, ...more] = callbacksFor(ids.copy);
      assert.ok(callback, 'no callback for the copy');
      assert.equal(more.length, 0);
      assert.equal(callback.method, 'PUT');
      assert.match(callback.contentType, /application\/json/);
      assert.deepEqual(Object.keys(callback.body).sort(), ['download_url', 'flag', 'paper_id', 'similarity']);
      assert.match(String(callback.body.similarity), /^\d{1,3}%$/);
      assert.ok(Number(String(callback.body.similarity).replace('%', '')) >= 90);
      assert.equal(callback.body.flag, 0);
      const url = new URL(String(callback.body.download_url));
      assert.equal(url.origin, sandbox.url);
      assert.equal((await download(url.pathname)).status, 401, 'the report address is not public');
      const report = await download(url.pathname, alice);
      assert.equal(report.status, 200);
      assert.equal(report.bytes.subarray(0, 5).toString(), '%PDF-');
    });

    test('the similarity report is a PDF with the score and the paper it matches; AI and summary PDFs too', async () => {
      const similarity = await download(`/analysis-gateway/api/download2/${ids.copy}/${keys.copy}`, alice);
      assert.equal(similarity.status, 200);
      assert.equal(similarity.contentType, 'application/pdf');
      assert.equal(similarity.bytes.subarray(0, 5).toString(), '%PDF-');
      const text = await pdfText(similarity.bytes);
      const score = /Similarity: (\d+)%/.exec(text);
      assert.ok(score && Number(score[1]) >= 90, text.slice(0, 300));
      assert.match(text, new RegExp(`matches paper ${ids.original}`));
      // The header names the paper by its title and its time on UTC's clock, named: not the service's own clock
      // (India Standard Time unless told otherwise), and not the name the file was stored under.
      const uploaded = /Uploaded\s+(\d{4}-\d{2}-\d{2})\s+(\d{2}:\d{2})\s+UTC\./.exec(text);
      assert.ok(uploaded, text.slice(0, 400));
      const copy = (await getSubmission(sandbox.url, alice, folderId, ids.copy!)).body;
      assert.equal(
        `${uploaded[1]}T${uploaded[2]}`,
        new Date(Date.parse(`${String(copy.date_up).replace(' ', 'T')}+05:30`)).toISOString().slice(0, 16),
        "the report's UTC time is the paper's upload time",
      );
      assert.doesNotMatch(text, /UTC\+05:30|File:|copy\.docx/);
      assert.match(text, new RegExp(`Paper ${ids.copy}: Copy`));
      const ai = await download(`/analysis-gateway/api/ai/download2/${ids.copy}/${keys.copy}`, alice);
      assert.equal(ai.status, 200);
      assert.match(await pdfText(ai.bytes), /AI-generated content: \d+% \(simulated\)/);
      const summary = await download(`/analysis-gateway/api/download/summary/${ids.copy}/${keys.copy}`, alice);
      assert.equal(summary.status, 200);
      assert.match(await pdfText(summary.bytes), /Similarity: \d+%/);
    });

    test('reports: a wrong d_key is 404, another account 403, no token 401', async () => {
      const wrong = await download(`/analysis-gateway/api/download2/${ids.copy}/AAAAAAAAAAAAAAAAAAAA`, alice);
      assert.equal(wrong.status, 404);
      assert.equal(wrong.json?.status, 404);
      assert.equal(
        (await download(`/analysis-gateway/api/ai/download2/${ids.copy}/${keys.original}`, alice)).status,
        404,
        "another paper's key",
      );
      assert.equal(
        (await download(`/analysis-gateway/api/download/summary/${ids.copy}/${keys.copy}`, bob)).status,
        403,
      );
      assert.equal((await download(`/analysis-gateway/api/download2/${ids.copy}/${keys.copy}`)).status, 401);
    });

    test('grammar report: a PDF where grammar was checked, 400 with the error body where not, and while pending', async () => {
      const checked = await download(`/analysis-gateway/api/quality/download/${ids.original}`, alice);
      assert.equal(checked.status, 200);
      assert.match(await pdfText(checked.bytes), /Grammar quality: \d+\/100 \(simulated\)/);
      const unchecked = await download(`/analysis-gateway/api/quality/download/${ids.copy}`, alice);
      assert.equal(unchecked.status, 400);
      assert.equal(unchecked.json?.description, 'BAD_REQUEST');
      assert.equal(unchecked.json?.path, `/analysis-gateway/api/quality/download/${ids.copy}`);
      for (const field of ['status', 'timestamp', 'message', 'debugMessage', 'subErrors'])
        assert.ok(unchecked.json && field in unchecked.json, field);
      const pending = await upload(sandbox.url, alice, family, folderId, 'later.txt', prose(`later ${family}`), {
        grammarCheck: 'YES',
      });
      const pendingId = (pending.body.submissions as Record<string, unknown>).paper_id;
      const notReady = await download(`/analysis-gateway/api/quality/download/${pendingId}`, alice);
      assert.equal(notReady.status, 400);
      assert.match(String(notReady.json?.message), /not ready/);
      assert.equal(
        (await download(`/analysis-gateway/api/download2/${pendingId}/--`, alice)).status,
        404,
        'no similarity report before the result',
      );
      ids.later = Number(pendingId);
    });

    test('an unreadable document (a "PDF" that is not one) ends doc:error with flag 1, and its callback says flag 1', async () => {
      const broken = await upload(
        sandbox.url,
        alice,
        family,
        folderId,
        'broken.pdf',
        '%PDF-1.4\nthis is not really a pdf\n',
      );
      assert.equal(broken.status, 200);
      const paperId = Number((broken.body.submissions as Record<string, unknown>).paper_id);
      const textAsPdf = await upload(
        sandbox.url,
        alice,
        family,
        folderId,
        'essay.pdf',
        prose('plain text with a pdf name'),
      );
      assert.equal(textAsPdf.status, 200);
      const result = await waitForResult(sandbox.url, alice, folderId, paperId);
      assert.equal(result.percent, 'doc:error');
      assert.equal(result.flag, 1);
      assert.equal(result.d_key, '--');
      const other = await waitForResult(
        sandbox.url,
        alice,
        folderId,
        Number((textAsPdf.body.submissions as Record<string, unknown>).paper_id),
      );
      assert.equal(other.percent, 'doc:error');
      await waitUntil('the callback for the unreadable paper', () => callbacksFor(paperId).length > 0);
      const [callback] = callbacksFor(paperId);
      assert.equal(callback?.body.flag, 1);
    });

    test('refused uploads: unsupported type 422; a missing field or file 400; another account 403; nothing stored', async () => {
      const before = sandbox.stats().uploads;
      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 1)]);
      const image = await upload(sandbox.url, alice, family, folderId, 'picture.png', png);
      assert.equal(image.status, 422);
      assert.equal(image.body.description, 'UNPROCESSABLE_ENTITY');
      assert.equal(
        (
          await upload(
            sandbox.url,
            alice,
            family,
            folderId,
            'program.exe',
            'MZ this is text but the name says executable',
          )
        ).status,
        422,
      );
      assert.equal(
        (
          await upload(
            sandbox.url,
            alice,
            family,
            folderId,
            'disguised.pdf',
            Buffer.concat([Buffer.from('MZ'), Buffer.alloc(1000, 7)]),
          )
        ).status,
        422,
      );
      const noTitle = await upload(sandbox.url, alice, family, folderId, 'a.txt', 'some text', { title: '' });
      assert.equal(noTitle.status, 400);
      assert.match(String(noTitle.body.message), /title/);
      assert.equal(
        (await upload(sandbox.url, alice, family, folderId, 'a.txt', 'some text', { grammarCheck: 'PERHAPS' })).status,
        422,
      );
      const noLanguage = await upload(sandbox.url, alice, family, folderId, 'a.txt', 'some text', {
        language: undefined,
      });
      assert.equal(
        noLanguage.status,
        family === 'classroom' ? 400 : 200,
        'language is required in the classroom family only',
      );
      const noFile = await fetch(
        `${sandbox.url}/files/${family === 'classroom' ? 'myFolder' : 'folder'}/${folderId}/singleFile`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${alice}` },
          body: (() => {
            const f = new FormData();
            f.append('authorName', 'A');
            return f;
          })(),
        },
      );
      assert.equal(noFile.status, 400);
      assert.equal((await upload(sandbox.url, bob, family, folderId, 'a.txt', 'some text')).status, 403);
      assert.equal((await upload(sandbox.url, alice, family, 424_242, 'a.txt', 'some text')).status, 404);
      assert.equal(sandbox.stats().uploads - before, family === 'classroom' ? 0 : 1);
    });

    test('delete a submission: 200, then it is gone; an unknown paper 404; another account 403', async () => {
      const path =
        family === 'classroom' ? `/extreme/myFolder/${folderId}/submissions` : `/pro/folder/${folderId}/submissions`;
      assert.equal((await call(sandbox.url, 'DELETE', `${path}?paperId=${ids.other}`, { token: bob })).status, 403);
      const deleted = await call(sandbox.url, 'DELETE', `${path}?paperId=${ids.other}`, { token: alice });
      assert.equal(deleted.status, 200);
      assert.equal((await getSubmission(sandbox.url, alice, folderId, ids.other!)).status, 404);
      assert.equal(
        (await download(`/analysis-gateway/api/download2/${ids.other}/${keys.copy}`, alice)).status,
        404,
        'its reports went with it',
      );
      assert.equal((await call(sandbox.url, 'DELETE', `${path}?paperId=${ids.other}`, { token: alice })).status, 404);
      assert.equal((await call(sandbox.url, 'DELETE', path, { token: alice })).status, 400, 'paperId is required');
    });
  });
}

describe('callback switches', () => {
  let folderId: number;
  before(async () => {
    folderId = await createFolder(sandbox.url, alice, 'pro', 'Callbacks');
  });

  test('duplicate: each callback arrives twice, the same body', async () => {
    sandbox.setFaults({ callbacks: 'duplicate' });
    try {
      const answer = await upload(sandbox.url, alice, 'pro', folderId, 'twice.txt', prose('twice'));
      const paperId = (answer.body.submissions as Record<string, unknown>).paper_id;
      await waitForResult(sandbox.url, alice, folderId, Number(paperId));
      await waitUntil('both copies of the callback', () => callbacksFor(paperId).length >= 2);
      // The second copy follows the first within 50 ms; a third, which must not come, would follow as closely.
      await sleep(300);
      const calls = callbacksFor(paperId);
      assert.equal(calls.length, 2);
      assert.deepEqual(calls[0]!.body, calls[1]!.body);
    } finally {
      sandbox.setFaults({});
    }
  });

  test('drop: the result is there, no callback comes', async () => {
    sandbox.setFaults({ callbacks: 'drop' });
    try {
      const answer = await upload(sandbox.url, alice, 'pro', folderId, 'dropped.txt', prose('dropped'));
      const paperId = (answer.body.submissions as Record<string, unknown>).paper_id;
      const done = await waitForResult(sandbox.url, alice, folderId, Number(paperId));
      assert.match(String(done.percent), /^\d+$/);
      await sleep(500);
      assert.equal(callbacksFor(paperId).length, 0);
    } finally {
      sandbox.setFaults({});
    }
  });

  test('callbackDelayMs holds the callback back; a receiver answering 500 gets the callback again', async () => {
    // The result is read within a poll (50 ms) of the analysis, the callback is held back 3 s from it: none may have
    // come by then, with seconds to spare on a busy machine.
    sandbox.setFaults({ callbackDelayMs: 3000 });
    receiver.answer = 500;
    try {
      const answer = await upload(sandbox.url, alice, 'pro', folderId, 'late.txt', prose('late'));
      const paperId = (answer.body.submissions as Record<string, unknown>).paper_id;
      await waitForResult(sandbox.url, alice, folderId, Number(paperId));
      assert.equal(callbacksFor(paperId).length, 0, 'the callback came before its delay');
      // The first attempt after the delay, answered 500, and a second half a second later.
      await waitUntil('a second attempt of the refused callback', () => callbacksFor(paperId).length >= 2);
      assert.ok(callbacksFor(paperId).length >= 2, `attempts: ${callbacksFor(paperId).length}`);
    } finally {
      receiver.answer = 200;
      sandbox.setFaults({});
    }
  });
});

describe('exclusions', () => {
  test('quotes excluded: a paper that quotes an earlier one scores low on percent and high on og_percent', async () => {
    const folderId = await createFolder(sandbox.url, bob, 'classroom', 'Quotes excluded', { exclude_quotes: 'YES' });
    const source = prose('quoted source', 60);
    const first = await upload(sandbox.url, bob, 'classroom', folderId, 'source.txt', source);
    await waitForResult(
      sandbox.url,
      bob,
      folderId,
      Number((first.body.submissions as Record<string, unknown>).paper_id),
    );
    const quoting = await upload(
      sandbox.url,
      bob,
      'classroom',
      folderId,
      'quoting.txt',
      `"${source}" ${prose('own words of the student', 60)}`,
    );
    const done = await waitForResult(
      sandbox.url,
      bob,
      folderId,
      Number((quoting.body.submissions as Record<string, unknown>).paper_id),
    );
    assert.ok(Number(done.og_percent) >= 40, `og_percent ${String(done.og_percent)}`);
    assert.ok(Number(done.percent) <= 10, `percent ${String(done.percent)}`);
    assert.equal(done.exclude_quotes, 'YES');
  });
});
