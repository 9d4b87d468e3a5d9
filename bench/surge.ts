// A deadline: 2,000 students each submit a paper within 60 s (BENCH_SCALE shrinks both) while the service
// answers 30 % of requests with 429. The tool runs as one process (ROLE=all, default job settings) on
// PostgreSQL or on embedded PGlite. Measured: the receipts' latency during the surge, the time until every paper
// is at the service and every score in the platform's gradebook, that each happened exactly once, and the
// tool's resident memory idle and at its peak. The anchors: the floor of those times (the window plus the
// service's analysis time), and a bare express process's memory.
import {
  ms,
  percentile,
  rssMb,
  rssPeak,
  scaled,
  SCALE,
  sleep,
  fixedRate,
  failures,
  withChild,
  waitUntil,
  type Row,
} from './lib.js';
import { essay, startStack, UNLIMITED } from './stack.js';

export const ANALYSIS_MS = 2000;
export const RATE_LIMITED = 0.3;

export async function surgeBench(backend: 'postgres' | 'pglite'): Promise<Row[]> {
  const students = scaled(2000, 50);
  const windowSeconds = Math.max(5, 60 * SCALE);
  const timeoutSeconds = Number(process.env.BENCH_SURGE_TIMEOUT_S ?? 1800);
  const bareRss = await withChild<{ url: string }, number>('bare-server.ts', async (bare) => {
    await fetch(`${bare.info.url}/page`);
    await sleep(1000);
    return rssMb(bare.child.pid!);
  });
  // Every student's paper is received (the admission limits, measured in bench/overload.ts, would refuse some on a
  // busy machine and shorten the drain).
  const stack = await startStack({
    backend,
    role: 'all',
    students,
    sandbox: { delayMs: ANALYSIS_MS },
    admit: UNLIMITED,
  });
  try {
    await sleep(3000);
    const pid = stack.tool.child.pid!;
    const idle = rssMb(pid);
    const peak = rssPeak(pid);
    const ltiks = await stack.launchStudents(1, students);
    stack.sandbox.setFaults({ rateLimit: { ratio: RATE_LIMITED, retryAfterSeconds: 1 } });
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    let submittedAfter = Number.NaN;
    let atService = Number.NaN;
    let graded = Number.NaN;
    let outcome = '';
    // What each paper cost the tool, from its receipt to its score in the gradebook (upload, callback, read-back,
    // grade post and the job queue's own statements).
    const { result: receipts, cost } = await stack.meter.costOf(async () => {
      const receipts = await fixedRate(students, students / windowSeconds, async (i) => {
        await stack.submit(ltiks[i]!, `essay-${i + 1}.txt`, essay(i + 1));
      });
      submittedAfter = seconds();
      try {
        await waitUntil(
          'every paper at the service',
          () => stack.sandbox.stats().papers >= receipts.done,
          timeoutSeconds * 1000,
        );
        atService = seconds();
        await waitUntil(
          'every score in the gradebook',
          async () => (await stack.platform.grades()).fullyGraded >= receipts.done,
          timeoutSeconds * 1000 - atService * 1000,
        );
        graded = seconds();
      } catch (error) {
        outcome = ` (${(error as Error).message}: ${stack.sandbox.stats().papers} papers, ${(await stack.platform.grades()).fullyGraded} scores)`;
      }
      return receipts;
    }, `surge-${backend}`);
    const peakRss = peak.stop();
    await sleep(3000); // late duplicates, if any, have time to show
    const grades = await stack.platform.grades();
    const papers = stack.sandbox.stats().papers;
    const floor = windowSeconds + ANALYSIS_MS / 1000;
    return [
      {
        what: `${receipts.done} students in ${windowSeconds.toFixed(0)} s, ${RATE_LIMITED * 100} % of service requests refused (429): receipt p99`,
        figure: `${ms(percentile(receipts.latencies, 99))}${failures(receipts)}`,
        goal: '< 250 ms',
      },
      {
        what: 'every paper at the service, after the first submission',
        figure: `${atService.toFixed(0)} s${outcome}`,
        anchor: `${floor.toFixed(0)} s (window + analysis)`,
        ratio: (atService / floor).toFixed(2),
      },
      {
        what: 'every score in the gradebook, after the first submission',
        figure: `${graded.toFixed(0)} s`,
        anchor: `${floor.toFixed(0)} s`,
        ratio: (graded / floor).toFixed(2),
      },
      {
        what: 'per paper: all it caused until its score was in the gradebook (receipt, upload, callback, read-back, grade post)',
        figure: `${receipts.done} papers`,
        cost,
      },
      {
        what: 'exactly once',
        figure: `${papers} papers for ${receipts.done} submissions; ${grades.fullyGradedPosts} final scores, ${grades.gradedTwice} students scored twice`,
        goal: 'one each',
      },
      {
        what: 'tool RSS idle / peak (launches and surge)',
        figure: `${idle.toFixed(0)} MB / ${peakRss.toFixed(0)} MB`,
        anchor: `${bareRss.toFixed(0)} MB bare express process`,
      },
      { what: 'submissions all sent after', figure: `${submittedAfter.toFixed(1)} s` },
    ];
  } finally {
    await stack.close();
  }
}
