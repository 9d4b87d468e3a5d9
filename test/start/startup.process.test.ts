// Starting and stopping the real process: embedded defaults on a fresh machine, JSON records when the output is not
// a terminal and plain words when it is, and bad configuration refused with one sentence.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { projectRoot, runToExit, startToolProcess } from '../support/process.js';
import { freePort } from '../support/tool.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'olti-start-'));
  dirs.push(dir);
  return dir;
}
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const STACK_FRAME = /^\s+at .+[:(]/m;

describe('a fresh start with no settings', () => {
  // How fast it comes up is a figure for a benchmark, not a test: on a busy machine a start takes several times longer.
  // Built, as `npm start` runs it: the compiled tool finds its views, styles and migrations from dist/.
  test('comes up on the embedded database, ready, with its JWKS and the dev platform, and stops cleanly on SIGTERM', async () => {
    const cwd = freshDir();
    const tool = await startToolProcess({}, { cwd, timeoutMs: 120_000, entry: 'built' });
    try {
      const ready = await fetch(`${tool.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ready', database: 'pglite' });
      assert.equal((await fetch(`${tool.url}/healthz`)).status, 200);
      // The dev platform is registered at start, so the tool has its RSA key pair and publishes the public half.
      const jwks = (await (await fetch(`${tool.url}/lti/keys`)).json()) as { keys: Array<Record<string, string>> };
      assert.equal(jwks.keys.length, 1);
      assert.equal(jwks.keys[0]!.kty, 'RSA');
      assert.ok(jwks.keys[0]!.n && jwks.keys[0]!.e && !jwks.keys[0]!.d);
      const devPage = await fetch(`${tool.url}/dev/`);
      assert.equal(devPage.status, 200);
      assert.match(await devPage.text(), /Demo essay/);
      const styles = await fetch(`${tool.url}/static/app.css`);
      assert.equal(styles.status, 200);
      assert.match(await styles.text(), /--/); // the design tokens, served from the checkout's public/
      // The generated key is private to the owner, and its value never reaches the log.
      const keyFile = join(cwd, 'data', 'encryption.key');
      assert.equal(statSync(keyFile).mode & 0o777, 0o600);
      assert.match(tool.output(), /No ENCRYPTION_KEY was set/);
    } finally {
      assert.equal(await tool.stop(), 0);
    }
    assert.match(tool.output(), /Shutdown complete/);
    // Not a terminal: JSON records only, for a service's log; no first screen.
    for (const line of tool.output().trim().split('\n'))
      assert.doesNotThrow(() => JSON.parse(line), `not a JSON record: ${line}`);
  });

  // `script` (util-linux) runs the tool on a pseudo-terminal, as a person's terminal does, and passes Ctrl-C on.
  const noScript =
    spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0
      ? false
      : 'needs the command `script` of util-linux to give the tool a terminal';
  test(
    'in a terminal: plain words say where to go, the records are readable lines, and Ctrl-C stops it',
    { skip: noScript },
    async () => {
      const cwd = freshDir();
      const port = await freePort();
      const command = `exec '${process.execPath}' '${join(projectRoot, 'dist', 'main.js')}'`; // exec: the tool itself gets the Ctrl-C, not a shell
      const terminal = spawn('script', ['-qfec', command, '/dev/null'], {
        cwd,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          PORT: String(port),
          TERM: 'dumb',
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let screen = '';
      terminal.stdout.on('data', (chunk) => (screen += chunk));
      terminal.stderr.on('data', (chunk) => (screen += chunk));
      const ended = new Promise<number | null>((resolve) => terminal.once('exit', resolve));
      try {
        const deadline = Date.now() + 120_000;
        while (!screen.includes('Stop it with Ctrl-C.') && terminal.exitCode === null && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 200));
        const text = screen.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '');
        assert.match(text, new RegExp(`Open http://localhost:${port}/dev in your browser`), text);
        assert.match(text, /It is for this machine only/);
        assert.match(
          text,
          /^\d\d:\d\d:\d\d INFO {2}Database migrations applied: (1 \(0001_\w+\) {2}migrations=0001_\w+|\d+ \(0001_\w+ to \d{4}_\w+\) {2}migrations=\[\d+ items\])$/m,
          'the migrations on one line',
        );
        assert.match(
          text,
          new RegExp(`^\\d\\d:\\d\\d:\\d\\d INFO  originality-lti is listening on port ${port} `, 'm'),
        );
        assert.doesNotMatch(text, /"level":/, 'no JSON records in a terminal');
        terminal.stdin.write('\x03'); // Ctrl-C, through the terminal
        assert.equal(await ended, 0);
        assert.match(screen.replace(/\x1b\[[0-9;]*m/g, ''), /INFO {2}Shutdown complete/);
      } finally {
        terminal.kill('SIGKILL');
      }
    },
  );
});

describe('bad configuration ends the process with one clear sentence and a non-zero exit', () => {
  const cases: Array<{ name: string; env: Record<string, string>; sentence: RegExp; lines?: number }> = [
    {
      name: 'a malformed DATABASE_URL',
      env: { DATABASE_URL: 'mysql//nope' },
      sentence:
        /DATABASE_URL must be a PostgreSQL address such as postgres:\/\/user:password@host:5432\/database; it is 11 characters long, not shown\./,
    },
    {
      name: 'a short ENCRYPTION_KEY',
      env: { ENCRYPTION_KEY: 'too-short' },
      sentence:
        /ENCRYPTION_KEY must be at least 32 characters; it is 9 characters long, not shown \(generate one with: openssl rand -hex 32\)\./,
    },
    {
      name: 'an unreachable database',
      env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nothing' },
      sentence: /Could not connect to the PostgreSQL server named by DATABASE_URL: connect ECONNREFUSED 127\.0\.0\.1:1/,
    },
    {
      name: 'an unknown ROLE',
      env: { ROLE: 'everything' },
      sentence: /ROLE must be one of all, web or worker; it is everything\./,
    },
    {
      name: 'a port out of range',
      env: { PORT: '70000' },
      sentence: /PORT must be a port number from 1 to 65535, or 0 for any free one; it is 70000\./,
    },
    {
      name: 'production without a key',
      env: {
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://lti.example.edu',
        DATABASE_URL: 'postgres://x@127.0.0.1:1/x',
      },
      sentence: /- ENCRYPTION_KEY is required in production/,
      lines: 6,
    },
    {
      name: 'production over plain HTTP',
      env: { NODE_ENV: 'production', PUBLIC_URL: 'http://lti.example.edu', ENCRYPTION_KEY: 'x'.repeat(40) },
      sentence: /- PUBLIC_URL must use https in production/,
      lines: 7,
    },
  ];
  for (const { name, env, sentence, lines = 1 } of cases) {
    test(name, async () => {
      const result = await runToExit('main.ts', [], { ...env, DATA_DIR: join(freshDir(), 'data') });
      assert.equal(result.code, 1, `exit code for ${name}`);
      assert.match(result.stderr, sentence);
      assert.match(result.stderr, /^originality-lti could not start\. /);
      assert.equal(result.stderr.trim().split('\n').length, lines, `lines:\n${result.stderr}`);
      assert.doesNotMatch(result.stderr + result.stdout, STACK_FRAME);
    });
  }

  test('the password in a DATABASE_URL is never printed', async () => {
    const result = await runToExit('main.ts', [], {
      DATABASE_URL: 'postgres://admin:hunter2-secret@127.0.0.1:1/x',
      DATA_DIR: join(freshDir(), 'data'),
    });
    assert.equal(result.code, 1);
    assert.doesNotMatch(result.stderr + result.stdout, /hunter2-secret/);
  });
});

/**
 * `npm start` once dist/ holds the build of these sources (scripts/start.mjs, as npm runs it but without npm's own
 * half-second), run to its end: what it printed, and how long it took.
 */
function startToExit(
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(projectRoot, 'scripts', 'start.mjs')], {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.on('data', (chunk) => (stderr += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: performance.now() - started });
    });
  });
}

