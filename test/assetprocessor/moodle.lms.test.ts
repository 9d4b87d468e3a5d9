// Moodle as an Asset Processor platform, through this repository's Moodle plugins: the notice plagiarism_olti signs
// (test/fixtures/lms/moodle/asset-processor-submission-notice.json, from moodle/plagiarism_olti's notice.php), files
// served and reports taken under the lti-ap scopes (moodle/ltiservice_olti), and the report review's login, which
// Moodle answers at plagiarism/olti/auth.php. The dev platform plays the plugins when told (dialect 'moodle'); the
// real Moodle's side is held in test/moodle/.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { defaultSettings } from '../../src/assignments/settings.js';
import { withStandardNames } from '../../src/lti/claims.js';
import { reportReviewClaims } from '../../src/lti/messages/report-review.js';
import { saveRegistration } from '../../src/lti/registrations.js';
import { QUICK_ASSET_PROCESSOR, postNotices } from '../support/asset-processor.js';
import { launch } from '../../src/devplatform/agent.js';
import { lmsFixture, shapeOf } from '../support/lms-fixtures.js';
import { paper } from '../support/papers.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const LTI_AP = 'https://purl.imsglobal.org/spec/lti-ap';
const notice = lmsFixture('moodle', 'asset-processor-submission-notice');
const review = lmsFixture('moodle', 'report-review-request') as ReturnType<typeof lmsFixture> & { loginHint: string };
const ACTIVITY = { id: '5a1d0c3e-7b2f-4c51-9e0a-d0c5e7a11001', title: 'Essay on rivers' };

let tool: TestTool;
let moodle: ServedPlatform;
let canvas: ServedPlatform;
before(async () => {
  tool = await startTestTool(QUICK_ASSET_PROCESSOR);
  moodle = await startTestPlatform(tool, {
    rules: 'moodle',
    dialect: 'moodle',
    clientId: 'moodle-olti',
    productFamily: 'moodle',
  });
  canvas = await startTestPlatform(tool, { rules: 'canvas', clientId: 'canvas-not-moodle' });
});
after(async () => {
  await Promise.all([moodle.close(), canvas.close()]);
  await tool.stop();
});

const db = () => tool.tool.database.db;
const noticeUrl = () => `${tool.url}/asset-processor/notices`;
const send = (...jwts: string[]) => postNotices(tool, ...jwts);
const processorsOf = (activityId: string) =>
  db()
    .selectFrom('assignment')
    .innerJoin('course', 'course.id', 'assignment.course_id')
    .select(['assignment.id', 'assignment.title', 'assignment.settings', 'assignment.settings_unreviewed'])
    .select(['course.context_id', 'course.title as course_title', 'assignment.platform_id'])
    .where('assignment.activity_id', '=', activityId)
    .where('assignment.kind', '=', 'asset-processor')
    .execute();

