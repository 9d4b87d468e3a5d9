// One installation serves several schools: one school's LMS must not stall another's checks. LMS A announces a dozen
// files whose Asset Service sends them slowly (above the minimum rate, so that only the share of download places
// keeps them in check); then LMS B announces one ordinary file. B's file is fetched and its report reaches B at once,
// not after A's dozen; A never holds more than its share of the places. An answer that trickles below the minimum
// rate is cut off well before the download's deadline, and said so to the LMS. An ordinary burst of notices is
// answered 200 every one: a notice refused is lost (Canvas never sends it again).
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { NoticeAsset } from '../../src/devplatform/notices.js';
import { attachToActivity, postNotices } from '../support/asset-processor.js';
import { essay } from '../support/hardening.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const CONCURRENCY = 4;
const A_FILES = 12;
const ACTIVITY_A = { id: 'e1f2a3b4-0000-4000-8000-0000000000a1', title: 'Essay at school A' };
const ACTIVITY_B = { id: 'e1f2a3b4-0000-4000-8000-0000000000b2', title: 'Essay at school B' };

let tool: TestTool;
let lmsA: ServedPlatform;
let lmsB: ServedPlatform;
/** A's slow answers still being sent, and the most of them at once. */
const slowOpen = new Set<ServerResponse>();
let slowMostAtOnce = 0;

