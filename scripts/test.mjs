#!/usr/bin/env node
// The project's test command (`npm test`): set up what the tests need (scripts/setup/), type-check, lint and check the
// format (when the whole suite runs), build, then run the suite on PostgreSQL and again on PGlite, and say how long
// each step took. A test file's name says what it needs (KINDS below): the files that touch no database run in the
// first pass only.
//
//   npm test                      everything
//   npm test -- test/foo.test.ts  only the named files (both passes where they apply)
//   TEST_DB=postgres npm test     one pass only: postgres, pglite, or none (the files that touch no database)
//   TEST_EXCEPT=test/foo.test.ts  all but the named files
//   npm test -- --set-up-only     set up only, print the variables that point the tests at it, and keep it until
//                                 Ctrl-C (to run single files with node --import tsx --test meanwhile)
//
// What it set up is taken down however the run ends: at its end, on a failure, on Ctrl-C or a kill (SIGINT, SIGTERM,
// SIGHUP), when its output is closed (`npm test | head`: as a SIGPIPE would), and on an error of the runner itself.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, constants, tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import pg from 'pg';
import { slowestFirst } from './file-times.mjs';
import { runWithSummary, signalRunning } from './run-node.mjs';
import { provideChromium } from './setup/chromium.mjs';
import { provideNginx } from './setup/nginx.mjs';
import { SetupError } from './setup/error.mjs';
import { providePostgres } from './setup/postgres.mjs';

const root = new URL('..', import.meta.url).pathname;

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith('.test.ts')) found.push(relative(root, path));
  }
  return found.sort();
}

