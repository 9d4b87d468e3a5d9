#!/usr/bin/env node
// `npm run test:hardening`: the reliability and security suite (test/*/*.hardening.test.ts) on PostgreSQL (or the
// database TEST_DB names), then one table of what it measured. Each test appends its figures as JSON lines to the
// file named by HARDENING_FIGURES (see test/support/hardening.ts); this script adds them up.
//
//   npm run test:hardening                       all of it
//   npm run test:hardening -- test/web/bad-forms.hardening.test.ts   chosen files
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWithSummary } from './run-node.mjs';

const root = new URL('..', import.meta.url).pathname;
const requested = process.argv.slice(2);
const files =
  requested.length > 0
    ? requested
    : readdirSync(join(root, 'test'), { withFileTypes: true })
        .filter((part) => part.isDirectory())
        .flatMap((part) =>
          readdirSync(join(root, 'test', part.name))
            .filter((name) => name.endsWith('.hardening.test.ts'))
            .map((name) => `test/${part.name}/${name}`),
        )
        .sort();
const database = process.env.TEST_DB ?? 'postgres';
const scratch = mkdtempSync(join(tmpdir(), 'hardening-'));
const figuresFile = join(scratch, 'figures.jsonl');

const { code, summary } = await runWithSummary(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=300000', ...files],
  {
    cwd: root,
    env: { TEST_DB: database, HARDENING_FIGURES: figuresFile },
  },
);

const figures = existsSync(figuresFile)
  ? readFileSync(figuresFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
rmSync(scratch, { recursive: true, force: true });
const sum = (key, rows = figures) => rows.reduce((total, row) => total + (row[key] ?? 0), 0);
const counted = (key) => figures.some((row) => key in row);
/** A count from the reporter's summary, or "unknown" when it printed none (it crashed, or was killed). */
const testCount = (word) => (word in summary ? String(summary[word]) : 'unknown');
const notMeasured = 'not measured (its tests did not run)';

const faults = figures.filter((row) => 'fault' in row);
const survived = faults.filter((row) => row.survived);
const failedFaults = faults.filter((row) => !row.survived).map((row) => row.fault);
const rows = [
  [
    'faults survived',
    faults.length
      ? `${survived.length} of ${faults.length}: ${faults.map((row) => row.fault).join('; ')}${failedFaults.length ? ` (not survived: ${failedFaults.join('; ')})` : ''}`
      : notMeasured,
  ],
  ['submissions through the faults', faults.length ? String(sum('submissions', faults)) : notMeasured],
  ['submissions lost', faults.length ? String(sum('lost', faults)) : notMeasured],
  ['duplicated at the service', faults.length ? String(sum('duplicated', faults)) : notMeasured],
  ['grades wrong', faults.length ? String(sum('gradesWrong', faults)) : notMeasured],
  [
    'final scores sent again, same score (the gradebook took one, the worker died or lost its database before recording it)',
    faults.length ? String(sum('repeatedFinalPosts', faults)) : notMeasured,
  ],
  [
    'bad inputs tried',
    counted('badInputs')
      ? `${sum('badInputs')}, ${sum('badInputsAsExpected')} answered as expected (status, nothing half-written, the tool up after each)`
      : notMeasured,
  ],
  [
    'access matrix cells checked',
    counted('accessCells') ? `${sum('accessCells')}, ${sum('accessCellsAsExpected')} as intended` : notMeasured,
  ],
  [
    'leaks found',
    counted('leaks')
      ? `${sum('leaks')} (${sum('secretsSearched')} secrets searched in ${sum('logLinesSearched')} log lines and ${sum('pagesSearched')} pages)`
      : notMeasured,
  ],
  ['tests', `${testCount('pass')} passed, ${testCount('fail')} failed, ${testCount('skipped')} skipped`],
];

console.log(
  `\nReliability and security suite: Node ${process.version}, ${database}, ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log('| what | figure |\n|---|---|');
for (const [what, figure] of rows) console.log(`| ${what} | ${figure} |`);
process.exit(code);
