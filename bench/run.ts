// `npm run bench`: every benchmark, each beside its anchor measured in the same run, printed as one table.
// Benchmarks are not tests: they measure and print, and a slow machine makes numbers smaller, not a failure.
//   BENCH_SCALE=0.1 npm run bench          a tenth of the figures (counts, the surge's window), for a quick look
//   BENCH_ONLY=launch,surge npm run bench  some of them (launch, intake, upload, surge, notices, fairness, storm, overload;
//                                          surge-postgres: the surge on PostgreSQL alone)
//   BENCH_ONLY=notices                     the Asset Processor's notices, beside the surge through the upload page (PostgreSQL)
//   BENCH_ONLY=report-timing               notice → Processing, and a failing download → DOWNLOAD_FAILED (about 10 minutes)
//   BENCH_ONLY=space                       DATA_DIR after 100 refused 20 MB uploads and a term's papers, on PGlite
//   BENCH_ONLY=fairness                    LMS B's file fetches while LMS A floods the tool with slow files, beside no flood
//   BENCH_SURGE_TIMEOUT_S=600              how long the surge and the notices may take to finish (default 1800)
//   BENCH_UPLOAD_MB=20                     the size of the forwarded file (default 100, scaled)
//   BENCH_STATEMENTS=1                     the statements each measured phase sent, to stderr
//   BENCH_PROFILE_DIR=bench/profiles/x     CPU profiles of each measured phase (bench/profile-summary.ts reads them)
//   BENCH_WRITE_TIMES=1                    the wall clock and CPU inside the metered processes' socket writes
//   BENCH_TOOL_NODE_OPTIONS='--max-semi-space-size=4'  extra Node options for the tool's process
//   BENCH_TOOL_LOG=/tmp/tool.log           what the tool's processes logged
//   BENCH_TOOL_ENTRY=source                the tool from its sources through tsx, rather than built as npm start runs it
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { callbackStormBench } from './callback-storm.js';
import { embeddedSpaceBench } from './embedded-space.js';
import { fairnessBench } from './fairness.js';
import { intakeBench } from './intake.js';
import { launchBench } from './launch.js';
import { noticesBench } from './notices.js';
import { overloadBench } from './overload.js';
import { reportTimingBench } from './report-timing.js';
import { costCells, SCALE, type Row } from './lib.js';
import { surgeBench } from './surge.js';
import { uploadMemoryBench } from './upload-memory.js';

// A benchmark runs when BENCH_ONLY names any of its names: the notices come with the surge they stand beside.
const benches: Array<[string[], string, () => Promise<Row[]>]> = [
  [['launch'], 'Launch (PostgreSQL)', launchBench],
  [['intake'], 'Intake (PostgreSQL)', intakeBench],
  [['upload'], 'Upload forwarding', uploadMemoryBench],
  [['surge', 'surge-postgres', 'notices'], 'Deadline surge and memory (PostgreSQL)', () => surgeBench('postgres')],
  [['notices'], 'Asset Processor notices (PostgreSQL)', noticesBench],
  [['surge', 'surge-pglite'], 'Deadline surge and memory (PGlite)', () => surgeBench('pglite')],
  // PGlite's receipts wait for its one backend, so their p99 moves with the machine: a second run in the same
  // benchmark tells the figure from the noise.
  [['surge', 'surge-pglite'], 'Deadline surge and memory (PGlite, again)', () => surgeBench('pglite')],
  [['fairness'], 'Fairness between LMSs (PostgreSQL)', fairnessBench],
  [['storm'], 'Callback storm (PostgreSQL)', callbackStormBench],
  [['overload'], 'Overload, default admission limits (PostgreSQL)', overloadBench],
  [['report-timing'], 'Asset Processor reports: when SpeedGrader shows them (PostgreSQL)', reportTimingBench],
  [['space'], 'The embedded database on disk: refused uploads and a term of papers (PGlite)', embeddedSpaceBench],
];

// The tool is measured as `npm start` and a deployment run it: built into dist/ from these sources.
if (process.env.BENCH_TOOL_ENTRY !== 'source')
  execFileSync(
    process.execPath,
    [new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname, '-p', 'tsconfig.build.json'],
    { cwd: new URL('..', import.meta.url).pathname, stdio: 'inherit' },
  );

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const cell = (text: string | undefined) => (text ?? '').replace(/\|/g, '\\|');

console.log(
  `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, scale ${SCALE}, ${new Date().toISOString()}\n`,
);
console.log(
  '| benchmark | measure | tool | anchor (same run) | ratio | SQL statements / op | commits / op | CPU ms / op | goal |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [names, title, run] of benches) {
  if (only && !names.some((name) => only.includes(name))) continue;
  let rows: Row[];
  try {
    rows = await run();
  } catch (error) {
    rows = [{ what: 'did not complete', figure: error instanceof Error ? error.message : String(error) }];
  }
  for (const row of rows) {
    const [statements, commits, cpu] = costCells(row.cost);
    console.log(
      `| ${cell(title)} | ${cell(row.what)} | ${cell(row.figure)} | ${cell(row.anchor)} | ${cell(row.ratio)} | ${statements} | ${commits} | ${cpu} | ${cell(row.goal)} |`,
    );
  }
}
