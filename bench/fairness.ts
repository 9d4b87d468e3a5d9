// One installation, two schools (issue 30, finding 2): LMS A floods the tool with notices whose files its Asset
// Service sends slowly (4 KB/s, above the minimum rate, for 20 s each: 50 notices of 10 files at scale 1), while
// LMS B's students submit one ordinary file every half second. Measured: how long B's file waits from its notice to
// being fetched (the asset admitted) and to its Processed report at B, beside the same run of B's notices with no
// flood. The tool runs in this process on PostgreSQL with the default job settings (JOB_CONCURRENCY 4) but quick
// polling; the checking service is the in-process sandbox.
import type { ServerResponse } from 'node:http';
import type { NoticeAsset } from '../src/devplatform/notices.js';
import { attachToActivity } from '../test/support/asset-processor.js';
import { startTestPlatform, type ServedPlatform } from '../test/support/platform.js';
import { startTestTool, type TestTool } from '../test/support/tool.js';
import { ms, percentile, scaled, sleep, waitUntil, type Row } from './lib.js';
import { essay } from './stack.js';

const ACTIVITY_A = { id: 'c0ffee00-0000-4000-8000-0000000000a1', title: 'Essay at school A' };
const ACTIVITY_B = { id: 'c0ffee00-0000-4000-8000-0000000000b2', title: 'Essay at school B' };
const SLOW_SECONDS = 20;

interface Latency {
  fetched: number[];
  reported: number[];
}

async function notify(
  tool: TestTool,
  lms: ServedPlatform,
  activityId: string,
  submissionId: string,
  urls: string[],
): Promise<void> {
  const assets: NoticeAsset[] = urls.map((url, i) => ({
    asset_id: `${submissionId}-${i}`,
    url,
    title: 'essay.txt',
    filename: 'essay.txt',
    content_type: 'text/plain',
  }));
  const claims = lms.platform.submissionNotice({ activityId, submissionId, userId: `student-${submissionId}`, assets });
  const answer = await fetch(`${tool.url}/asset-processor/notices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ notices: [{ jwt: await lms.platform.sign(claims) }] }),
  });
  if (answer.status !== 200) throw new Error(`the tool answered a notice ${answer.status}: ${await answer.text()}`);
}

/** B's files without a flood, then with A's flood under way (one tool: ltijs allows one per process); B's latencies. */
async function run(): Promise<{ quiet: Latency; flooded: Latency }> {
  const tool = await startTestTool({
    ASSET_PROCESSOR: 'on',
    SANDBOX_DELAY_MS: '300',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    JOB_POLLING_SECONDS: '0.5',
    LOG_LEVEL: 'warn',
  });
  const open = new Set<ServerResponse>();
  const lmsA = await startTestPlatform(tool, { rules: 'canvas', clientId: 'bench-school-a' });
  const lmsB = await startTestPlatform(tool, { rules: 'canvas', clientId: 'bench-school-b' });
  try {
    lmsA.app.get('/slow/:n', (req, res) => {
      res.setHeader('content-type', 'text/plain');
      open.add(res);
      const text = essay(Number(req.params.n.replace(/\D/g, '')) || 1);
      let ticks = 0;
      const timer = setInterval(() => {
        if (++ticks >= SLOW_SECONDS * 4) return void res.end(text);
        res.write(' '.repeat(1024));
      }, 250);
      res.once('close', () => {
        clearInterval(timer);
        open.delete(res);
      });
    });
    await attachToActivity(tool, lmsA, ACTIVITY_A);
    await attachToActivity(tool, lmsB, ACTIVITY_B);
    const origin = (lms: ServedPlatform) => new URL(lms.url).origin;
    const phase = async (name: string): Promise<Latency> => {
      const count = scaled(20, 5);
      const sent: number[] = [];
      const assetIds: string[] = [];
      const db = tool.tool.database.db;
      const fetched: number[] = [];
      const reported: number[] = [];
      // Watched from the first notice on, so that each time is read within 50 ms of the event.
      const watching = waitUntil(
        `every B file reported Processed (${name})`,
        async () => {
          for (let i = fetched.length; i < assetIds.length; i += 1) {
            const row = await db
              .selectFrom('lms_asset')
              .select('state')
              .where('asset_id', '=', assetIds[i]!)
              .executeTakeFirst();
            if (row?.state !== 'admitted') break;
            fetched.push(Date.now() - sent[i]!);
          }
          for (let i = reported.length; i < assetIds.length; i += 1) {
            if (
              !lmsB.platform
                .assetReports()
                .some(
                  (report) =>
                    report.assetId === assetIds[i] &&
                    report.type === 'originality' &&
                    report.processingProgress === 'Processed',
                )
            )
              break;
            reported.push(Date.now() - sent[i]!);
          }
          return reported.length === count && fetched.length === count;
        },
        120_000,
        50,
      );
      for (let i = 0; i < count; i += 1) {
        const at = Date.now();
        const submitted = await lmsB.platform.submitToActivity({
          activityId: ACTIVITY_B.id,
          userId: `student-${name}-${i}`,
          files: [
            {
              content: Buffer.from(essay(i + (name === 'quiet' ? 1000 : 2000))),
              filename: `${name}-${i}.txt`,
              contentType: 'text/plain',
            },
          ],
        });
        if (submitted.status !== 200)
          throw new Error(`the tool answered B's notice ${submitted.status}: ${submitted.body}`);
        sent.push(at);
        assetIds.push(submitted.assets[0]!.asset_id);
        await sleep(500);
      }
      await watching;
      return { fetched, reported };
    };
    const quiet = await phase('quiet');
    const notices = scaled(50, 3);
    const files = scaled(10, 4);
    await Promise.all(
      Array.from({ length: notices }, (_, n) =>
        notify(
          tool,
          lmsA,
          ACTIVITY_A.id,
          `flood-${n}`,
          Array.from({ length: files }, (_, f) => `${origin(lmsA)}/slow/${n}x${f}`),
        ),
      ),
    );
    await waitUntil("A's downloads under way", () => open.size > 0, 30_000, 50);
    const flooded = await phase('flooded');
    return { quiet, flooded };
  } finally {
    for (const res of open) res.destroy();
    await lmsA.close();
    await lmsB.close();
    await tool.stop();
  }
}

export async function fairnessBench(): Promise<Row[]> {
  const { quiet, flooded } = await run();
  const cell = (values: number[]) => `${ms(percentile(values, 50))} / ${ms(Math.max(...values))}`;
  const floodSize = `${scaled(50, 3)} notices × ${scaled(10, 4)} files at 4 KB/s for ${SLOW_SECONDS} s each`;
  return [
    {
      what: `LMS B's file, notice to fetched, while LMS A floods (${floodSize}): p50 / max`,
      figure: cell(flooded.fetched),
      anchor: `${cell(quiet.fetched)} (no flood)`,
      ratio: (percentile(flooded.fetched, 50) / percentile(quiet.fetched, 50)).toFixed(2),
      goal: 'a few seconds',
    },
    {
      what: "LMS B's file, notice to Processed report at B: p50 / max",
      figure: cell(flooded.reported),
      anchor: `${cell(quiet.reported)} (no flood)`,
      ratio: (percentile(flooded.reported, 50) / percentile(quiet.reported, 50)).toFixed(2),
      goal: 'a few seconds',
    },
  ];
}
