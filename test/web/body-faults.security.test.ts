// Client faults in a request's body, on the public addresses machines post to (the LMS's notices, the checking
// service's callback): a Content-Encoding the tool does not read, a compressed body that does not decompress, a body
// cut off on the way. Each is the client's fault: a 4xx with a JSON sentence, a warning in the log (never an error
// line with a stack, which anyone could raise at will), and an aborted request is let go. The tool stays up.
import assert from 'node:assert/strict';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { NOTICE_HANDLER_PATH } from '../../src/assetprocessor/attach.js';
import { quietClient } from '../support/probe.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const CALLBACK_SECRET = 'BodyFaultsCallbackSecret0123456789';
const CALLBACK_PATH = `/checker/callback/${CALLBACK_SECRET}`;

let tool: TestTool;

before(async () => {
  tool = await startTestTool({ ASSET_PROCESSOR: 'on', CALLBACK_SECRET });
});
after(async () => {
  await tool?.stop();
});

const levelOf = (line: string) => Number((JSON.parse(line) as { level?: number }).level ?? 0);

/** Sends the request; gives its answer and the log lines written while it was worked on. */
async function send(method: 'POST' | 'PUT', path: string, body: Uint8Array | string, headers: Record<string, string>) {
  const from = tool.logs.length;
  const answer = await fetch(`${tool.url}${path}`, {
    method,
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  const text = await answer.text();
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { status: answer.status, type: answer.headers.get('content-type') ?? '', text, lines: tool.logs.slice(from) };
}

function expectClientFault(answer: Awaited<ReturnType<typeof send>>, status: number, sentence: RegExp): void {
  assert.equal(answer.status, status, answer.text);
  assert.match(answer.type, /^application\/json/, answer.text);
  assert.match((JSON.parse(answer.text) as { error: string }).error, sentence);
  assert.deepEqual(
    answer.lines.filter((line) => levelOf(line) >= 50 || line.includes('"stack"')),
    [],
    'no error line, no stack',
  );
  assert.ok(
    answer.lines.some((line) => levelOf(line) === 40),
    'a warning says what was refused',
  );
}

const notices = JSON.stringify({ notices: [{ jwt: 'a.b.c' }] });
const ADDRESSES = [
  { name: 'the notice handler', method: 'POST', path: NOTICE_HANDLER_PATH },
  { name: "the checking service's callback", method: 'PUT', path: CALLBACK_PATH },
] as const;

for (const address of ADDRESSES) {
  describe(`client faults at ${address.name}`, () => {
    test('an unsupported Content-Encoding is answered 415 with a JSON sentence naming it', async () => {
      const answer = await send(address.method, address.path, notices, { 'content-encoding': 'compress' });
      expectClientFault(answer, 415, /Content-Encoding.*compress.*gzip/);
    });

    test('a body that does not decompress as its Content-Encoding says is answered 400 with a JSON sentence', async () => {
      const broken = gzipSync(notices).subarray(0, 12);
      const answer = await send(address.method, address.path, Buffer.concat([broken, Buffer.from('not gzip at all')]), {
        'content-encoding': 'gzip',
      });
      expectClientFault(answer, 400, /could not be decompressed/);
    });

    // Each decoder fails with codes of its own (zlib's Z_DATA_ERROR, brotli's ERR__ERROR_FORMAT_PADDING_1 and the
    // like): every one is the client's fault, whatever the code.
    const undecodable = [
      { encoding: 'br', bytes: Buffer.from(notices), what: 'plain JSON' },
      { encoding: 'br', bytes: brotliCompressSync(notices).subarray(0, 8), what: 'a brotli stream cut short' },
      { encoding: 'deflate', bytes: Buffer.from(notices), what: 'plain JSON' },
    ];
    for (const body of undecodable)
      test(`${body.what} sent as Content-Encoding ${body.encoding} is answered 400 with a JSON sentence`, async () => {
        const answer = await send(address.method, address.path, body.bytes, { 'content-encoding': body.encoding });
        expectClientFault(answer, 400, /could not be decompressed/);
      });

    test('a body that is not JSON is answered 400 with a JSON sentence', async () => {
      const answer = await send(address.method, address.path, '{"notices": [', {});
      expectClientFault(answer, 400, /not valid JSON/);
    });

    test('a body cut off on the way is let go: no error line, and the tool answers the next request', async () => {
      const from = tool.logs.length;
      const port = Number(new URL(tool.url).port);
      const cut = await quietClient(
        port,
        [
          `${address.method} ${address.path} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          'Content-Type: application/json',
          'Content-Length: 1000',
          '',
          '',
        ].join('\r\n'),
        '{"notices":[{"jwt":"a.',
      );
      cut.socket.destroy();
      await cut.closed;
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(
        tool.logs.slice(from).filter((line) => levelOf(line) >= 50 || line.includes('"stack"')),
        [],
      );
      await eventually(async () => (await fetch(`${tool.url}/healthz`)).status === 200, 'the tool answers');
    });
  });
}
