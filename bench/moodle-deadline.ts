// A Moodle class at a deadline, through this repository's Moodle plugins: 200 students submit one file each to
// mod_assign within the last ten minutes before the deadline, more of them the nearer it is (student i at
// W·√(i/N) of the window W), each submission announced as the plagiarism plugin announces it (the dev platform's
// dialect 'moodle': test/fixtures/lms/moodle/), the tool attached by the first notice, its files fetched and its
// reports posted under the lti-ap scopes. The tool runs as one process on PostgreSQL with the sandbox standing in for
// the checking service (its analysis takes ANALYSIS_MS). Measured: that every paper was checked once and none lost,
// and the time from the last submission to the last Processed report. With a real Moodle (../shared/moodle, or
// MOODLE_KIT), bench/moodle-grader.php also counts the database reads of the grader's page of 200 such
// submissions with the plugin on and off: the plugin's share must not grow with the submissions.
//   node --import tsx bench/moodle-deadline.ts            the whole class, a ten-minute window
//   BENCH_SCALE=0.1 node --import tsx bench/moodle-deadline.ts    20 students within a minute
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ms, percentile, root, scaled, SCALE, sleep, waitUntil, type Row } from './lib.js';
import type { NoticeSent } from './platform-process.js';
import { essay, startStack, UNLIMITED } from './stack.js';
import { ANALYSIS_MS } from './surge.js';

const ACTIVITY = { id: '5a1d0c3e-7b2f-4c51-9e0a-d0c5e7a11001', title: 'Essay on rivers' };
const run = promisify(execFile);

/** The grader page's database reads, from a real Moodle: null when there is none here. */
async function graderReads(students: number): Promise<Record<string, number> | string> {
  const kit = resolve(process.env.MOODLE_KIT ?? join(root, '..', 'shared', 'moodle'));
  const moodleDir = join(process.env.MOODLE_HOME ?? join(homedir(), '.moodle-kit'), 'moodle');
  if (!existsSync(kit) || !existsSync(join(moodleDir, 'plagiarism', 'olti', 'version.php')))
    return `not measured: no Moodle with the plugins here (${kit})`;
  const { stdout } = await run('php', [join(root, 'bench', 'moodle-grader.php'), String(students)], {
    env: { ...process.env, MOODLE_DIR: moodleDir },
    maxBuffer: 16 << 20,
    timeout: 1_800_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, number>;
}

export async function moodleDeadlineBench(): Promise<Row[]> {
  const students = scaled(200, 10);
  const windowMs = Math.max(30, 600 * SCALE) * 1000;
  const stack = await startStack({
    backend: 'postgres',
    role: 'all',
    students: 0,
    lms: 'moodle',
    sandbox: { delayMs: ANALYSIS_MS },
    admit: UNLIMITED,
    env: { ASSET_PROCESSOR: 'on' },
  });
  const rows: Row[] = [];
  try {
    await stack.platform.switchOn(ACTIVITY);
    const started = performance.now();
    const answers: NoticeSent[] = [];
    let lastSubmitted = 0;
    await Promise.all(
      Array.from({ length: students }, async (_, i) => {
        await sleep(windowMs * Math.sqrt((i + 1) / students) - (performance.now() - started));
        const answer = await stack.platform.submitToActivity({
          activityId: ACTIVITY.id,
          userId: `student-${i + 1}`,
          filename: `essay-${i + 1}.txt`,
          text: essay(i + 1),
        });
        lastSubmitted = Math.max(lastSubmitted, Date.now());
        answers.push(answer);
      }),
    );
    const taken = answers.filter((answer) => answer.status === 200);
    await waitUntil(
      'every asset Processed',
      async () => {
        const reports = await stack.platform.assetReports();
        return reports.processed + reports.failed >= taken.length;
      },
      30 * 60_000,
    );
    await sleep(3000); // a late second report or paper, if any, has time to show
    const times = await stack.platform.reportTimes();
    const lastReport = Math.max(...Object.values(times).map((asset) => asset.Processed ?? 0));
    const reports = await stack.platform.assetReports();
    const papers = stack.sandbox.stats().papers;
    const acknowledged = taken.map((answer) => answer.ms);
    rows.push(
      {
        what: `${students} students submit to one Moodle assignment within ${(windowMs / 1000).toFixed(0)} s of its deadline (more near it): notices the tool took / its answer p50 / p99`,
        figure: `${taken.length} of ${answers.length} / ${ms(percentile(acknowledged, 50))} / ${ms(percentile(acknowledged, 99))}`,
      },
      {
        what: 'every paper checked once, none lost',
        figure: `${papers} papers at the service for ${taken.length} submissions; ${reports.processed} Processed, ${reports.failed} Failed, ${reports.processedTwice} Processed twice, ${reports.refused} reports refused`,
        goal: 'one paper and one Processed report each',
      },
      {
        what: `last submission → last report Processed in Moodle (the sandbox's analysis takes ${ANALYSIS_MS / 1000} s)`,
        figure: `${((lastReport - lastSubmitted) / 1000).toFixed(1)} s`,
        anchor: `${ANALYSIS_MS / 1000} s (the analysis alone)`,
      },
    );
  } finally {
    await stack.close();
  }
  const reads = await graderReads(students).catch((error: Error) => `not measured: ${error.message.split('\n')[0]}`);
  rows.push({
    what: `the grader's page (mod_assign, ${students} file submissions with reports): database reads with the plugin on / off / the plugin's own`,
    figure:
      typeof reads === 'string'
        ? reads
        : `${reads.readsOn} / ${reads.readsOff} / ${reads.readsOn! - reads.readsOff!} (get_links called ${reads.linkCalls} times)`,
    goal: "the plugin's own reads the same for any number of submissions",
  });
  return rows;
}

if (process.argv[1]?.endsWith('moodle-deadline.ts')) {
  for (const row of await moodleDeadlineBench())
    console.log(`${row.what}\n  ${row.figure}${row.anchor ? `  (anchor: ${row.anchor})` : ''}`);
}
