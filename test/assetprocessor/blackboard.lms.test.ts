// Blackboard Learn Ultra's Asset Processor held to what Blackboard published: a real LtiAssetProcessorSubmissionNotice
// Ultra delivered on 2026-07-31 (blackboard/BBDN-LTI-Tool-Provider-Node docs/pns.md) and the report its reference
// tool posts (server/src/app/processor.js), kept in test/fixtures/lms/blackboard/ with their source. Blackboard names
// the activity and submission under lti-aip, the assets under lti-ap with an MD5 in base64, sends no report address
// in the notice, and asks for the lti-ap scopes: the dev platform speaks so when told, and the tool takes it.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { readChecksum } from '../../src/assetprocessor/checksum.js';
import { reportUrl } from '../../src/devplatform/asset-reports.js';
import { QUICK_ASSET_PROCESSOR, attachToActivity, postNotices } from '../support/asset-processor.js';
import { lmsFixture, shapeOf } from '../support/lms-fixtures.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';
import { essay as essayOf } from '../support/papers.js';

const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const LTI_AP = 'https://purl.imsglobal.org/spec/lti-ap';
const LTI_AIP_CLAIM = 'https://purl.imsglobal.org/spec/lti-aip/claim';
const notice = lmsFixture('blackboard', 'submission-notice');
const report = lmsFixture('blackboard', 'asset-report');
const publishedActivity = (notice.payload[`${LTI_AIP_CLAIM}/activity`] as { activity_id: string }).activity_id;
const publishedContext = notice.payload[`${LTI_CLAIM}/context`] as { id: string; label: string; title: string };
const publishedAsset = (notice.payload[`${LTI_AP}/claim/assetservice`] as { assets: Array<Record<string, unknown>> })
  .assets[0]!;

let tool: TestTool;
let lms: ServedPlatform;
let assignmentId: string;