const SET_UP_ONLY = '--set-up-only';
const setUpOnly = process.argv.includes(SET_UP_ONLY);
const requested = process.argv.slice(2).filter((arg) => arg !== SET_UP_ONLY);
// TEST_EXCEPT: files left out by name (separated by spaces or commas), said at the start; CI's Node 24 check leaves
// out what the whole suite after it runs anyway and is slow (.ci/run). A name that is no test file stops the run.
const inRoot = (file) => relative(root, resolve(root, file));
const except = new Set(
  (process.env.TEST_EXCEPT ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(inRoot),
);
const allFiles = requested.length > 0 ? requested : findTests(join(root, 'test'));
const unknown = [...except].filter((file) => !allFiles.some((found) => inRoot(found) === file));
if (unknown.length > 0) {
  process.stdout.write(`TEST_EXCEPT names files that are not among the tests: ${unknown.join(', ')}\n`);
  process.exit(1);
}
const files = allFiles.filter((file) => !except.has(inRoot(file)));
if (except.size > 0) process.stdout.write(`Left out (TEST_EXCEPT): ${[...except].join(', ')}\n`);
// What a test file needs, by its kind: the word before `.test.ts` in its name (test/<part>/<subject>.<kind>.test.ts,
// docs/testing.md). A file of no kind (<subject>.test.ts) uses the database, and runs on PostgreSQL and again on
// PGlite. The kinds that touch no database server run in the first pass only, and in the no-database pass. Those
// whose subject does not depend on the database's engine (what a person sees in Chromium, an attack over HTTP, an
// LMS's payload shape) are among the slowest, and run on PostgreSQL only: what the engine changes (one connection,
// its locks, pg-boss on it, restarts, the command line beside the embedded server, ltijs's storage) is in the files
// of no kind, which run on both. Files named on the command line run on each pass asked for.
const KINDS = {
  '': { database: true, bothEngines: true },
  // The rules of one part in one process, with no database server.
  unit: { database: false },
  // The tool or a command started as its own process, on a data folder of its own (the embedded database).
  process: { database: false },
  // Pages in a real headless Chromium.
  page: { database: true, browser: true },
  // An attack over HTTP, or who may do what.
  security: { database: true },
  // An LMS's payloads replayed through the tool's endpoints.
  lms: { database: true },
  // The reliability and security suite (npm run test:hardening, scripts/hardening.mjs), with its figures.
  hardening: { database: true, bothEngines: true },
  // The server recipe with nginx in front of the tool on PostgreSQL.
  nginx: { database: true, bothEngines: true, nginx: true },
};
// test/moodle/ tests moodle/ beside src/ (the real Moodle of ../shared/moodle and its plugins): what Moodle and a
// browser show, on one engine whatever its files' kinds.
const ONE_ENGINE_FOLDERS = ['test/moodle/'];
function needs(file) {
  const words = basename(file, '.test.ts').split('.');
  const kind = words.length === 2 ? words[1] : '';
  if (words.length > 2 || !(kind in KINDS)) {
    process.stdout.write(
      `${file}: a test file is named <subject>.test.ts or <subject>.<kind>.test.ts, its kind one of ${Object.keys(KINDS).filter(Boolean).join(', ')}\n`,
    );
    process.exit(1);
  }
  const need = KINDS[kind];
  const oneEngine = ONE_ENGINE_FOLDERS.some((folder) => inRoot(file).startsWith(folder));
  return { ...need, bothEngines: need.bothEngines === true && !oneEngine };
}
const usesDatabase = (file) => needs(file).database;
const usesBrowser = (file) => needs(file).browser === true;
const usesNginx = (file) => needs(file).nginx === true;
const oneEngine = (file) => !needs(file).bothEngines;

const PASSES = {
  postgres: { title: 'PostgreSQL pass', files },
  pglite: {
    title: 'PGlite pass',
    files: files.filter((file) => usesDatabase(file) && (requested.length > 0 || !oneEngine(file))),
  },
  none: { title: 'no-database pass', files: files.filter((file) => !usesDatabase(file)) },
};
// Once the reader of the output is gone (`npm test | head -5`), what is left to say goes to stderr, beginning with
// the lines whose writes failed.
let outputClosed = false;
// Where stderr's reader is gone too (`npm test 2>&1 | head`), nothing more can be said: a write there would only fail
// again, and each failure, unhandled, would be the runner's own error, said on stderr once more, for ever.
let errorsClosed = false;
process.stderr.on('error', () => {
  errorsClosed = true;
});
const sayOnStderr = (text) => {
  if (!errorsClosed) process.stderr.write(text);
};
function print(line) {
  const text = `${line}\n`;
  if (outputClosed) sayOnStderr(text);
  else process.stdout.write(text, (error) => error && sayOnStderr(text));
}

const chosen = process.env.TEST_DB;
if (chosen && !(chosen in PASSES)) {
  print(
    `TEST_DB=${chosen} names no pass: use postgres, pglite or none (or leave it unset for the PostgreSQL and PGlite passes).`,
  );
  process.exit(1);
}
const passes = (chosen ? [chosen] : ['postgres', 'pglite'])
  .map((db) => ({ db, ...PASSES[db] }))
  .filter((pass) => pass.files.length > 0);

const testEnv = {};
const timings = [];
const seconds = (ms) => {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const whole = Math.round(ms / 1000); // rounded once, so that 299.6 s reads 5 min 0 s, not 4 min 60 s
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
};
async function timed(label, work) {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings.push(`${label} ${seconds(Date.now() - started)}`);
  }
}
const run = (cmd, args, env = {}) => runWithSummary(cmd, args, { cwd: root, env: { ...testEnv, ...env } });

// What was set up is taken down again at the end, on a failure, and on every other way the run can stop.
const teardowns = [];
let tearingDown;
const tearDown = () =>
  (tearingDown ??= timed('clean-up', async () => {
    const say = (line) => print(`clean-up: ${line}`);
    while (teardowns.length > 0)
      await teardowns
        .pop()(say)
        .catch((error) => say(`failed: ${error.message}`));
  }));
let settingUp = Promise.resolve();
let stoppedBy = null;
async function exitIfStopped() {
  if (!stoppedBy) return;
  await tearDown();
  process.exit(128 + constants.signals[stoppedBy]);
}
/** Stops the run as `signal` would: the commands still running get it too, and what is being set up is taken down once up. */
async function stop(signal, why) {
  if (stoppedBy) return;
  stoppedBy = signal;
  print(`\n${why}: taking down what was set up.`);
  await signalRunning(signal === 'SIGPIPE' ? 'SIGTERM' : signal); // the tests end before their database goes
  await settingUp.catch(() => {}); // a server being started is stopped once it is up
  await exitIfStopped();
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(signal, () => void stop(signal, `Stopped by ${signal}`));
// Node ignores SIGPIPE: a closed output shows as EPIPE on the next write, and ends the run as SIGPIPE would.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  outputClosed = true;
  void stop('SIGPIPE', 'The output was closed (its reader ended, as `head` does in `npm test | head`)');
});
// An error of the runner itself (an unhandled rejection comes here too): said, then the same clean-up.
let crashed = false;
process.on('uncaughtException', (error) => {
  sayOnStderr(`\nThe test runner failed: ${error?.stack ?? error}\n`);
  if (crashed) return;
  crashed = true;
  signalRunning('SIGTERM')
    .then(() => settingUp.catch(() => {}))
    .then(tearDown)
    .finally(() => process.exit(1));
});

