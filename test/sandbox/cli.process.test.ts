// The sandbox as its own process (`npm run sandbox`): flags checked with a sentence and exit code 2, its address
// and users printed (no password but the demo user's), a clean stop on SIGTERM, and a 100 MB upload taken whole.
// How much memory that upload costs the sandbox is a benchmark figure (`npm run bench`, bench/upload-memory.ts),
// not a test: resident memory on a loaded machine says more about the machine than about the code.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { call, createFolder, login, upload } from '../fixtures/sandbox/client.js';

const CLI = new URL('../../src/sandbox/cli.ts', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Running {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
}

function run(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const output = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return { child, output };
}

/** Starts the CLI and waits for the address it prints and a line for each of its users (the demo user by default). */
async function start(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const users = Math.max(1, args.filter((arg) => arg === '--user').length);
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no address and ${users} user line(s) printed; stdout: ${stdout}; stderr: ${stderr}`)),
      20_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const found = /listening on (http:\/\/\S+)/.exec(stdout);
      // Each user's line whole: the output may arrive in pieces, cut anywhere.
      if (found && (stdout.match(/^ {2}user .*\n/gm) ?? []).length >= users) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  return { child, url, stdout: () => stdout, stderr: () => stderr };
}

async function stop(running: Running): Promise<number | null> {
  const exited = once(running.child, 'exit');
  running.child.kill('SIGTERM');
  const [code] = await exited;
  return code as number | null;
}

describe('flags', () => {
  for (const [args, pattern] of [
    [['--port', 'abc'], /--port must be a whole number/],
    [['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['--delay-ms', '-5'], /--delay-ms/],
    [['--callbacks', 'sometimes'], /--callbacks must be normal, duplicate or drop/],
    [['--rate-limit', '1.5'], /--rate-limit must be a number from 0 to 1/],
    [['--user', 'no-password-here'], /--user must be EMAIL:PASSWORD/],
    [['--callback-url', 'not a url'], /--callback-url must be an absolute/],
    [['--max-upload-mb', '0'], /--max-upload-mb/],
    [['--bogus'], /Unknown option '--bogus'/],
  ] as const) {
    test(`${args.join(' ')}: a sentence on stderr and exit code 2`, async () => {
      const { output } = run([...args]);
      const result = await output;
      assert.equal(result.code, 2);
      assert.match(result.stderr, pattern);
      assert.match(result.stderr, /Usage: npm run sandbox/);
      assert.equal(result.stdout, '');
    });
  }
});

describe('running', () => {
  test('prints its address and the users, a password only for the demo user; stops on SIGTERM and removes its files', async () => {
    const tmp = mkdtempSync(join(scratch, 'tmp-'));
    const custom = await start(
      [
        '--port',
        '0',
        '--user',
        'teacher@example.edu:s3cret-pw',
        '--user',
        'second@example.edu:other-pw',
        '--delay-ms',
        '60000',
      ],
      { TMPDIR: tmp },
    );
    try {
      assert.match(custom.stdout(), /user teacher@example\.edu\n/);
      assert.match(custom.stdout(), /user second@example\.edu\n/);
      assert.doesNotMatch(custom.stdout() + custom.stderr(), /s3cret-pw|other-pw/);
      const token = await login(custom.url, 'teacher@example.edu', 's3cret-pw');
      const folderId = await createFolder(custom.url, token, 'classroom', 'From the CLI');
      assert.equal(
        (await upload(custom.url, token, 'classroom', folderId, 'a.txt', 'words to keep until the analysis')).status,
        200,
      );
      const uploadDirs = readdirSync(tmp).filter((name) => name.startsWith('checker-sandbox-'));
      assert.equal(uploadDirs.length, 1);
      assert.equal(readdirSync(join(tmp, uploadDirs[0]!)).length, 1, 'the upload waiting for its analysis');
    } finally {
      assert.equal(await stop(custom), 0);
    }
    assert.deepEqual(
      readdirSync(tmp).filter((name) => name.startsWith('checker-sandbox-')),
      [],
      'the upload directory was left behind',
    );
    assert.doesNotMatch(custom.stdout() + custom.stderr(), /s3cret-pw|other-pw/);

    const demo = await start(['--port', '0']);
    try {
      assert.match(demo.stdout(), /user demo@example\.edu \(password demo-password\)/);
      assert.equal(
        (
          await call(demo.url, 'POST', '/authentication/authenticate', {
            json: { username: 'demo@example.edu', password: 'demo-password' },
          })
        ).status,
        200,
      );
    } finally {
      assert.equal(await stop(demo), 0);
    }
  });

  test('fault flags take effect: --outage answers 503', async () => {
    const down = await start(['--port', '0', '--outage']);
    try {
      assert.equal((await call(down.url, 'GET', '/pro/folders')).status, 503);
    } finally {
      assert.equal(await stop(down), 0);
    }
  });
});

async function writeBigFile(path: string, bytes: number): Promise<void> {
  const out = createWriteStream(path);
  const line = Buffer.from('The glacier moved slowly across the valley while the students measured its speed.\n');
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < block.length; i += line.length) line.copy(block, i);
  for (let written = 0; written < bytes; written += block.length) {
    if (!out.write(block.subarray(0, Math.min(block.length, bytes - written)))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** A multipart upload streamed from disk, as a client on a slow machine would send it. */
function uploadFromDisk(
  url: string,
  token: string,
  folderId: number,
  path: string,
  size: number,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const boundary = 'big-upload-boundary';
  const fields = {
    authorName: 'Big',
    title: 'Hundred megabytes',
    documentType: 'Thesis',
    plagiarismCheck: 'YES',
    grammarCheck: 'NO',
    language: 'English',
  };
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/files/myFolder/${folderId}/singleFile`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + size + tail.length),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }),
        );
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(path, { highWaterMark: 256 * 1024 });
    file.on('error', reject);
    file.on('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}

describe('a large paper', () => {
  test('a 100 MB upload streamed from disk is accepted whole', async () => {
    const size = 100 * 1024 * 1024;
    const path = join(scratch, 'hundred-megabytes.txt');
    await writeBigFile(path, size);
    // A long analysis delay keeps the sandbox from analysing the paper while the test runs.
    const running = await start(['--port', '0', '--max-upload-mb', '100', '--delay-ms', '600000']);
    try {
      const token = await login(running.url, 'demo@example.edu', 'demo-password');
      const folderId = await createFolder(running.url, token, 'classroom', 'Big files');
      const answer = await uploadFromDisk(running.url, token, folderId, path, size);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.match(String((answer.body.submissions as Record<string, unknown>).file_length), /^102400\.00 Kb$/);
    } finally {
      assert.equal(await stop(running), 0);
    }
  });
});