before(async () => {
  tool = await startTestTool({
    ASSET_PROCESSOR: 'on',
    SANDBOX_DELAY_MS: '300',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '1',
    JOB_CONCURRENCY: String(CONCURRENCY),
    // The deadline alone would hold a slow file two minutes; the floor here is 1 KB/s over each second.
    ASSET_DOWNLOAD_TIMEOUT_SECONDS: '120',
    ASSET_DOWNLOAD_MIN_KB_PER_SECOND: '1',
    ASSET_DOWNLOAD_RATE_WINDOW_SECONDS: '1',
    SHUTDOWN_TIMEOUT_MS: '1000',
  });
  lmsA = await startTestPlatform(tool, { rules: 'canvas', clientId: 'school-a' });
  lmsB = await startTestPlatform(tool, { rules: 'canvas', clientId: 'school-b' });
  // 1 KB every 250 ms (4 KB/s, above the floor), for as long as the tool reads.
  lmsA.app.get('/slow/:n', (req, res) => {
    res.setHeader('content-type', 'text/plain');
    slowOpen.add(res);
    slowMostAtOnce = Math.max(slowMostAtOnce, slowOpen.size);
    const text = essay(`slow ${req.params.n}`);
    let sent = 0;
    const timer = setInterval(() => res.write(text.slice(0, 1024).padEnd(1024, ' ') + String(sent++)), 250);
    res.once('close', () => {
      clearInterval(timer);
      slowOpen.delete(res);
    });
  });
  // 10 bytes a second: alive, but far below the floor.
  lmsB.app.get('/trickle', (_req, res) => {
    res.setHeader('content-type', 'text/plain');
    res.write(essay('trickle').slice(0, 100));
    const timer = setInterval(() => res.write('aaaaaaaaaa'), 1000);
    res.once('close', () => clearInterval(timer));
  });
  await attachToActivity(tool, lmsA, ACTIVITY_A);
  await attachToActivity(tool, lmsB, ACTIVITY_B);
});
after(async () => {
  for (const res of slowOpen) res.destroy();
  await lmsA.close();
  await lmsB.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;

/** The LMS announces files at these addresses of its own in one notice; gives their asset ids. */
async function announce(
  lms: ServedPlatform,
  activityId: string,
  submissionId: string,
  paths: string[],
): Promise<string[]> {
  const assets: NoticeAsset[] = paths.map((path, i) => ({
    asset_id: `${submissionId}-${i}`,
    url: `${new URL(lms.url).origin}${path}`,
    title: 'essay.txt',
    filename: 'essay.txt',
    content_type: 'text/plain',
  }));
  const claims = lms.platform.submissionNotice({ activityId, submissionId, userId: `student-${submissionId}`, assets });
  const answer = await postNotices(tool, await lms.platform.sign(claims));
  assert.equal(answer.status, 200, await answer.text());
  return assets.map((asset) => asset.asset_id);
}

const stateOf = async (assetId: string) =>
  (await db()
    .selectFrom('lms_asset')
    .select(['state', 'error_code', 'error_comment'])
    .where('asset_id', '=', assetId)
    .executeTakeFirst()) ?? null;

describe('one LMS cannot stall another', () => {
  test(
    "behind a dozen slow files from LMS A, LMS B's file is fetched and reported within seconds; A holds at most its share of the places",
    { timeout: 90_000 },
    async () => {
      const slow = await announce(
        lmsA,
        ACTIVITY_A.id,
        'flood',
        Array.from({ length: A_FILES }, (_, i) => `/slow/${i}`),
      );
      await eventually(() => slowOpen.size >= CONCURRENCY - 1, "LMS A's downloads did not start", 20_000);

      const started = Date.now();
      const sent = await lmsB.platform.submitToActivity({
        activityId: ACTIVITY_B.id,
        userId: 'student-b',
        files: [{ content: Buffer.from(essay('school B')), filename: 'b.txt', contentType: 'text/plain' }],
      });
      assert.equal(sent.status, 200, sent.body);
      const assetB = sent.assets[0]!.asset_id;
      await eventually(
        async () => (await stateOf(assetB))?.state === 'admitted',
        "LMS B's file was not fetched within 5 s: it waited behind LMS A's",
        5_000,
        50,
      );
      const fetchedMs = Date.now() - started;
      await eventually(
        () =>
          lmsB.platform
            .assetReports()
            .some(
              (report) =>
                report.assetId === assetB && report.type === 'originality' && report.processingProgress === 'Processed',
            ),
        'LMS B got no Processed report within 15 s',
        15_000,
        100,
      );
      const reportedMs = Date.now() - started;
      console.log(
        `LMS B's file fetched ${fetchedMs} ms and reported Processed ${reportedMs} ms after its notice, behind ${A_FILES} slow files of LMS A`,
      );

      // A's files were still being sent all along: B did not just wait for them to end.
      const stillSlow = await Promise.all(slow.map(stateOf));
      assert.equal(
        stillSlow.filter((row) => row?.state === 'received').length,
        A_FILES,
        "A's slow files are still being fetched",
      );
      assert.equal(slowMostAtOnce, CONCURRENCY - 1, 'LMS A held every place but one, and no more');
    },
  );

  test(
    'an answer trickling below the minimum rate is cut off within seconds, not at the two-minute deadline',
    { timeout: 60_000 },
    async () => {
      const started = Date.now();
      // From LMS B: A's slow files still hold A's whole share.
      const [assetId] = await announce(lmsB, ACTIVITY_B.id, 'trickle', ['/trickle']);
      // Two tries (JOB_RETRY_LIMIT=1), each cut after about a second, with a second's retry delay between.
      await eventually(
        async () => (await stateOf(assetId!))?.state === 'failed',
        'the trickling download was not cut off',
        30_000,
        100,
      );
      const row = (await stateOf(assetId!))!;
      assert.equal(row.error_code, 'DOWNLOAD_FAILED');
      assert.match(row.error_comment ?? '', /slower than 1 KB\/s over 1 s/);
      assert.ok(Date.now() - started < 20_000, `cut off after ${Date.now() - started} ms`);
      await eventually(
        () =>
          lmsB.platform
            .assetReportLog()
            .some(
              (entry) =>
                (entry.body as { assetId?: string; errorCode?: string })?.assetId === assetId &&
                (entry.body as { errorCode?: string }).errorCode === 'DOWNLOAD_FAILED',
            ),
        'the LMS was not told',
        10_000,
        100,
      );
    },
  );

  test(
    'an ordinary burst of notices (100 at once) is answered 200 every one under the default admission limits',
    { timeout: 60_000 },
    async () => {
      const answers = await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const claims = lmsB.platform.submissionNotice({
            activityId: ACTIVITY_B.id,
            submissionId: `burst-${i}`,
            userId: `student-burst-${i}`,
            assets: [
              {
                asset_id: `burst-${i}`,
                url: `${new URL(lmsB.url).origin}/none/${i}`,
                title: 'essay.txt',
                filename: 'essay.txt',
                content_type: 'text/plain',
              },
            ],
          });
          const answer = await postNotices(tool, await lmsB.platform.sign(claims));
          return answer.status;
        }),
      );
      assert.deepEqual(
        answers.filter((status) => status !== 200),
        [],
      );
      assert.ok(
        tool.config.admission.notices >= 100,
        `the notices' class admits ${tool.config.admission.notices} at once`,
      );
    },
  );
});
