// The Asset Processor from a student's submission in the LMS to the reports beside it, over HTTP: the dev platform
// stands in for Canvas (its Asset Service and Asset Report Service validate as Canvas's do), the sandbox for the
// checking service. Two files and a text entry come back Processed with the band's colour, alt text and percent;
// a notice sent again uploads nothing twice; a file too large, of the wrong type, or that cannot be downloaded ends
// Failed with the specification's error code; "Resubmit all files" after a failed download checks it again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sweepForgottenAssets } from '../../src/assetprocessor/sweep.js';
import { BAND_COLOUR } from '../../src/assignments/settings.js';
import { ROLES } from '../../src/devplatform/index.js';
import { attachToActivity, postNotices } from '../support/asset-processor.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { essay as essayOf } from '../support/papers.js';

let tool: TestTool;
let lms: TestPlatform;
let assignmentId: string;
/** The first test's LMS submission, sent again in the second. */
let first: Awaited<ReturnType<TestPlatform['platform']['submitToActivity']>>;
const ACTIVITY = { id: 'b1d2e3f4-0000-4000-8000-000000000042', title: 'Essay on rivers' };

const essay = (topic: string) =>
  essayOf(topic, {
    heading: `${topic}\n`,
    sentence: (i) => `Sentence ${i} about ${topic} explores a different angle with evidence number ${i * 7}.`,
  });
const txt = (name: string, topic: string) => ({
  content: Buffer.from(essay(topic)),
  filename: name,
  contentType: 'text/plain',
});

before(async () => {
  tool = await startTestTool({
    ASSET_PROCESSOR: 'on',
    SANDBOX_DELAY_MS: '300',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '20',
  });
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'ap-checks' });
  assignmentId = await attachToActivity(tool, lms, ACTIVITY);
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;
type Report = ReturnType<TestPlatform['platform']['assetReports']>[number];

