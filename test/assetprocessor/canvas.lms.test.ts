// Canvas's Document Processor (its name for the Asset Processor) held to what Canvas documents, not to the tool's
// guesses: the payloads of canvas-lms doc/api/document_processor.md, kept in test/fixtures/lms/canvas/ with their
// source. The dev platform must speak as they do, and the tool must take them: the documented notice (a base64
// SHA-256) is read and its file checked against it, and a Canvas submission comes back Processing, then Processed.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { readChecksum } from '../../src/assetprocessor/checksum.js';
import { launch } from '../../src/devplatform/agent.js';
import { QUICK_ASSET_PROCESSOR, attachToActivity, postNotices } from '../support/asset-processor.js';
import { lmsFixture, shapeOf } from '../support/lms-fixtures.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';
import { essay as essayOf } from '../support/papers.js';

const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const notice = lmsFixture('canvas', 'submission-notice');
const deepLinking = lmsFixture('canvas', 'deep-linking-request');
const settingsRequest = lmsFixture('canvas', 'settings-request');
const reportReview = lmsFixture('canvas', 'report-review-request');
const documentedActivity = (notice.payload[`${LTI_CLAIM}/activity`] as { id: string }).id;
const documentedAsset = (notice.payload[`${LTI_CLAIM}/assetservice`] as { assets: Array<Record<string, unknown>> })
  .assets[0]!;

let tool: TestTool;
let lms: ServedPlatform;
let assignmentId: string;

