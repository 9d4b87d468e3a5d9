// The LMS's submission notices at the tool's notice handler, signed by a dev platform as Canvas signs them: a
// verified notice is kept before the answer, the same file announced again is kept once, and a notice the tool
// cannot trust (bad signature, unknown key, wrong audience, unknown deployment, expired, wrong type) is refused
// with nothing kept, even beside a good one in the same request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT, generateKeyPair } from 'jose';
import type { NoticeAsset } from '../../src/devplatform/notices.js';
import { attachToActivity, postNotices } from '../support/asset-processor.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const ACTIVITY = { id: 'a7c0e1f2-0000-4000-8000-000000000017', title: 'Essay on glaciers' };

let tool: TestTool;
let lms: TestPlatform;
let assignmentId: string;

before(async () => {
  tool = await startTestTool({ ASSET_PROCESSOR: 'on' });
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'ap-notices' });
  assignmentId = await attachToActivity(tool, lms, ACTIVITY);
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const asset = (id: string): NoticeAsset => ({
  asset_id: id,
  url: `${lms.platform.registration().issuer}/assets/${id}`,
  sha256_checksum: 'a'.repeat(64),
  size: 1234,
  content_type: 'application/pdf',
  title: `${id}.pdf`,
  filename: `${id}.pdf`,
});

const claims = (submissionId: string, assets: NoticeAsset[], noticeId?: string) =>
  lms.platform.submissionNotice({
    activityId: ACTIVITY.id,
    submissionId,
    userId: 'student-1',
    assets,
    ...(noticeId ? { noticeId } : {}),
  });

const send = (...jwts: string[]) => postNotices(tool, ...jwts);

const kept = () =>
  tool.tool.database.db.selectFrom('lms_asset').selectAll().orderBy('received_at').orderBy('asset_id').execute();
/** What a notice decides of each kept asset (its fetch job moves the rest on meanwhile). */
const keptAsAnnounced = async () =>
  (await kept()).map(({ id, asset_id, lms_submission_id, lms_user_id, notice_id, url, report_url, checksum }) => ({
    id,
    asset_id,
    lms_submission_id,
    lms_user_id,
    notice_id,
    url,
    report_url,
    checksum,
  }));