/** Waits until each asset's report of the type reaches one of `progress`; returns them in the assets' order. */
async function reportsOf(
  assetIds: string[],
  progress: string[],
  timeoutMs = 60_000,
  type = 'originality',
): Promise<Report[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const latest = lms.platform.assetReports();
    const found = assetIds.map((id) => latest.find((report) => report.assetId === id && report.type === type));
    if (found.every((report) => report && progress.includes(report.processingProgress))) return found as Report[];
    if (Date.now() > deadline) assert.fail(`reports not ${progress.join('/')} in time: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const setSettings = async (change: Record<string, unknown>) => {
  const row = await db()
    .selectFrom('assignment')
    .select('settings')
    .where('id', '=', assignmentId)
    .executeTakeFirstOrThrow();
  await db()
    .updateTable('assignment')
    .set({ settings: JSON.stringify({ ...(row.settings as object), ...change }) })
    .where('id', '=', assignmentId)
    .execute();
};

describe('an LMS submission checked by the Asset Processor', () => {
  test('two files and a text entry come back Processed, with the band colour, its alt text and the percent; no gradebook score', async () => {
    // The service holds each upload for 5 s, so the files are still being checked when their first reports go out:
    // a report carries the standing of when it is sent, and on a busy machine the first one could otherwise find
    // the check done and rightly say Processed at once.
    tool.tool.sandbox!.setFaults({ uploadHoldMs: 5_000 });
    const sent = await lms.platform.submitToActivity({
      activityId: ACTIVITY.id,
      userId: 'student-1',
      files: [txt('glaciers.txt', 'glaciers'), txt('deltas.txt', 'river deltas')],
      text: `<p>${essay('floodplains').replace(/\n/g, '</p><p>')}</p>`,
    });
    assert.equal(sent.status, 200, sent.body);
    assert.equal(sent.assets.length, 3);
    first = sent;
    const ids = sent.assets.map((asset) => asset.asset_id);
    const reports = await reportsOf(ids, ['Processed']).finally(() => tool.tool.sandbox!.setFaults({}));
    for (const report of reports) {
      assert.match(report.result ?? '', /^\d+(\.\d)?%$/);
      assert.ok(Object.values(BAND_COLOUR).includes(report.indicationColor ?? ''), report.indicationColor);
      assert.ok(report.indicationAlt?.includes(report.result!), report.indicationAlt);
      assert.equal(report.title, 'Originality');
      assert.equal(report.visibleToOwner, true);
      assert.ok(report.priority >= 0 && report.priority <= 5);
    }
    // The AI score has its own report, hidden from the student by default.
    for (const ai of await reportsOf(ids, ['Processed'], 20_000, 'ai')) {
      assert.equal(ai.visibleToOwner, false);
      assert.match(ai.indicationAlt ?? '', /AI-written content/);
    }
    // Each asset's Processing report came first, and every post was taken.
    const log = lms.platform.assetReportLog();
    assert.ok(
      log.every((entry) => entry.status === 201),
      JSON.stringify(log.filter((entry) => entry.status !== 201)),
    );
    for (const id of ids) {
      const progress = log
        .map((entry) => entry.body as { assetId: string; type: string; processingProgress: string })
        .filter((body) => body.assetId === id && body.type === 'originality')
        .map((body) => body.processingProgress);
      assert.equal(progress[0], 'Processing');
      assert.equal(progress.at(-1), 'Processed');
    }
    // The text entry was checked as its words: a text file, not the HTML.
    const papers = await db()
      .selectFrom('submission')
      .select(['file_type', 'file_label'])
      .where('assignment_id', '=', assignmentId)
      .orderBy('attempt')
      .execute();
    assert.deepEqual(papers.map((paper) => paper.file_type).sort(), ['txt', 'txt', 'txt']);
    assert.equal(lms.platform.scoreLog().length, 0, 'no AGS score is posted for an Asset Processor assignment');
  });

  test('the same notice again uploads nothing twice: the latest reports are sent again', async () => {
    const papersBefore = await db()
      .selectFrom('submission')
      .select('id')
      .where('assignment_id', '=', assignmentId)
      .execute();
    const postsBefore = lms.platform.assetReportLog().length;
    // Canvas's resubmit rule refuses it for Processed reports; a platform may still send a notice twice.
    assert.equal((await lms.platform.resubmitAll(first.submissionId)).sent, false);
    const notice = lms.platform.submissionNotice({
      activityId: ACTIVITY.id,
      submissionId: first.submissionId,
      userId: 'student-1',
      assets: first.assets,
    });
    const answer = await postNotices(tool, await lms.platform.sign(notice));
    assert.equal(answer.status, 200, await answer.text());
    const deadline = Date.now() + 20_000;
    while (lms.platform.assetReportLog().length < postsBefore + 6 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const resent = lms.platform.assetReportLog().slice(postsBefore);
    // Originality and AI, for each of the three assets.
    assert.equal(resent.length, 6, 'the latest reports of each asset were sent again');
    assert.ok(
      resent.every(
        (entry) =>
          entry.status === 201 && (entry.body as { processingProgress: string }).processingProgress === 'Processed',
      ),
    );
    const papersAfter = await db()
      .selectFrom('submission')
      .select('id')
      .where('assignment_id', '=', assignmentId)
      .execute();
    assert.equal(papersAfter.length, papersBefore.length, 'no second upload');
  });

  test('results shown after the due date: the report is hidden until then, and posted visible once the date has passed', async () => {
    await setSettings({ resultsVisibleTo: 'students-after-due', dueAt: new Date(Date.now() + 3600_000).toISOString() });
    try {
      const sent = await lms.platform.submitToActivity({
        activityId: ACTIVITY.id,
        userId: 'student-5',
        files: [txt('estuaries.txt', 'estuaries')],
      });
      const [hidden] = await reportsOf([sent.assets[0]!.asset_id], ['Processed']);
      assert.equal(hidden!.visibleToOwner, false);
      // The due date passes (nothing in the tool happens at that moment); the minute's sweep posts the report again.
      await setSettings({ dueAt: new Date(Date.now() - 1000).toISOString() });
      // A report job of the asset still waiting (the AI report's, say) is left to do it; the next sweep takes it then.
      const deadline = Date.now() + 20_000;
      let queued = 0;
      while (queued === 0 && Date.now() < deadline) {
        queued = await sweepForgottenAssets({ db: db(), jobs: tool.tool.jobs });
        if (queued === 0) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      assert.equal(queued, 1);
      while (
        !lms.platform
          .assetReports()
          .some(
            (report) =>
              report.assetId === sent.assets[0]!.asset_id && report.type === 'originality' && report.visibleToOwner,
          ) &&
        Date.now() < deadline
      ) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const shown = lms.platform
        .assetReports()
        .find((report) => report.assetId === sent.assets[0]!.asset_id && report.type === 'originality');
      assert.equal(shown?.visibleToOwner, true);
      assert.equal(await sweepForgottenAssets({ db: db(), jobs: tool.tool.jobs }), 0, 'posted once');
    } finally {
      await setSettings({ resultsVisibleTo: 'students-after-scoring', dueAt: null });
    }
  });

  test('a file larger than the assignment takes ends Failed with ASSET_TOO_LARGE, without being downloaded', async () => {
    await setSettings({ maxFileMb: 1 });
    try {
      const sent = await lms.platform.submitToActivity({
        activityId: ACTIVITY.id,
        userId: 'student-2',
        files: [{ content: Buffer.alloc(2 * 1024 * 1024, 'a'), filename: 'huge.txt', contentType: 'text/plain' }],
      });
      assert.equal(sent.status, 200, sent.body);
      const [report] = await reportsOf([sent.assets[0]!.asset_id], ['Failed']);
      assert.equal(report!.errorCode, 'ASSET_TOO_LARGE');
      assert.match(report!.comment ?? '', /1 MB at most/);
    } finally {
      await setSettings({ maxFileMb: 100 });
    }
  });

  test('a file of a type the service does not check ends Failed with UNSUPPORTED_ASSET_TYPE', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 1)]);
    const sent = await lms.platform.submitToActivity({
      activityId: ACTIVITY.id,
      userId: 'student-2',
      files: [{ content: png, filename: 'photo.png', contentType: 'image/png' }],
    });
    const [report] = await reportsOf([sent.assets[0]!.asset_id], ['Failed']);
    assert.equal(report!.errorCode, 'UNSUPPORTED_ASSET_TYPE');
    assert.match(report!.comment ?? '', /This assignment takes/);
  });

  test('a download that keeps failing ends DOWNLOAD_FAILED; "Resubmit all files" then checks it again', async () => {
    lms.platform.setFaults({ assetFailures: 1000 });
    const sent = await lms.platform.submitToActivity({
      activityId: ACTIVITY.id,
      userId: 'student-3',
      files: [txt('tides.txt', 'tides')],
    });
    const [failed] = await reportsOf([sent.assets[0]!.asset_id], ['Failed']);
    assert.equal(failed!.errorCode, 'DOWNLOAD_FAILED');
    assert.match(failed!.comment ?? '', /could not be fetched from the LMS/);
    lms.platform.setFaults({});
    const resubmitted = await lms.platform.resubmitAll(sent.submissionId);
    assert.equal(resubmitted.sent, true);
    const [checked] = await reportsOf([sent.assets[0]!.asset_id], ['Processed']);
    assert.match(checked!.result ?? '', /%$/);
  });

  test('a file whose bytes do not match the checksum the LMS announced is not checked', async () => {
    lms.platform.setFaults({ assetWrongBytes: true });
    try {
      const sent = await lms.platform.submitToActivity({
        activityId: ACTIVITY.id,
        userId: 'student-4',
        files: [txt('moraines.txt', 'moraines')],
      });
      const [failed] = await reportsOf([sent.assets[0]!.asset_id], ['Failed']);
      assert.equal(failed!.errorCode, 'DOWNLOAD_FAILED');
      assert.match(failed!.comment ?? '', /does not match the SHA-256 checksum|bytes where the LMS announced/);
      const papers = await db()
        .selectFrom('submission as s')
        .innerJoin('lti_user as u', 'u.id', 's.user_id')
        .select('s.id')
        .where('u.subject', '=', 'student-4')
        .execute();
      assert.equal(papers.length, 0);
    } finally {
      lms.platform.setFaults({});
    }
  });
});

describe('the reports in the language of the instructor who attached the check', () => {
  test('a German instructor attaches it: the reports beside the files are in German', async () => {
    const german = await startTestPlatform(tool, { rules: 'canvas', clientId: 'ap-checks-de' });
    try {
      // Canvas states the user's language in the launch (launch_presentation.locale).
      german.platform.addUser({
        id: 'instructor-1',
        name: 'Iris Instructor',
        email: 'iris.instructor@example.edu',
        roles: ROLES.instructor,
        locale: 'de',
      });
      const activity = { id: 'b1d2e3f4-0000-4000-8000-0000000000de', title: 'Aufsatz über Flüsse' };
      await attachToActivity(tool, german, activity);
      const sent = await german.platform.submitToActivity({
        activityId: activity.id,
        userId: 'student-1',
        files: [txt('gletscher.txt', 'Gletscher und Täler')],
      });
      assert.equal(sent.status, 200, sent.body);
      const assetId = sent.assets[0]!.asset_id;
      const deadline = Date.now() + 60_000;
      let report: Report | undefined;
      while (!report) {
        report = german.platform
          .assetReports()
          .find((r) => r.assetId === assetId && r.type === 'originality' && r.processingProgress === 'Processed');
        if (Date.now() > deadline)
          assert.fail(`no Processed report: ${JSON.stringify(german.platform.assetReports())}`);
        if (!report) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert.equal(report.title, 'Originalität');
      assert.match(report.indicationAlt ?? '', /^Ähnlichkeit \d+(\.\d)?%: (niedrig|mittel|hoch|sehr hoch)\.$/);
      assert.match(report.comment ?? '', /^Geprüft: Ähnlichkeit \d+(\.\d)?%\.$/);
      // The first report, while the file was fetched or checked, was German too.
      const first = german.platform
        .assetReportLog()
        .map((entry) => entry.body as { assetId: string; comment?: string })
        .find((body) => body.assetId === assetId);
      assert.doesNotMatch(first?.comment ?? '', /the tool|results usually/);
    } finally {
      await german.close();
    }
  });
});