const say = (line) => print(`set-up: ${line}`);
try {
  settingUp = timed('set-up', async () => {
    const needBrowser = passes.some((pass) => pass.files.some(usesBrowser));
    const needPostgres = passes.some((pass) => pass.db === 'postgres' && pass.files.some(usesDatabase));
    if (needBrowser) testEnv.CHROMIUM_PATH = provideChromium(process.env, say);
    const needNginx = passes.some((pass) => pass.db === 'postgres' && pass.files.some(usesNginx));
    if (needNginx) testEnv.NGINX_PATH = provideNginx(process.env, say);
    if (needPostgres) {
      const server = await providePostgres(process.env, say);
      testEnv.TEST_PG_ADMIN_URL = server.adminUrl;
      teardowns.push(server.stop);
    }
    if (!needBrowser && !needPostgres && !needNginx)
      say('nothing to set up: these test files need neither Chromium, nor nginx, nor a PostgreSQL server');
  });
  await settingUp;
  await exitIfStopped();
} catch (error) {
  await tearDown();
  if (!(error instanceof SetupError)) throw error;
  print(`\nThe tests cannot run: ${error.message}`);
  process.exit(1);
}

if (setUpOnly) {
  const names = Object.keys(testEnv);
  print(
    names.length > 0 ? '\nSet up. With these in the environment, test files run against it:' : '\nNothing was set up.',
  );
  for (const name of names) print(`  export ${name}='${testEnv[name]}'`);
  print('Ctrl-C (or a SIGTERM) takes it down.');
  setInterval(() => {}, 2 ** 30); // waits for the signal
  await new Promise(() => {});
}

/** Runs a step before the suite; stops the run with `failure` when it fails. */
async function step(name, cmd, args, failure) {
  const done = await timed(name, () => run(cmd, args));
  await exitIfStopped();
  if (done.code !== 0) {
    await tearDown();
    print(failure);
    process.exit(1);
  }
}
const compile = (name, args, failure) =>
  step(name, process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), ...args], failure);
/** One of package.json's scripts, through the npm that runs this one (or the npm on the PATH). */
const npmScript = (name, script, failure) =>
  process.env.npm_execpath
    ? step(name, process.execPath, [process.env.npm_execpath, 'run', '--silent', script], failure)
    : step(name, 'npm', ['run', '--silent', script], failure);

await compile(
  'type check',
  ['--noEmit', '-p', 'tsconfig.json'],
  'Type check failed: fix the errors above before the tests run.',
);
// The house rules, when the whole suite runs on a database (named files, or TEST_DB=none, are a quick look: `npm run
// lint` and `npm run format:check` say the same on their own).
if (requested.length === 0 && chosen !== 'none') {
  await npmScript(
    'lint',
    'lint',
    'The lint (npm run lint) failed: fix what it names above, or see eslint.config.js for why a rule holds.',
  );
  await npmScript(
    'format check',
    'format:check',
    'The format check (npm run format:check) failed: the files named above are not laid out as prettier lays them; npm run format rewrites them.',
  );
} else {
  print('\nThe lint and the format check run with the whole suite: npm run lint, npm run format:check.');
}
// `npm start` runs the tool built into dist/; the tests that start it that way need this build (skipped when dist/
// already holds the build of these sources).
await step(
  'build',
  process.execPath,
  [join(root, 'scripts/build.mjs')],
  'The build (npm run build) failed: see above.',
);