before(async () => {
  tool = await startTestTool(QUICK_ASSET_PROCESSOR);
  lms = await startTestPlatform(tool, {
    rules: 'spec',
    dialect: 'blackboard',
    clientId: 'lms-blackboard',
    course: publishedContext,
  });
  assignmentId = await attachToActivity(tool, lms, { id: publishedActivity, title: 'Essay on coastlines' });
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;
const essay = (topic: string) =>
  essayOf(topic, {
    heading: `${topic}\n`,
    sentence: (i) => `Sentence ${i} on ${topic} weighs a different source, number ${i * 13}.`,
  });
const send = (jwt: string) => postNotices(tool, jwt);

describe('Blackboard Learn Ultra, as published (BBDN-LTI-Tool-Provider-Node docs/pns.md)', () => {
  test('the published checksum is base64 of 16 bytes, an MD5, and the tool reads it so', () => {
    const published = String(publishedAsset.checksum);
    assert.deepEqual(readChecksum({ other: published }), {
      algorithm: 'md5',
      hex: Buffer.from(published, 'base64').toString('hex'),
    });
    assert.equal(
      readChecksum({ other: published, algorithm: 'SHA-256' }),
      null,
      'an algorithm that contradicts the length is not trusted',
    );
  });

  test('the dev platform sends the published notice: the same claims and fields, no report address', async () => {
    const ours = lms.platform.submissionNotice({
      activityId: publishedActivity,
      submissionId: '_907_1',
      userId: 'student-1',
      assets: [lms.platform.storeAsset({ content: Buffer.from('<p>Words.</p>'), contentType: 'text/html' })],
    });
    // iat and exp are set as the notice is signed; the EULA's time only where a student accepted terms.
    const published = shapeOf(notice.payload).filter(
      (path) => !['iat', 'exp', `${LTI_CLAIM}/for_user.eula_accepted_at`].includes(path),
    );
    assert.deepEqual(
      published.filter((path) => !shapeOf(ours).includes(path)),
      [],
      "every published claim and field is in the dev platform's notice",
    );
    assert.equal(
      Object.keys(ours).some((claim) => claim.endsWith('/assetreport')),
      false,
    );
    const asset = (ours[`${LTI_AP}/claim/assetservice`] as { assets: Array<Record<string, unknown>> }).assets[0]!;
    assert.match(String(asset.checksum), /^[A-Za-z0-9+/]{22}==$/, 'base64 of 16 bytes, as published');
    assert.equal(asset.filename, 'Submission_Text.html', 'a text entry arrives as a file of that name');
  });

  test('the report address comes from the attach launch, since the notice carries none', async () => {
    const row = await db()
      .selectFrom('assignment')
      .select(['lms_report_url', 'lms_report_scope'])
      .where('id', '=', assignmentId)
      .executeTakeFirstOrThrow();
    assert.equal(row.lms_report_url, reportUrl({ baseUrl: lms.url } as never, publishedActivity));
    assert.equal(row.lms_report_scope, `${LTI_AP}/scope/report`);
  });

  test('the published notice is taken: kept once with its MD5, even when Ultra sends it again with a new nonce', async () => {
    const { issuer, clientId, deploymentId } = lms.platform.registration();
    const signed = async () => {
      const payload = structuredClone(notice.payload);
      const assets = (payload[`${LTI_AP}/claim/assetservice`] as { assets: Array<Record<string, unknown>> }).assets;
      // The published host is a placeholder: the file is fetched from this platform instead.
      assets[0]!.url = String(assets[0]!.url).replace('https://platform.example.com', lms.url);
      const now = Math.floor(Date.now() / 1000);
      return lms.platform.sign({
        ...payload,
        iss: issuer,
        aud: clientId,
        iat: now,
        exp: now + 300,
        nonce: randomUUID(),
        [`${LTI_CLAIM}/deployment_id`]: deploymentId,
      });
    };
    for (let delivery = 0; delivery < 2; delivery++) {
      const answer = await send(await signed());
      assert.equal(answer.status, 200, await answer.text());
    }
    const kept = await db()
      .selectFrom('lms_asset')
      .selectAll()
      .where('asset_id', '=', String(publishedAsset.asset_id))
      .execute();
    assert.equal(kept.length, 1, 'kept once');
    assert.equal(kept[0]!.assignment_id, assignmentId);
    assert.equal(kept[0]!.lms_submission_id, '_907_1');
    assert.equal(kept[0]!.checksum, `md5:${Buffer.from(String(publishedAsset.checksum), 'base64').toString('hex')}`);
    assert.equal(kept[0]!.report_url, null);
    assert.equal(kept[0]!.read_scope, `${LTI_AP}/scope/asset.readonly`);
  });

  test('a submission of two files and a text entry: Processing, then Processed for each, with the fields Blackboard reads', async () => {
    const sent = await lms.platform.submitToActivity({
      activityId: publishedActivity,
      userId: 'student-2',
      files: [
        { content: Buffer.from(essay('dunes')), filename: 'dunes.txt', contentType: 'text/plain' },
        { content: Buffer.from(essay('spits and bars')), filename: 'spits.txt', contentType: 'text/plain' },
      ],
      text: `<p>${essay('tides')}</p>`,
    });
    assert.equal(sent.status, 200, sent.body);
    for (const asset of sent.assets)
      assert.equal(
        asset.checksum,
        createHash('md5').update(lms.platform.assetContent(asset.asset_id)!).digest('base64'),
      );
    const ids = sent.assets.map((asset) => asset.asset_id);
    await eventually(
      () =>
        ids.every((id) =>
          lms.platform
            .assetReports()
            .some(
              (posted) =>
                posted.assetId === id && posted.type === 'originality' && posted.processingProgress === 'Processed',
            ),
        ),
      'every file Processed',
      60_000,
      200,
    );
    const log = lms.platform
      .assetReportLog()
      .map(
        (entry) => ({ status: entry.status, ...(entry.body as Record<string, unknown>) }) as Record<string, unknown>,
      );
    const publishedFields = Object.keys(report.payload).filter((field) => field !== 'resourceLinkId');
    for (const id of ids) {
      const mine = log.filter((entry) => entry.assetId === id && entry.type === 'originality');
      assert.equal(mine[0]?.processingProgress, 'Processing');
      assert.ok(
        mine.every((entry) => entry.status === 201),
        JSON.stringify(mine),
      );
      const processed = mine.at(-1)!;
      assert.deepEqual(
        publishedFields.filter((field) => !(field in processed)),
        [],
        "the fields Blackboard's own tool posts",
      );
      assert.equal(processed.scoreMaximum, 100);
      assert.equal(`${processed.scoreGiven}%`, processed.result);
    }
    const exchanges = lms.platform.tokenExchanges().flatMap((exchange) => exchange.scopes);
    assert.ok(
      exchanges.includes(`${LTI_AP}/scope/asset.readonly`) && exchanges.includes(`${LTI_AP}/scope/report`),
      "the tool asked for the scopes by Blackboard's names",
    );
    const papers = await db()
      .selectFrom('submission')
      .select(['file_type', 'file_label'])
      .where('assignment_id', '=', assignmentId)
      .execute();
    assert.ok(
      papers.some((paper) => paper.file_type === 'txt' && /Submission_Text/.test(paper.file_label)),
      'the text entry is checked as its words',
    );
  });
});
