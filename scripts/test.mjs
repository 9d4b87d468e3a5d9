#!/usr/bin/env node
// The project's test command (`npm test`): set up what the tests need (scripts/setup/), type-check, build, then run the
// suite on PostgreSQL and again on PGlite, and say how long each step took. Test files that never touch the
// database (they import neither test/support/db.ts nor test/support/tool.ts) run in the first pass only.
//
//   npm test                      everything
//   npm test -- test/foo.test.ts  only the named files (both passes where they apply)
//   TEST_DB=postgres npm test     one pass only: postgres, pglite, or none (the files that touch no database)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { join, relative } from 'node:path';
import { runWithSummary, signalRunning } from './run-node.mjs';
import { provideChromium } from './setup/chromium.mjs';
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

const requested = process.argv.slice(2);
const files = requested.length > 0 ? requested : findTests(join(root, 'test'));
const imports = (file, support) => new RegExp(`support/(${support})(\\.js)?['"]`).test(readFileSync(join(root, file), 'utf8'));
const usesDatabase = (file) => imports(file, 'db|tool');
const usesBrowser = (file) => imports(file, 'browser');

const PASSES = {
  postgres: { title: 'PostgreSQL pass', files },
  pglite: { title: 'PGlite pass', files: files.filter(usesDatabase) },
  none: { title: 'no-database pass', files: files.filter((file) => !usesDatabase(file)) },
};
const chosen = process.env.TEST_DB;
if (chosen && !(chosen in PASSES)) {
  console.log(`TEST_DB=${chosen} names no pass: use postgres, pglite or none (or leave it unset for the PostgreSQL and PGlite passes).`);
  process.exit(1);
}
const passes = (chosen ? [chosen] : ['postgres', 'pglite']).map((db) => ({ db, ...PASSES[db] })).filter((pass) => pass.files.length > 0);

const testEnv = {};
const timings = [];
const seconds = (ms) => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`);
async function timed(label, work) {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings.push(`${label} ${seconds(Date.now() - started)}`);
  }
}
const run = (cmd, args, env = {}) => runWithSummary(cmd, args, { cwd: root, env: { ...testEnv, ...env } });

// What was set up is taken down again at the end, on a failure, and on Ctrl-C or a kill.
const teardowns = [];
let tearingDown;
const tearDown = () => (tearingDown ??= timed('clean-up', async () => {
  const say = (line) => console.log(`clean-up: ${line}`);
  while (teardowns.length > 0) await teardowns.pop()(say).catch((error) => say(`failed: ${error.message}`));
}));
let settingUp = Promise.resolve();
let stoppedBy = null;
async function exitIfStopped() {
  if (!stoppedBy) return;
  await tearDown();
  process.exit(128 + constants.signals[stoppedBy]);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, async () => {
    if (stoppedBy) return;
    stoppedBy = signal;
    console.log(`\nStopped by ${signal}: taking down what was set up.`);
    signalRunning(signal);
    await settingUp.catch(() => {}); // a server being started is stopped once it is up
    await exitIfStopped();
  });
}

const say = (line) => console.log(`set-up: ${line}`);
try {
  settingUp = timed('set-up', async () => {
    const needBrowser = passes.some((pass) => pass.files.some(usesBrowser));
    const needPostgres = passes.some((pass) => pass.db === 'postgres' && pass.files.some(usesDatabase));
    if (needBrowser) testEnv.CHROMIUM_PATH = provideChromium(process.env, say);
    if (needPostgres) {
      const server = await providePostgres(process.env, say);
      testEnv.TEST_PG_ADMIN_URL = server.adminUrl;
      teardowns.push(server.stop);
    }
    if (!needBrowser && !needPostgres) say('nothing to set up: these test files need neither Chromium nor a PostgreSQL server');
  });
  await settingUp;
  await exitIfStopped();
} catch (error) {
  await tearDown();
  if (!(error instanceof SetupError)) throw error;
  console.log(`\nThe tests cannot run: ${error.message}`);
  process.exit(1);
}

/** TypeScript's compiler with `args`; stops the run with `failure` when it reports errors. */
async function compile(name, args, failure) {
  const compiled = await timed(name, () => run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), ...args]));
  await exitIfStopped();
  if (compiled.code !== 0) {
    await tearDown();
    console.log(failure);
    process.exit(1);
  }
}

await compile('type check', ['--noEmit', '-p', 'tsconfig.json'], 'Type check failed: fix the errors above before the tests run.');
// `npm start` runs the tool built into dist/; the tests that start it that way need this build.
await compile('build', ['-p', 'tsconfig.build.json'], 'The build (npm run build) failed: see above.');

let passed = 0;
let failed = 0;
let exitCode = 0;
const skipped = [];
// Each file (and each test without a deadline of its own) ends within this: long enough for the slowest file, the
// worker SIGKILLed twenty times, on a busy two-core machine; a file that hangs still ends the run.
const FILE_TIMEOUT_MS = 450_000;
for (const pass of passes) {
  console.log(`\n=== Node ${process.version}, ${pass.title}, ${pass.files.length} test files ===`);
  const result = await timed(pass.title, () =>
    run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', `--test-timeout=${FILE_TIMEOUT_MS}`, ...pass.files], { TEST_DB: pass.db }),
  );
  await exitIfStopped();
  skipped.push(...result.skipped.map((test) => ({ ...test, pass: pass.title })));
  if ('pass' in result.summary && 'fail' in result.summary) {
    passed += result.summary.pass;
    failed += result.summary.fail;
  } else {
    // No summary: the runner crashed or was killed, and how many tests passed is unknown. Not a pass.
    console.log(`\nThe test runner printed no pass/fail summary for the ${pass.title}: its counts are unknown.`);
    exitCode = 1;
  }
  if (result.code !== 0) exitCode = 1;
}
await tearDown();

if (exitCode !== 0 && failed === 0) failed = 1; // a crash that the reporter did not count is still a failure
console.log(`\nNode ${process.version}; took: ${timings.join(', ')}.`);
if (skipped.length > 0) {
  console.log(`${skipped.length} skipped on purpose (a skipped group of tests counts once):`);
  for (const test of skipped) console.log(`  ${test.pass}: ${test.name}${test.reason ? ` (${test.reason})` : ''}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode);