/** A port of 127.0.0.1 held by another program for the test's length. */
async function takenPort(): Promise<{ port: number; release(): Promise<void> }> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  return {
    port: (holder.address() as { port: number }).port,
    release: () => new Promise((resolve) => holder.close(() => resolve())),
  };
}

// Within 2 s (measured here from the process's start to its end, on a machine shared with other work), before
// anything slow, and leaving no data folder behind: a person who made a mistake hears of it before giving up.
describe('a start that cannot succeed says why at once and leaves nothing behind', () => {
  const EARLY_MS = 2000;

  test('the port in use', async () => {
    const cwd = freshDir();
    const taken = await takenPort();
    try {
      const result = await startToExit({ PORT: String(taken.port), HOST: '127.0.0.1' }, cwd);
      assert.equal(result.code, 1, result.stderr);
      assert.equal(
        result.stderr.trim(),
        `originality-lti could not start. Port ${taken.port} is already in use: stop the other program or set PORT to a free port.`,
      );
      assert.ok(result.ms < EARLY_MS, `took ${Math.round(result.ms)} ms`);
      assert.equal(existsSync(join(cwd, 'data')), false, 'a data folder was left behind');
    } finally {
      await taken.release();
    }
  });

  test('every setting wrong in production, listed at once, with a near miss named', async () => {
    const cwd = freshDir();
    const result = await startToExit({ NODE_ENV: 'production', DATABSE_URL: 'postgres://tool@db/olti' }, cwd);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^originality-lti could not start\. 7 settings need attention:\n {2}- PUBLIC_URL /);
    assert.match(
      result.stderr,
      /\n {2}Note: DATABSE_URL is set, but the tool has no setting of that name: did you mean DATABASE_URL\?/,
    );
    assert.doesNotMatch(result.stderr, /postgres:\/\/tool@db/, 'the value of a misnamed DATABASE_URL was printed');
    assert.ok(result.ms < EARLY_MS, `took ${Math.round(result.ms)} ms`);
    assert.equal(existsSync(join(cwd, 'data')), false, 'a data folder was left behind');
  });

  test('the data folder already open in another process, named', async () => {
    const cwd = freshDir();
    const first = await startToolProcess({}, { cwd, entry: 'built', timeoutMs: 120_000 });
    try {
      const second = await startToExit({ PORT: '0' }, cwd);
      assert.equal(second.code, 1);
      assert.match(second.stderr, new RegExp(`already open in process ${first.child.pid}`));
      assert.ok(second.ms < EARLY_MS, `took ${Math.round(second.ms)} ms`);
      assert.equal((await fetch(`${first.url}/readyz`)).status, 200, 'the first server was disturbed');
    } finally {
      await first.stop();
    }
  });
});

describe('the CLI beside the embedded database', () => {
  test('uses the running server through its socket, and opens the data itself once the server is gone', async () => {
    const cwd = freshDir();
    const server = await startToolProcess({}, { cwd, timeoutMs: 120_000 });
    try {
      const status = await runToExit('cli/main.ts', ['status'], {}, { cwd });
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /Migrations: all applied/);
      assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    } finally {
      assert.equal(await server.stop(), 0);
    }
    const alone = await runToExit('cli/main.ts', ['migrate'], {}, { cwd });
    assert.equal(alone.code, 0, alone.stderr);
    assert.match(alone.stdout, /The database is up to date\./);
  });

  test('an unknown command prints the usage and exits 2', async () => {
    const result = await runToExit('cli/main.ts', ['frobnicate'], {}, { cwd: freshDir() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Unknown command "frobnicate"/);
    assert.match(result.stderr, /migrate/);
  });
});