describe('the notice handler', () => {
  test('a verified notice: its assets are kept, with what the LMS declared, before the answer', async () => {
    const answer = await send(
      await lms.platform.sign(claims('sub-1:1', [asset('asset-1'), asset('asset-2')], 'notice-1')),
    );
    assert.equal(answer.status, 200, await answer.text());
    const rows = await kept();
    assert.deepEqual(
      rows.map((row) => [row.asset_id, row.lms_submission_id, row.lms_user_id, row.assignment_id, row.state]),
      [
        ['asset-1', 'sub-1:1', 'student-1', assignmentId, 'received'],
        ['asset-2', 'sub-1:1', 'student-1', assignmentId, 'received'],
      ],
    );
    assert.equal(rows[0]!.checksum, `sha256:${'a'.repeat(64)}`);
    assert.equal(Number(rows[0]!.size), 1234);
    assert.equal(rows[0]!.filename, 'asset-1.pdf');
    assert.match(rows[0]!.report_url ?? '', /\/asset-reports\//);
  });

  test('the same notice again, or the same submission and asset in a new notice, keeps nothing twice; a new attempt is new', async () => {
    const before = (await kept()).length;
    const again = await send(
      await lms.platform.sign(claims('sub-1:1', [asset('asset-1'), asset('asset-2')], 'notice-1')),
    );
    assert.equal(again.status, 200);
    const resent = await send(await lms.platform.sign(claims('sub-1:1', [asset('asset-2')])));
    assert.equal(resent.status, 200);
    assert.equal((await kept()).length, before);
    const attempt = await send(await lms.platform.sign(claims('sub-1:2', [asset('asset-3')])));
    assert.equal(attempt.status, 200);
    assert.deepEqual(
      (await kept()).slice(before).map((row) => [row.lms_submission_id, row.asset_id]),
      [['sub-1:2', 'asset-3']],
    );
  });

  test('the same file in two notices of one request is kept once', async () => {
    const before = (await kept()).length;
    const twice = await send(
      await lms.platform.sign(claims('sub-2:1', [asset('asset-4')])),
      await lms.platform.sign(claims('sub-2:1', [asset('asset-4')])),
    );
    assert.equal(twice.status, 200, await twice.text());
    assert.deepEqual(
      (await kept()).slice(before).map((row) => [row.lms_submission_id, row.asset_id]),
      [['sub-2:1', 'asset-4']],
    );
  });

  const forged: Array<[string, number, RegExp, () => Promise<string>]> = [
    [
      'a notice with a bad signature',
      401,
      /could not be verified/,
      async () => {
        const jwt = await lms.platform.sign(claims('sub-bad:1', [asset('bad-sig')]));
        const [head, body, signature] = jwt.split('.');
        return `${head}.${body}.${signature!.slice(0, -6)}${signature!.slice(-6) === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA'}`;
      },
    ],
    [
      'a notice signed with a key the LMS does not publish',
      401,
      /could not be verified/,
      async () => {
        const { privateKey } = await generateKeyPair('RS256');
        return new SignJWT(claims('sub-bad:1', [asset('unknown-key')]))
          .setProtectedHeader({ alg: 'RS256', kid: 'not-the-platforms' })
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey);
      },
    ],
    [
      'a notice for another tool (wrong audience)',
      403,
      /not registered/,
      () =>
        lms.platform.sign({ ...claims('sub-bad:1', [asset('wrong-aud')]), aud: 'another-tool', azp: 'another-tool' }),
    ],
    [
      'a notice from an unknown deployment',
      403,
      /not registered/,
      () =>
        lms.platform.sign({
          ...claims('sub-bad:1', [asset('unknown-deployment')]),
          [`${LTI_CLAIM}/deployment_id`]: 'no-such-deployment',
        }),
    ],
    [
      'an expired notice',
      401,
      /could not be verified/,
      () => lms.platform.sign(claims('sub-bad:1', [asset('expired')]), { expiresInSeconds: -60 }),
    ],
    [
      'a notice of another type',
      422,
      /does not take notices of type LtiHelloWorldNotice/,
      () =>
        lms.platform.sign({
          ...claims('sub-bad:1', [asset('hello')]),
          [`${LTI_CLAIM}/notice`]: { id: 'hello-1', timestamp: new Date().toISOString(), type: 'LtiHelloWorldNotice' },
        }),
    ],
  ];
  for (const [what, status, sentence, make] of forged) {
    test(`${what} is refused (${status}) and nothing is kept, not even a good notice beside it`, async () => {
      const before = await keptAsAnnounced();
      const alone = await send(await make());
      assert.equal(alone.status, status);
      assert.match(((await alone.json()) as { error: string }).error, sentence);
      const beside = await send(await lms.platform.sign(claims('sub-good:1', [asset('good-beside')])), await make());
      assert.equal(beside.status, status);
      assert.deepEqual(await keptAsAnnounced(), before);
    });
  }

  test('a notice for an assignment the tool is not attached to is refused; a body that is not notices gets a sentence', async () => {
    const before = await keptAsAnnounced();
    const stranger = await send(
      await lms.platform.sign(
        lms.platform.submissionNotice({
          activityId: 'not-attached',
          submissionId: 's:1',
          userId: 'student-1',
          assets: [asset('x')],
        }),
      ),
    );
    assert.equal(stranger.status, 404);
    assert.match(((await stranger.json()) as { error: string }).error, /not attached to this assignment/);
    const empty = await fetch(`${tool.url}/asset-processor/notices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"notices":[]}',
    });
    assert.equal(empty.status, 400);
    const broken = await fetch(`${tool.url}/asset-processor/notices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"notices":',
    });
    assert.equal(broken.status, 400);
    assert.match(((await broken.json()) as { error: string }).error, /not valid JSON/);
    assert.deepEqual(await keptAsAnnounced(), before);
  });
});
