// Attacks through the Asset Processor's downloads: a notice signed by the registered LMS (so it is verified and kept)
// whose file address points into the tool's own network (loopback, link-local metadata, private ranges, numeric and
// IPv4-mapped forms), an Asset Service that redirects there, an answer larger than the assignment takes with no size
// declared, and one that never ends. None reaches the forbidden address; each file ends Failed with the
// specification's error code, told to the LMS, and no paper is made of it.
// The LMS here runs on 127.0.0.1, the one private address allowed (PLATFORM_PRIVATE_NETWORKS=127.0.0.1/32); the
// forbidden listener is on 127.0.0.2, another loopback address.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { NoticeAsset } from '../../src/devplatform/notices.js';
import { attachToActivity, postNotices } from '../support/asset-processor.js';
import { essay } from '../support/hardening.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const ACTIVITY = { id: 'd5f6a7b8-0000-4000-8000-000000000071', title: 'Essay on deltas' };
const FORBIDDEN =
  /could not be fetched from the LMS: The tool does not connect to .*private, loopback or link-local network/;
const DEADLINE_S = 2;

let tool: TestTool;
let lms: ServedPlatform;
let assignmentId: string;
/** A listener on 127.0.0.2 that counts connections: the address every attack aims at. */
let target: { server: Server; port: number; connections: number };
/** Requests the LMS's extra routes (the redirecting and oversized ones) received, by route. */
const hits = new Map<string, number>();
/** Bytes the oversized route wrote before the tool hung up. */
let bigBytesSent = 0;
const BIG_LIMIT = 50 * 1024 * 1024;