describe("Moodle's assignment through the plugins", () => {
  test("the dev platform playing Moodle sends the plugin's notice: the same claims and fields", () => {
    const ours = moodle.platform.submissionNotice({
      activityId: ACTIVITY.id,
      submissionId: '31-0',
      userId: '5',
      assets: [
        moodle.platform.storeAsset({ content: Buffer.from('%PDF-1.4 words'), filename: 'a.pdf', contentType: 'x' }),
      ],
    });
    // iat and exp are set as the notice is signed; the person's name and e-mail go unless the assignment marks blindly.
    const personal = ['name', 'given_name', 'family_name', 'email'].map((field) => `${LTI_CLAIM}/for_user.${field}`);
    const published = shapeOf(notice.payload).filter((path) => !['iat', 'exp', ...personal].includes(path));
    assert.deepEqual(
      published.filter((path) => !shapeOf(ours).includes(path)),
      [],
      "every claim and field of the plugin's notice is in the dev platform's",
    );
    assert.deepEqual(
      shapeOf(ours).filter((path) => !shapeOf(notice.payload).includes(path)),
      [`${LTI_CLAIM}/notice.id`, 'azp'].filter((path) => !shapeOf(notice.payload).includes(path)),
      'and nothing the plugin does not send but its azp',
    );
  });

  test('the first notices of an assignment attach the tool to it once, with its defaults, in the course they name', async () => {
    moodle.platform.switchOnCheck(ACTIVITY.id, noticeUrl());
    const students = ['student-1', 'student-2', 'student-3'];
    // A class submitting at once: every notice is for an assignment the tool has not seen yet.
    const sent = await Promise.all(
      students.map((userId) =>
        moodle.platform.submitToActivity({
          activityId: ACTIVITY.id,
          userId,
          files: [{ content: Buffer.from(paper(userId)), filename: `${userId}.txt`, contentType: 'text/plain' }],
        }),
      ),
    );
    for (const delivery of sent) assert.equal(delivery.status, 200, delivery.body);
    const processors = await processorsOf(ACTIVITY.id);
    assert.equal(processors.length, 1, 'one processor for the assignment');
    const [processor] = processors;
    const course = moodle.platform.course();
    assert.equal(processor!.title, ACTIVITY.title);
    assert.equal(processor!.context_id, course.id);
    assert.equal(processor!.course_title, course.title);
    assert.equal(processor!.settings_unreviewed, true, "the tool's defaults stand until an instructor saves settings");
    assert.deepEqual(processor!.settings, defaultSettings());

    // Each file is fetched from the Moodle service and its reports posted there: Processing, then Processed.
    const ids = sent.flatMap((delivery) => delivery.assets.map((asset) => asset.asset_id));
    await eventually(
      () =>
        ids.every((id) =>
          moodle.platform
            .assetReports()
            .some((r) => r.assetId === id && r.type === 'originality' && r.processingProgress === 'Processed'),
        ),
      'every file Processed',
      60_000,
      200,
    );
    const log = moodle.platform.assetReportLog();
    assert.ok(
      log.every((entry) => entry.status === 200),
      JSON.stringify(log.map((entry) => entry.status)),
    );
    const reports = moodle.platform.assetReports().filter((r) => ids.includes(r.assetId) && r.type === 'originality');
    for (const report of reports) assert.match(String(report.result), /^\d+(\.\d)?%$/);
    const scopes = moodle.platform.tokenExchanges().flatMap((exchange) => exchange.scopes);
    assert.ok(scopes.includes(`${LTI_AP}/scope/asset.readonly`), 'the asset scope by the lti-ap name');
    assert.ok(scopes.includes(`${LTI_AP}/scope/report`), 'the report scope by the lti-ap name');
    assert.ok(!scopes.some((scope) => scope.startsWith(`${LTI_CLAIM.replace('/claim', '')}/scope/asset`)));
  });

  test('the notice as the plugin signs it is taken, its scopes and report address kept as it names them', async () => {
    const { issuer, clientId, deploymentId } = moodle.platform.registration();
    const payload = structuredClone(notice.payload);
    const service = payload[`${LTI_CLAIM}/assetservice`] as { assets: Array<Record<string, unknown>> };
    const stored = moodle.platform.storeAsset({
      content: Buffer.from(paper('glaciers')),
      filename: 'glaciers.txt',
      contentType: 'text/plain',
    });
    service.assets[0] = { ...service.assets[0], ...stored };
    const now = Math.floor(Date.now() / 1000);
    const answer = await send(
      await moodle.platform.sign({
        ...payload,
        iss: issuer,
        aud: clientId,
        iat: now,
        exp: now + 300,
        nonce: randomUUID(),
        [`${LTI_CLAIM}/deployment_id`]: deploymentId,
      }),
    );
    assert.equal(answer.status, 200, await answer.text());
    const [kept] = await db().selectFrom('lms_asset').selectAll().where('asset_id', '=', stored.asset_id).execute();
    const processors = await processorsOf('42');
    assert.equal(processors.length, 1);
    assert.equal(processors[0]!.title, 'Essay on glaciers');
    assert.equal(processors[0]!.context_id, '4');
    assert.equal(kept!.assignment_id, processors[0]!.id);
    assert.equal(kept!.lms_submission_id, '31-0');
    assert.equal(kept!.lms_user_id, '5');
    assert.equal(kept!.read_scope, `${LTI_AP}/scope/asset.readonly`);
    assert.equal(kept!.report_scope, `${LTI_AP}/scope/report`);
    assert.equal(
      kept!.report_url,
      (payload[`${LTI_CLAIM}/assetreport`] as { report_url: string }).report_url,
      "the plugin's report address for the submission",
    );
  });

  test("a removed submission's notice names no files: the tool forgets that submission's files, and only them", async () => {
    const assets = await db()
      .selectFrom('lms_asset')
      .innerJoin('assignment', 'assignment.id', 'lms_asset.assignment_id')
      .select(['lms_asset.lms_submission_id', 'lms_asset.asset_id'])
      .where('assignment.activity_id', '=', ACTIVITY.id)
      .orderBy('lms_asset.lms_submission_id')
      .execute();
    assert.ok(assets.length >= 3);
    const removed = assets[0]!.lms_submission_id;
    const removal = (activityId: string, submissionId: string) =>
      moodle.platform.sign(
        moodle.platform.submissionNotice({ activityId, submissionId, userId: 'student-1', assets: [] }),
      );
    const answer = await send(await removal(ACTIVITY.id, removed));
    assert.equal(answer.status, 200, await answer.text());
    const left = await db()
      .selectFrom('lms_asset')
      .innerJoin('assignment', 'assignment.id', 'lms_asset.assignment_id')
      .select('lms_asset.lms_submission_id')
      .where('assignment.activity_id', '=', ACTIVITY.id)
      .execute();
    assert.deepEqual(
      left.map((row) => row.lms_submission_id).sort(),
      assets
        .filter((row) => row.lms_submission_id !== removed)
        .map((row) => row.lms_submission_id)
        .sort(),
    );
    // A removal the tool never had a file of (an assignment it never saw) is taken, and attaches nothing.
    const unknown = randomUUID();
    assert.equal((await send(await removal(unknown, '77-0'))).status, 200);
    assert.deepEqual(await processorsOf(unknown), []);
  });

  test('a teacher opening the check settings from the form of an assignment nobody submitted to yet attaches the tool', async () => {
    const activityId = `moodle-cm-${randomUUID()}`;
    const page = await launch(moodle.platform, {
      userId: 'instructor-1',
      assetProcessor: { messageType: 'LtiAssetProcessorSettingsRequest', activityId },
    });
    assert.equal(page.status, 200);
    const [processor] = await processorsOf(activityId);
    assert.ok(processor, 'a processor for the assignment');
    assert.match(page.url, new RegExp(`/assignments/${processor.id}/settings\\?ltik=`));
    assert.equal(processor.context_id, moodle.platform.course().id);
    // Its first notice then finds that processor, and makes no second one.
    moodle.platform.switchOnCheck(activityId, noticeUrl());
    const sent = await moodle.platform.submitToActivity({
      activityId,
      userId: 'student-1',
      files: [{ content: Buffer.from(paper('settings first')), filename: 'a.txt', contentType: 'text/plain' }],
    });
    assert.equal(sent.status, 200, sent.body);
    assert.deepEqual(
      (await processorsOf(activityId)).map((row) => row.id),
      [processor.id],
    );
    // Canvas's settings launch for an assignment the tool was never attached to is still refused.
    const canvasPage = await launch(canvas.platform, {
      userId: 'instructor-1',
      assetProcessor: { messageType: 'LtiAssetProcessorSettingsRequest', activityId: `canvas-${activityId}` },
    });
    assert.equal(canvasPage.status, 404);
    assert.deepEqual(await processorsOf(`canvas-${activityId}`), []);
  });

  test('a notice of another LMS for an assignment the tool was never attached to still makes nothing', async () => {
    const activityId = randomUUID();
    const jwt = await canvas.platform.sign(
      canvas.platform.submissionNotice({
        activityId,
        submissionId: 'sub-1:1',
        userId: 'student-1',
        assets: [canvas.platform.storeAsset({ content: Buffer.from(paper('x')), filename: 'x.txt', contentType: 't' })],
      }),
    );
    const answer = await send(jwt);
    assert.equal(answer.status, 404);
    assert.match(((await answer.json()) as { error: string }).error, /not attached to this assignment/);
    assert.deepEqual(await processorsOf(activityId), []);
  });
});