// Each pass's database as the tool's first start leaves it, made once here for the test files to copy
// (test/support/db.ts, scripts/setup/database-template.ts): the PGlite one is made while the PostgreSQL pass runs.
const templates = {};
function makeTemplate(db) {
  const script = join(root, 'scripts/setup/database-template.ts');
  let args;
  let remove;
  if (db === 'postgres') {
    const name = `olti_template_${randomBytes(6).toString('hex')}`;
    args = [db, testEnv.TEST_PG_ADMIN_URL, name];
    templates.env = { ...templates.env, TEST_PG_TEMPLATE: name };
    remove = async () => {
      const client = new pg.Client({ connectionString: testEnv.TEST_PG_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    };
  } else {
    const folder = mkdtempSync(join(tmpdir(), 'olti-template-'));
    args = [db, folder];
    templates.env = { ...templates.env, TEST_PGLITE_TEMPLATE: folder };
    remove = async () => rmSync(folder, { recursive: true, force: true });
  }
  let child;
  const started = Date.now();
  const made = new Promise((resolve) => {
    child = execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { cwd: root, env: { ...process.env, ...testEnv } },
      (error, _stdout, stderr) => resolve(error ? `${stderr}`.trim() || error.message : null),
    );
  });
  teardowns.push(async () => {
    child.kill('SIGTERM');
    await made;
    await remove();
  });
  return made.then((failure) => {
    timings.push(`${db === 'postgres' ? 'PostgreSQL' : 'PGlite'} template ${seconds(Date.now() - started)}`);
    return failure;
  });
}
const templateFor = Object.fromEntries(
  passes
    .filter((pass) => pass.db !== 'none' && pass.files.some(usesDatabase))
    .map((pass) => [pass.db, makeTemplate(pass.db)]),
);

let passed = 0;
let failed = 0;
let exitCode = 0;
const skipped = [];
// Each file (and each test without a deadline of its own) ends within this: long enough for the slowest file, the
// worker SIGKILLed twenty times, on a busy two-core machine; a file that hangs still ends the run.
const FILE_TIMEOUT_MS = 450_000;
// Test files at once: one more than the cores. The files mostly wait (on their tool, the database, Chromium, a
// timeout) rather than compute: the pages' and LMSs' 17 files used 237 s of CPU in all (Node, Chromium and the
// PostgreSQL server) in 692 s of file time, the security files 137 s in 540 s; by that measure the PostgreSQL pass
// needs some 900 s of CPU, and two files at once on 2 cores (14 min, 1,690 core-seconds) kept them about half busy.
// TEST_CONCURRENCY sets another number.
// Each file's time in the last run, by pass, for the next run to start the slowest first (scripts/file-times.mjs).
const TIMES_KEPT = join(root, '.cache', 'test-times.json');
const CONCURRENCY = Number(process.env.TEST_CONCURRENCY) || availableParallelism() + 1;
for (const pass of passes) {
  const failure = await templateFor[pass.db];
  await exitIfStopped();
  if (failure) {
    await tearDown();
    print(
      `\nThe ${pass.title} cannot run: its database as the tool's first start leaves it could not be made:\n${failure}`,
    );
    process.exit(1);
  }
  print(`\n=== Node ${process.version}, ${pass.title}, ${pass.files.length} test files, ${CONCURRENCY} at once ===`);
  const result = await timed(pass.title, () =>
    run(
      process.execPath,
      [
        '--import',
        'tsx',
        '--test',
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        `--test-reporter=${join(root, 'scripts/file-times.mjs')}`,
        '--test-reporter-destination=stdout',
        `--test-concurrency=${CONCURRENCY}`,
        `--test-timeout=${FILE_TIMEOUT_MS}`,
        ...slowestFirst(pass.files, TIMES_KEPT, pass.db, root),
      ],
      { TEST_DB: pass.db, TEST_TIMES_KEPT: TIMES_KEPT, ...templates.env },
    ),
  );
  await exitIfStopped();
  skipped.push(...result.skipped.map((test) => ({ ...test, pass: pass.title })));
  if ('pass' in result.summary && 'fail' in result.summary) {
    passed += result.summary.pass;
    failed += result.summary.fail;
  } else {
    // No summary: the runner crashed or was killed, and how many tests passed is unknown. Not a pass.
    print(`\nThe test runner printed no pass/fail summary for the ${pass.title}: its counts are unknown.`);
    exitCode = 1;
  }
  if (result.code !== 0) exitCode = 1;
}
await tearDown();

if (exitCode !== 0 && failed === 0) failed = 1; // a crash that the reporter did not count is still a failure
print(`\nNode ${process.version}; took: ${timings.join(', ')}.`);
if (skipped.length > 0) {
  print(`${skipped.length} skipped on purpose (a skipped group of tests counts once):`);
  for (const test of skipped) print(`  ${test.pass}: ${test.name}${test.reason ? ` (${test.reason})` : ''}`);
}
print(`${passed} passed, ${failed} failed`);
process.exit(exitCode);