before(async () => {
  tool = await startTestTool({
    ASSET_PROCESSOR: 'on',
    PLATFORM_PRIVATE_NETWORKS: '127.0.0.1/32',
    SANDBOX_DELAY_MS: '300',
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '20',
    ASSET_DOWNLOAD_TIMEOUT_SECONDS: String(DEADLINE_S),
  });
  const server = createServer((socket) => {
    target.connections += 1;
    socket.destroy();
  });
  server.listen(0, '127.0.0.2');
  await once(server, 'listening');
  target = { server, port: (server.address() as { port: number }).port, connections: 0 };
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'ap-ssrf' });
  const count = (route: string) => hits.set(route, (hits.get(route) ?? 0) + 1);
  lms.app.get('/moved/:where', (req, res) => {
    count('moved');
    res.redirect(
      302,
      req.params.where === 'metadata'
        ? 'http://169.254.169.254/latest/meta-data/'
        : `http://127.0.0.2:${target.port}/essay.txt`,
    );
  });
  // No Content-Length: the size is known only by reading, up to 50 MB unless the reader hangs up.
  lms.app.get('/big', (_req, res) => {
    count('big');
    res.setHeader('content-type', 'text/plain');
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const write = () => {
      while (bigBytesSent < BIG_LIMIT && !res.destroyed) {
        bigBytesSent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', write);
      }
      res.end();
    };
    write();
  });
  // Headers at once, then one byte every 200 ms, for ever.
  lms.app.get('/trickle', (req, res) => {
    count('trickle');
    res.setHeader('content-type', 'text/plain');
    res.write(essay('trickle').slice(0, 100));
    const timer = setInterval(() => res.write('a'), 200);
    req.socket.on('close', () => clearInterval(timer));
  });
  assignmentId = await attachToActivity(tool, lms, ACTIVITY);
  const row = await tool.tool.database.db
    .selectFrom('assignment')
    .select('settings')
    .where('id', '=', assignmentId)
    .executeTakeFirstOrThrow();
  await tool.tool.database.db
    .updateTable('assignment')
    .set({ settings: JSON.stringify({ ...(row.settings as object), maxFileMb: 1 }) })
    .where('id', '=', assignmentId)
    .execute();
});
after(async () => {
  target.server.close();
  await lms.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;
const lmsRoot = () => new URL(lms.url).origin;

/** Sends one notice signed by the registered LMS for files at these addresses; gives their asset ids. */
async function announce(submissionId: string, urls: string[]): Promise<string[]> {
  const assets: NoticeAsset[] = urls.map((url, i) => ({
    asset_id: `${submissionId}-${i}`,
    url,
    title: 'essay.txt',
    filename: 'essay.txt',
    content_type: 'text/plain',
  }));
  const claims = lms.platform.submissionNotice({
    activityId: ACTIVITY.id,
    submissionId,
    userId: `student-${submissionId}`,
    assets,
  });
  const answer = await postNotices(tool, await lms.platform.sign(claims));
  assert.equal(answer.status, 200, await answer.text());
  return assets.map((asset) => asset.asset_id);
}

/** Waits until each asset is no longer waiting for its download; gives their error codes and comments, and what the tool told the LMS. */
async function outcome(assetIds: string[], timeoutMs = 90_000) {
  await eventually(
    async () =>
      (
        await db()
          .selectFrom('lms_asset')
          .select('id')
          .where('asset_id', 'in', assetIds)
          .where('state', '=', 'received')
          .execute()
      ).length === 0,
    'a download is still being tried',
    timeoutMs,
    250,
  );
  const rows = await db()
    .selectFrom('lms_asset')
    .select(['asset_id', 'state', 'error_code', 'error_comment', 'submission_id'])
    .where('asset_id', 'in', assetIds)
    .execute();
  // The tool's Failed report reaches the report service (which refuses it here: these files are not of an LMS
  // submission it knows, so nothing else can be told apart).
  // Its first report only said the file was in hand (Processing); the outcome is the last.
  await eventually(
    () => assetIds.every((id) => toldLms(id) !== undefined && toldLms(id)!.processingProgress !== 'Processing'),
    'the LMS was not told',
    30_000,
    250,
  );
  return assetIds.map((id) => ({ ...rows.find((row) => row.asset_id === id)!, told: toldLms(id)! }));
}

const toldLms = (assetId: string) =>
  lms.platform
    .assetReportLog()
    .map((entry) => entry.body as { assetId?: string; type?: string; processingProgress?: string; errorCode?: string })
    .filter((body) => body?.assetId === assetId && body.type === 'originality')
    .at(-1);

describe("asset downloads into the tool's own network", () => {
  test(
    'file addresses in loopback, link-local and private ranges are never connected to; each file ends DOWNLOAD_FAILED',
    { timeout: 120_000 },
    async () => {
      const urls = [
        `http://127.0.0.2:${target.port}/essay.txt`,
        `http://[::ffff:127.0.0.2]:${target.port}/essay.txt`,
        `http://2130706434:${target.port}/essay.txt`, // 127.0.0.2 written as one number
        'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
        'http://10.0.0.5/essay.txt',
        'http://192.168.1.1/essay.txt',
        'http://[fd00:ec2::254]/latest/meta-data/',
      ];
      const results = await outcome(await announce('private', urls));
      for (const [i, result] of results.entries()) {
        assert.equal(result.state, 'failed', urls[i]);
        assert.equal(result.error_code, 'DOWNLOAD_FAILED', urls[i]);
        assert.match(result.error_comment ?? '', FORBIDDEN, urls[i]);
        assert.equal(result.submission_id, null);
        assert.deepEqual([result.told.processingProgress, result.told.errorCode], ['Failed', 'DOWNLOAD_FAILED']);
      }
      assert.equal(target.connections, 0, 'the tool connected to the forbidden address');
    },
  );

  test(
    'a redirect from the LMS into loopback or the metadata service is not followed',
    { timeout: 120_000 },
    async () => {
      const results = await outcome(
        await announce('redirected', [`${lmsRoot()}/moved/loopback`, `${lmsRoot()}/moved/metadata`]),
      );
      assert.ok((hits.get('moved') ?? 0) >= 2, "the LMS's own address was not asked");
      for (const result of results) {
        assert.equal(result.error_code, 'DOWNLOAD_FAILED');
        assert.match(result.error_comment ?? '', FORBIDDEN);
        assert.equal(result.submission_id, null);
      }
      assert.equal(target.connections, 0, 'the tool followed the redirect to the forbidden address');
    },
  );
});

describe('asset downloads are bounded', () => {
  test(
    'an answer larger than the assignment takes, with no size declared, is cut off: ASSET_TOO_LARGE',
    { timeout: 60_000 },
    async () => {
      const [result] = await outcome(await announce('oversized', [`${lmsRoot()}/big`]));
      assert.equal(result!.error_code, 'ASSET_TOO_LARGE');
      assert.match(result!.error_comment ?? '', /larger than this assignment checks \(1 MB at most\)/);
      assert.equal(hits.get('big'), 1, 'a file too large is not tried again');
      await eventually(() => bigBytesSent > 0, 'nothing was sent');
      assert.ok(bigBytesSent < BIG_LIMIT, `the tool read all ${bigBytesSent} bytes instead of hanging up`);
      assert.equal(result!.submission_id, null);
    },
  );

  test(
    `an answer that never ends is cut at the download's deadline (${DEADLINE_S} s here) and the file ends DOWNLOAD_FAILED`,
    { timeout: 120_000 },
    async () => {
      const started = Date.now();
      const [result] = await outcome(await announce('trickling', [`${lmsRoot()}/trickle`]));
      const took = (Date.now() - started) / 1000;
      assert.equal(result!.error_code, 'DOWNLOAD_FAILED');
      assert.match(result!.error_comment ?? '', new RegExp(`did not finish its answer within ${DEADLINE_S} s`));
      assert.equal(hits.get('trickle'), 4, 'four tries');
      assert.ok(took >= 4 * DEADLINE_S && took < 100, `ended after ${took} s`);
    },
  );
});