describe("Moodle's report review logs in at the plugin's authorization endpoint", () => {
  const MOODLE = 'https://moodle.example.edu';
  before(async () => {
    await saveRegistration(
      { db: db(), provider: tool.tool.platforms },
      {
        name: 'A Moodle',
        issuer: MOODLE,
        clientId: 'moodle-client-id',
        deploymentId: '2',
        authUrl: `${MOODLE}/mod/lti/auth.php`,
        tokenUrl: `${MOODLE}/mod/lti/token.php`,
        jwksUrl: `${MOODLE}/mod/lti/certs.php`,
        productFamily: 'moodle',
      },
      'cli',
    );
  });
  const login = (hint: string | undefined, issuer = MOODLE, clientId = 'moodle-client-id') =>
    fetch(
      `${tool.url}/lti/login?${new URLSearchParams({
        iss: issuer,
        login_hint: '3',
        target_link_uri: `${tool.url}/lti/launch`,
        client_id: clientId,
        lti_deployment_id: '2',
        ...(hint !== undefined ? { lti_message_hint: hint } : {}),
      })}`,
      { redirect: 'manual' },
    );

  test("'View report' (its hint says so) goes to plagiarism/olti/auth.php, every other launch to mod/lti/auth.php", async () => {
    const report = await login(review.loginHint);
    assert.equal(report.status, 302);
    const location = new URL(report.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, `${MOODLE}/plagiarism/olti/auth.php`);
    assert.equal(location.searchParams.get('lti_message_hint'), review.loginHint);
    assert.equal(location.searchParams.get('client_id'), 'moodle-client-id');
    assert.equal(location.searchParams.get('redirect_uri'), `${tool.url}/lti/launch`);
    assert.equal(location.searchParams.get('response_mode'), 'form_post');

    const settings = await login('{"launchid":"plagiarism_olti_x","olti":"settings"}');
    const toSettings = new URL(settings.headers.get('location')!);
    assert.equal(
      `${toSettings.origin}${toSettings.pathname}`,
      `${MOODLE}/plagiarism/olti/auth.php`,
      'the settings too',
    );
    for (const hint of [undefined, '{"launchid":"ltilaunch1_1"}', '{"olti":"grades"}', 'not json']) {
      const other = await login(hint);
      assert.equal(other.status, 302);
      const to = new URL(other.headers.get('location')!);
      assert.equal(`${to.origin}${to.pathname}`, `${MOODLE}/mod/lti/auth.php`, String(hint));
    }
  });

  test("a platform whose authorization endpoint is not Moodle's keeps its own, whatever the hint", async () => {
    const { issuer, clientId, authUrl } = canvas.platform.registration();
    const answer = await login(review.loginHint, issuer, clientId);
    assert.equal(answer.status, 302);
    const to = new URL(answer.headers.get('location')!);
    assert.equal(`${to.origin}${to.pathname}`, authUrl);
  });

  test("the plugin's report review is read by the tool's reader of the message: the notice's asset and type", () => {
    const read = reportReviewClaims.parse(withStandardNames(review.payload));
    const announced = notice.payload[`${LTI_CLAIM}/assetservice`] as { assets: Array<{ asset_id: string }> };
    assert.deepEqual(read, {
      type: 'LtiReportReviewRequest',
      activityId: (notice.payload[`${LTI_CLAIM}/activity`] as { id: string }).id,
      lmsSubmissionId: (notice.payload[`${LTI_CLAIM}/submission`] as { id: string }).id,
      assetId: announced.assets[0]!.asset_id,
      reportType: 'originality',
    });
  });
});
