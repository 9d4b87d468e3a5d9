// The Asset Processor's door under the deadline surge's load: 2,000 notices within 60 s (BENCH_SCALE shrinks both),
// each a student's submission of one file to the LMS's own assignment, 30 % of them a submission's notice sent again
// (the same submission and asset, a new notice id, as Canvas's "Resubmit all files" sends it), while the service
// answers 30 % of requests with 429. The tool runs as one process (ROLE=all, default job settings) on PostgreSQL,
// attached to the assignment as its Asset Processor. Measured: how long the tool took to acknowledge each notice
// (timed in the platform's process, from sending the notice to the tool's answer), the time until every asset has an
// originality report Processed in the platform, that each asset reached the service once whatever the repeats, and
// what one notice cost the tool. The anchor: the floor of that time (the window plus the service's analysis time),
// as the surge's; the same load through the tool's own upload page is the surge (bench/surge.ts), run beside it.
import { ms, percentile, scaled, SCALE, fixedRate, failures, waitUntil, type Row } from './lib.js';
import type { NoticeSent } from './platform-process.js';
import { essay, startStack, UNLIMITED } from './stack.js';
import { ANALYSIS_MS, RATE_LIMITED } from './surge.js';

const REPEATED = 0.3;
const ACTIVITY = { id: 'b1d2e3f4-0000-4000-8000-0000000000b1', title: 'Essay (LMS assignment)' };

/** Notice i repeats an earlier submission's notice: REPEATED of them, spread evenly through the window. */
const isRepeat = (i: number) => Math.floor((i + 1) * REPEATED) > Math.floor(i * REPEATED);

export async function noticesBench(): Promise<Row[]> {
  const notices = scaled(2000, 50);
  const windowSeconds = Math.max(5, 60 * SCALE);
  const timeoutSeconds = Number(process.env.BENCH_SURGE_TIMEOUT_S ?? 1800);
  const stack = await startStack({
    backend: 'postgres',
    role: 'all',
    students: 0,
    sandbox: { delayMs: ANALYSIS_MS },
    admit: UNLIMITED,
    env: { ASSET_PROCESSOR: 'on' },
  });
  try {
    await stack.platform.attach(ACTIVITY);
    stack.sandbox.setFaults({ rateLimit: { ratio: RATE_LIMITED, retryAfterSeconds: 1 } });
    // Each first submission's notice, once the tool answered it: a repeat goes out only after the notice it repeats.
    const firsts: Array<Promise<NoticeSent>> = [];
    const answers: Array<NoticeSent & { repeat: boolean }> = [];
    const deliver = async (sending: Promise<NoticeSent>, repeat: boolean) => {
      const answer = await sending;
      answers.push({ ...answer, repeat });
      if (answer.status !== 200) throw new Error(`the tool answered a notice ${answer.status}: ${answer.body}`);
      return answer;
    };
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    let drained = Number.NaN;
    let outcome = '';
    const { result: sent, cost } = await stack.meter.costOf(async () => {
      const sent = await fixedRate(notices, notices / windowSeconds, async (i) => {
        if (isRepeat(i) && firsts.length > 0) {
          // A submission chosen evenly among those made so far.
          const earlier = await firsts[(i * 7919) % firsts.length]!.catch(() => null);
          if (earlier) await deliver(stack.platform.resend(earlier.submissionId), true);
          return;
        }
        const n = firsts.length + 1;
        const sending = deliver(
          stack.platform.submitToActivity({
            activityId: ACTIVITY.id,
            userId: `student-${n}`,
            filename: `essay-${n}.txt`,
            text: essay(n),
          }),
          false,
        );
        firsts.push(sending);
        await sending;
      });
      const distinct = answers.filter((answer) => answer.status === 200 && !answer.repeat).length;
      try {
        await waitUntil(
          'every asset Processed',
          async () => {
            const reports = await stack.platform.assetReports();
            return reports.processed + reports.failed >= distinct;
          },
          timeoutSeconds * 1000,
        );
        drained = seconds();
      } catch (error) {
        outcome = ` (${(error as Error).message})`;
      }
      return sent;
    }, 'notices');
    await new Promise((resolve) => setTimeout(resolve, 3000)); // late duplicates, if any, have time to show
    const reports = await stack.platform.assetReports();
    const papers = stack.sandbox.stats().papers;
    const assets = new Set(answers.filter((answer) => answer.status === 200).flatMap((answer) => answer.assetIds)).size;
    const repeats = answers.filter((answer) => answer.repeat).length;
    const acknowledged = answers.filter((answer) => answer.status === 200).map((answer) => answer.ms);
    const floor = windowSeconds + ANALYSIS_MS / 1000;
    const refused = reports.firstRefused
      ? `; first: ${reports.firstRefused.status} ${JSON.stringify(reports.firstRefused.body).slice(0, 200)}`
      : '';
    return [
      {
        what: `${answers.length} notices in ${windowSeconds.toFixed(0)} s (${repeats} sent again), one asset each, ${RATE_LIMITED * 100} % of service requests refused (429): acknowledgement p50 / p99`,
        figure: `${ms(percentile(acknowledged, 50))} / ${ms(percentile(acknowledged, 99))}${failures(sent)}`,
      },
      {
        what: 'every asset reported Processed, after the first notice',
        figure: `${drained.toFixed(0)} s${outcome}`,
        anchor: `${floor.toFixed(0)} s (window + analysis)`,
        ratio: (drained / floor).toFixed(2),
      },
      {
        what: 'exactly once',
        figure: `${papers} papers at the service for ${assets} assets; ${reports.processed} Processed, ${reports.failed} Failed; ${reports.processedPosts} Processed posts, ${reports.processedBeyondNotices} assets with more than their notices; ${reports.refused} reports refused${refused}`,
        goal: 'one paper each',
      },
      {
        what: 'per notice: all it caused until every asset was reported (acknowledgement, download, upload, read-back, reports)',
        figure: `${answers.length} notices`,
        cost,
      },
    ];
  } finally {
    await stack.close();
  }
}
