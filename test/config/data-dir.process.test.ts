// DATA_DIR is its owner's alone: another user of the machine can neither read the embedded database's files nor
// connect to it (PGlite takes any user name and password, so only the folder keeps them out), and a DATA_DIR left
// open (made by hand, or copied) is tightened at start, with a line saying so. The other user is `nobody`, reached with
// runuser as root (as CI runs); elsewhere the test is skipped with its reason.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { projectRoot, runToExit, startToolProcess } from '../support/process.js';

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasRunuser = spawnSync('runuser', ['--help'], { stdio: 'ignore' }).status === 0;
const skip = !asRoot
  ? 'needs root, to act as another local user (nobody) with runuser'
  : !hasRunuser
    ? 'needs runuser (util-linux)'
    : false;

// A parent folder anyone may pass through, as a home folder or /srv is: only DATA_DIR's own mode keeps others out.
const parent = mkdtempSync(join(tmpdir(), 'olti-private-'));
chmodSync(parent, 0o755);
after(() => rmSync(parent, { recursive: true, force: true }));

/** Every file and folder under `dir` (itself included) that anyone but its owner may read, write or enter. */
function openToOthers(dir: string): string[] {
  const open: string[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) open.push(`${(stat.mode & 0o777).toString(8)} ${path}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return open;
}

/**
 * Node and the pg client where `nobody` may run them: the project may sit in a folder only root can enter (CI's
 * checkout, `mktemp -d`), and Node itself in it (CI's Node 24 from npm); then they are copied beside the test's
 * folders, which anyone may pass through.
 */
let probe: { node: string; pg: string } | undefined;
function probeTools(): { node: string; pg: string } {
  if (probe) return probe;
  const nobodyMay = (check: '-x' | '-r', path: string) =>
    spawnSync('runuser', ['-u', 'nobody', '--', 'test', check, path], { stdio: 'ignore' }).status === 0;
  const folder = join(parent, 'probe');
  mkdirSync(join(folder, 'node_modules'), { recursive: true });
  let node = process.execPath;
  if (!nobodyMay('-x', node)) {
    node = join(folder, 'node');
    cpSync(process.execPath, node);
    chmodSync(node, 0o755);
  }
  let modules = join(projectRoot, 'node_modules');
  if (!nobodyMay('-r', join(modules, 'pg', 'lib', 'index.js'))) {
    // pg and what it requires, by name.
    for (const name of readdirSync(modules).filter((n) => /^(pg|pg-.*|pgpass|postgres-.*|split2|xtend)$/.test(n)))
      cpSync(join(modules, name), join(folder, 'node_modules', name), { recursive: true });
    chmodSync(folder, 0o755);
    modules = join(folder, 'node_modules');
  }
  spawnSync('chmod', ['-R', 'a+rX', folder]);
  probe = { node, pg: join(modules, 'pg', 'lib', 'index.js') };
  return probe;
}

/**
 * What `nobody` gets when it looks for the embedded database: the lock file that names where it is served, and a
 * query on the connection it names (or, not finding that, on the socket's usual place) with a wrong password.
 */
function asNobody(dataDir: string): { lockFile: string; query: string } {
  const { node, pg } = probeTools();
  const script = `
    const fs = require('node:fs');
    const { Client } = require(${JSON.stringify(pg)});
    (async () => {
      let lockFile, target = { host: ${JSON.stringify(dataDir)} };
      try {
        const lock = JSON.parse(fs.readFileSync(${JSON.stringify(join(dataDir, 'embedded-db.json'))}, 'utf8'));
        lockFile = 'read';
        if (lock.port) target = { host: '127.0.0.1', port: lock.port };
        if (lock.socket) target = { host: lock.socket };
      } catch (error) { lockFile = error.code; }
      let query;
      const client = new Client({ ...target, user: 'intruder', password: 'wrong', database: 'postgres' });
      try {
        await client.connect();
        const { rows } = await client.query('SELECT count(*)::int AS n FROM platform');
        query = 'answered: ' + rows[0].n + ' platforms';
      } catch (error) { query = error.code || error.message; }
      await client.end().catch(() => {});
      process.stdout.write(JSON.stringify({ lockFile, query }));
    })();`;
  const result = spawnSync('runuser', ['-u', 'nobody', '--', node, '-e', script], {
    cwd: '/',
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout) as { lockFile: string; query: string };
}

test(
  'a fresh start: DATA_DIR 0700 with nothing in it open to others, and another local user refused by the embedded database',
  { skip },
  async () => {
    const dataDir = join(parent, 'fresh');
    const tool = await startToolProcess({ DATA_DIR: dataDir }, { timeoutMs: 120_000, entry: 'built' });
    try {
      assert.equal(lstatSync(dataDir).mode & 0o777, 0o700);
      assert.deepEqual(openToOthers(dataDir), []);
      const nobody = asNobody(dataDir);
      assert.equal(nobody.lockFile, 'EACCES', 'nobody read the file that says where the database is served');
      assert.equal(nobody.query, 'EACCES', `nobody reached the embedded database: ${nobody.query}`);
      // Its owner still reaches it beside the running tool, as `npm run cli` does.
      const status = await runToExit('cli/main.ts', ['status'], { DATA_DIR: dataDir });
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /Migrations: all applied/);
    } finally {
      assert.equal(await tool.stop(), 0);
    }
    assert.deepEqual(openToOthers(dataDir), [], 'left open to others once stopped');
  },
);

test(
  'a DATA_DIR left open (made by hand, or copied) is tightened at start, with a line saying so',
  { skip },
  async () => {
    const dataDir = join(parent, 'loose');
    mkdirSync(join(dataDir, 'uploads'), { recursive: true, mode: 0o777 });
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'uploads'), 0o777);
    writeFileSync(join(dataDir, 'uploads', 'paper.pdf'), 'a student paper', { mode: 0o666 });
    chmodSync(join(dataDir, 'uploads', 'paper.pdf'), 0o666);
    const tool = await startToolProcess({ DATA_DIR: dataDir }, { timeoutMs: 120_000, entry: 'built' });
    try {
      assert.deepEqual(openToOthers(dataDir), []);
      const lines = tool
        .output()
        .split('\n')
        .filter((line) => line.includes('was tightened'));
      assert.equal(lines.length, 1, tool.output());
      assert.match(
        JSON.parse(lines[0]!).msg as string,
        new RegExp(
          `^DATA_DIR ${dataDir} was tightened: 3 files and folders in it \\(DATA_DIR itself was 0755\\) could be read, written or entered by other users of this machine`,
        ),
      );
    } finally {
      assert.equal(await tool.stop(), 0);
    }
  },
);
