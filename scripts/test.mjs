#!/usr/bin/env node
// The project's test command (`npm test`): type-check, then run the suite on PostgreSQL and again on PGlite.
// Test files that never touch the database (they import neither test/support/db.ts nor test/support/tool.ts)
// run in the first pass only.
//
//   npm test                    everything
//   npm test -- test/foo.test.ts  only the named files (both passes where they apply)
//   TEST_DB=postgres npm test   one pass only (postgres or pglite)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runWithSummary } from './run-node.mjs';

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

const run = (cmd, args, env = {}) => runWithSummary(cmd, args, { cwd: root, env });

const requested = process.argv.slice(2);
const files = requested.length > 0 ? requested : findTests(join(root, 'test'));
const usesDatabase = (file) => /support\/(db|tool)(\.js)?['"]/.test(readFileSync(join(root, file), 'utf8'));
const passes = [
  { db: 'postgres', files },
  { db: 'pglite', files: files.filter(usesDatabase) },
].filter((pass) => !process.env.TEST_DB || pass.db === process.env.TEST_DB);

const typecheck = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json']);
if (typecheck.code !== 0) {
  console.log('Type check failed: fix the errors above before the tests run.');
  process.exit(1);
}

let passed = 0;
let failed = 0;
let exitCode = 0;
for (const pass of passes) {
  if (pass.files.length === 0) continue;
  console.log(`\n=== Node ${process.version}, database: ${pass.db}, ${pass.files.length} test files ===`);
  const result = await run(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=180000', ...pass.files],
    { TEST_DB: pass.db },
  );
  if ('pass' in result.summary && 'fail' in result.summary) {
    passed += result.summary.pass;
    failed += result.summary.fail;
  } else {
    // No summary: the runner crashed or was killed, and how many tests passed is unknown. Not a pass.
    console.log(`\nThe test runner printed no pass/fail summary for the ${pass.db} pass: its counts are unknown.`);
    exitCode = 1;
  }
  if (result.code !== 0) exitCode = 1;
}
if (exitCode !== 0 && failed === 0) failed = 1; // a crash that the reporter did not count is still a failure
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(exitCode);