before(async () => {
  tool = await startTestTool(QUICK_ASSET_PROCESSOR);
  lms = await startTestPlatform(tool, { rules: 'canvas', dialect: 'canvas', clientId: 'lms-canvas' });
  assignmentId = await attachToActivity(tool, lms, { id: documentedActivity, title: 'Essay on rivers' });
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;
const essay = (topic: string) =>
  essayOf(topic, {
    heading: `${topic}\n`,
    sentence: (i) => `Sentence ${i} on ${topic} weighs a different source, number ${i * 11}.`,
  });
const send = (jwt: string) => postNotices(tool, jwt);

/**
 * The documented launch's own claims in place of the dev platform's, in an id_token it issued for this login (its
 * issuer, audience, nonce, user and context stay): what the tool then receives is the documented message.
 */
const documented = (fixture: Record<string, unknown>) => async (idToken: string) => {
  const own = Object.fromEntries(Object.entries(fixture).filter(([claim]) => claim !== `${LTI_CLAIM}/context`));
  const { iat: _iat, exp: _exp, ...issued } = decodeJwt(idToken);
  return lms.platform.sign({ ...issued, ...own });
};

/** The documented payload as this Canvas would sign it: its issuer, client and deployment, and fresh times. */
function asCanvasSigns(payload: Record<string, unknown>): Record<string, unknown> {
  const { issuer, clientId, deploymentId } = lms.platform.registration();
  const now = Math.floor(Date.now() / 1000);
  return {
    ...payload,
    iss: issuer,
    aud: clientId,
    azp: clientId,
    iat: now,
    exp: now + 300,
    nonce: randomUUID(),
    [`${LTI_CLAIM}/deployment_id`]: deploymentId,
  };
}

describe('Canvas, as documented (doc/api/document_processor.md)', () => {
  test('the documented checksum is base64 of a SHA-256, and the tool reads it so', () => {
    const documented = String(documentedAsset.sha256_checksum);
    assert.deepEqual(readChecksum({ sha256: documented }), {
      algorithm: 'sha256',
      hex: Buffer.from(documented, 'base64').toString('hex'),
    });
  });

  test('the dev platform sends the documented notice: the same claims, asset fields and checksum form', async () => {
    const submitted = await lms.platform.submitToActivity({
      activityId: documentedActivity,
      userId: 'student-3',
      text: '<p>A text entry.</p>',
    });
    const ours = lms.platform.submissionNotice({
      activityId: documentedActivity,
      submissionId: submitted.submissionId,
      userId: 'student-3',
      assets: submitted.assets,
      custom: {},
    });
    const missing = shapeOf(notice.payload).filter((path) => !shapeOf(ours).includes(path));
    assert.deepEqual(missing, [], "every documented claim and field is in the dev platform's notice");
    const asset = (ours[`${LTI_CLAIM}/assetservice`] as { assets: Array<Record<string, unknown>> }).assets[0]!;
    assert.match(String(asset.sha256_checksum), /^[A-Za-z0-9+/]{43}=$/, 'base64 of 32 bytes, as documented');
    assert.equal(asset.filename, undefined, 'a text entry has no file name');
  });

  test('the documented "Add Document Processing App" launch opens the attach page, which names the assignment it attaches to', async () => {
    const activity = deepLinking.payload[`${LTI_CLAIM}/activity`] as { id: string };
    const page = await launch(lms.platform, {
      userId: 'instructor-1',
      messageType: 'LtiDeepLinkingRequest',
      activity: { id: activity.id, title: 'Essay on deltas' },
      replaceIdToken: async (idToken) => {
        const replaced = await documented(deepLinking.payload)(idToken);
        // Where the answer goes back: this platform's return address, as the documented one is a placeholder.
        const { iat: _iat, exp: _exp, ...claims } = decodeJwt(replaced);
        const settings = claims['https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings'] as Record<
          string,
          unknown
        >;
        const issued = decodeJwt(idToken)[
          'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings'
        ] as Record<string, unknown>;
        return lms.platform.sign({
          ...claims,
          'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
            ...settings,
            deep_link_return_url: issued.deep_link_return_url,
            data: issued.data,
          },
        });
      },
    });
    assert.equal(page.status, 200, page.body);
    assert.match(page.body, /Attach the check/);
  });

  test("the documented settings request opens the processor's check settings", async () => {
    const activity = settingsRequest.payload[`${LTI_CLAIM}/activity`] as { id: string; title: string };
    const processor = await attachToActivity(tool, lms, { id: activity.id, title: activity.title });
    const page = await launch(lms.platform, {
      userId: 'instructor-1',
      assetProcessor: { messageType: 'LtiAssetProcessorSettingsRequest', activityId: activity.id },
      replaceIdToken: documented(settingsRequest.payload),
    });
    assert.equal(page.status, 200, page.body);
    assert.match(page.url, new RegExp(`/assignments/${processor}/settings\\?ltik=`));
  });

  test('the documented "View report" launch opens the AI report of the file it names', async () => {
    const claim = (name: string) => reportReview.payload[`${LTI_CLAIM}/${name}`] as { id: string; title?: string };
    const activity = claim('activity');
    await attachToActivity(tool, lms, { id: activity.id, title: activity.title ?? 'Assignment2' });
    // The file the documented launch names, sent earlier by a notice and checked.
    const stored = lms.platform.storeAsset({
      content: Buffer.from(essay('canals')),
      filename: 'canals.txt',
      contentType: 'text/plain',
    });
    const asset = { ...stored, asset_id: claim('asset').id, url: stored.url };
    const jwt = await lms.platform.sign(
      lms.platform.submissionNotice({
        activityId: activity.id,
        submissionId: claim('submission').id,
        userId: 'student-3',
        assets: [asset],
      }),
    );
    assert.equal((await send(jwt)).status, 200);
    await eventually(
      async () =>
        (
          await db()
            .selectFrom('submission as s')
            .innerJoin('lms_asset as x', 'x.submission_id', 's.id')
            .select('s.state')
            .where('x.asset_id', '=', asset.asset_id)
            .executeTakeFirst()
        )?.state === 'scored',
      'the file scored',
      60_000,
      200,
    );
    const page = await launch(lms.platform, {
      userId: 'instructor-1',
      assetProcessor: {
        messageType: 'LtiReportReviewRequest',
        activityId: activity.id,
        submissionId: claim('submission').id,
        assetId: asset.asset_id,
        reportType: 'ai',
        forUserId: 'student-3',
      },
      replaceIdToken: documented(reportReview.payload),
    });
    assert.equal(page.status, 200, page.body);
    assert.match(page.url, /\/reports\/[0-9a-f-]{36}\/ai\/view\?ltik=/, 'the report type the launch names, "ai"');
  });

  test('the documented notice is kept with what it declared, and a file that does not match its checksum is refused', async () => {
    // The documented asset is 29 bytes of HTML whose content the page does not give: these 29 bytes are other ones.
    const served = Buffer.from('<p>Not the documented text</p>'.slice(0, 29));
    assert.equal(served.length, documentedAsset.size);
    lms.app.get('/documented-asset', (_req, res) => void res.type('text/html').send(served));
    const payload = structuredClone(notice.payload);
    const service = payload[`${LTI_CLAIM}/assetservice`] as { assets: Array<Record<string, unknown>> };
    service.assets[0]!.url = `${lms.url.replace(/\/lms$/, '')}/documented-asset`;
    const answer = await send(await lms.platform.sign(asCanvasSigns(payload)));
    assert.equal(answer.status, 200, await answer.text());
    const kept = await db()
      .selectFrom('lms_asset')
      .selectAll()
      .where('asset_id', '=', String(documentedAsset.asset_id))
      .executeTakeFirstOrThrow();
    assert.equal(kept.assignment_id, assignmentId);
    assert.equal(kept.lms_submission_id, 'd6446aaf-3f71-4eea-b2fd-20bd8d151506:1');
    assert.equal(kept.lms_user_id, '972fd8aa-7f57-4d11-9400-916a0ed0d31d');
    assert.equal(
      kept.checksum,
      `sha256:${Buffer.from(String(documentedAsset.sha256_checksum), 'base64').toString('hex')}`,
    );
    assert.equal(kept.report_url, 'http://host/api/lti/asset_processors/83/reports');
    await eventually(
      async () =>
        (await db().selectFrom('lms_asset').select('state').where('id', '=', kept.id).executeTakeFirstOrThrow())
          .state === 'failed',
      'the mismatching file refused',
      30_000,
    );
    const failed = await db()
      .selectFrom('lms_asset')
      .select(['error_code', 'error_comment'])
      .where('id', '=', kept.id)
      .executeTakeFirstOrThrow();
    assert.equal(failed.error_code, 'DOWNLOAD_FAILED');
    assert.match(failed.error_comment ?? '', /does not match the SHA-256 checksum/);
  });

  test('a Canvas submission of two files and a text entry: Processing as soon as the notice is kept, then Processed for each', async () => {
    tool.tool.sandbox!.setFaults({ uploadHoldMs: 3_000 });
    try {
      const sent = await lms.platform.submitToActivity({
        activityId: documentedActivity,
        userId: 'student-2',
        files: [
          { content: Buffer.from(essay('meanders')), filename: 'meanders.txt', contentType: 'text/plain' },
          { content: Buffer.from(essay('oxbow lakes')), filename: 'oxbow.txt', contentType: 'text/plain' },
        ],
        text: `<p>${essay('levees')}</p>`,
      });
      assert.equal(sent.status, 200, sent.body);
      const ids = sent.assets.map((asset) => asset.asset_id);
      for (const asset of sent.assets)
        assert.equal(
          asset.sha256_checksum,
          createHash('sha256').update(lms.platform.assetContent(asset.asset_id)!).digest('base64'),
        );
      await eventually(
        () =>
          ids.every((id) =>
            lms.platform
              .assetReports()
              .some((report) => report.assetId === id && report.processingProgress === 'Processed'),
          ),
        'every file Processed',
        60_000,
        200,
      );
      const log = lms.platform.assetReportLog().map((entry) => ({
        status: entry.status,
        ...(entry.body as { assetId: string; type: string; processingProgress: string }),
      }));
      for (const id of ids) {
        const mine = log.filter((entry) => entry.assetId === id && entry.type === 'originality');
        assert.equal(mine[0]?.processingProgress, 'Processing', 'the first report says the file is in hand');
        assert.ok(
          mine.every((entry) => entry.status === 201),
          JSON.stringify(mine),
        );
      }
      const states = await db()
        .selectFrom('lms_asset')
        .select(['state', 'error_comment'])
        .where('lms_submission_id', '=', sent.submissionId)
        .execute();
      assert.deepEqual(
        states.map((row) => row.state),
        ['admitted', 'admitted', 'admitted'],
        JSON.stringify(states),
      );
    } finally {
      tool.tool.sandbox!.setFaults({});
    }
  });
});
