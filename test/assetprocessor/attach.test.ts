// Attaching the tool to the LMS's own assignment as its Asset Processor, through the dev platform: the settings
// page with its defaults, the subscription to submission notices made before the answer, the one content item of
// the processor type, and nothing created when the LMS's notification service refuses.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { defaultSettings } from '../../src/assignments/settings.js';
import { launch, submitForm } from '../../src/devplatform/agent.js';
import { postAttach } from '../support/asset-processor.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';
import { pageText } from '../support/page-text.js';

let tool: TestTool;
let lms: TestPlatform;
// The page's words as a person reads them (apostrophes in the catalogue's words are escaped in the HTML).
const text = pageText;
const ACTIVITY = { id: 'f3b1c2d4-0000-4000-8000-000000000001', title: 'Essay on rivers' };

before(async () => {
  tool = await startTestTool({ ASSET_PROCESSOR: 'on' });
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'ap-attach' });
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const processorAssignments = () =>
  tool.tool.database.db
    .selectFrom('assignment')
    .select(['id', 'title', 'kind', 'activity_id', 'settings', 'folder_state'])
    .where('kind', '=', 'asset-processor')
    .execute();

const attach = (page: string) => postAttach(tool, page);

describe('attaching the tool to an LMS assignment', () => {
  test('an instructor sees the usual settings with their defaults, attaches in one click, and the LMS gets one processor after the tool subscribed to its notices', async () => {
    const page = await launch(lms.platform, {
      userId: 'instructor-1',
      messageType: 'LtiDeepLinkingRequest',
      activity: ACTIVITY,
    });
    assert.equal(page.status, 200, text(page.body));
    assert.match(text(page.body), /Check this assignment's submissions/);
    assert.match(text(page.body), /Essay on rivers/);
    assert.equal(
      /name="excludeReferences" checked/.test(page.body),
      defaultSettings().excludeReferences,
      'the default shows',
    );
    assert.deepEqual(lms.platform.noticeHandlers(), {}, 'no subscription before the instructor attaches');

    const answer = await attach(page.body);
    const body = await answer.text();
    assert.equal(answer.status, 200, text(body));
    // The subscription is in place before the LMS hears of the processor.
    assert.deepEqual(lms.platform.noticeHandlers(), {
      LtiAssetProcessorSubmissionNotice: `${tool.url}/asset-processor/notices`,
    });
    const jwt = body.match(/name="JWT" value="([^"]+)"/)?.[1] ?? '';
    const items = decodeJwt(jwt)['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'] as Array<
      Record<string, unknown>
    >;
    assert.equal(items.length, 1);
    assert.equal(items[0]!.type, 'ltiAssetProcessor');
    assert.equal(items[0]!.title, 'Originality check');
    assert.equal(typeof items[0]!.text, 'string');
    assert.equal((items[0]!.report as { url?: string }).url, `${tool.url}/lti/launch`);

    const returned = await submitForm(body, tool.url);
    assert.equal(returned.status, 200, text(returned.body));
    const [attached] = lms.platform.assetProcessors();
    assert.equal(attached?.activityId, ACTIVITY.id);
    assert.equal(attached?.title, 'Originality check');

    const [assignment] = await processorAssignments();
    assert.ok(assignment, 'the assignment was created');
    assert.equal(assignment.activity_id, ACTIVITY.id);
    assert.deepEqual(assignment.settings, defaultSettings());
    assert.equal(attached?.custom.assignment_id, assignment.id);
    await eventually(
      async () => (await processorAssignments())[0]?.folder_state === 'ready',
      'the folder to be created',
      30_000,
      200,
    );
  });

  test('when the LMS refuses the subscription: a sentence, and nothing created', async () => {
    const before = (await processorAssignments()).length;
    lms.platform.setFaults({ noticeHandlersStatus: 500 });
    try {
      const page = await launch(lms.platform, {
        userId: 'instructor-1',
        messageType: 'LtiDeepLinkingRequest',
        activity: { id: 'f3b1c2d4-0000-4000-8000-000000000002', title: 'Lab report' },
      });
      const answer = await attach(page.body);
      const body = await answer.text();
      assert.equal(answer.status, 502);
      assert.match(
        text(body),
        /did not let the tool subscribe to its submission notices, so the tool was not attached \(nothing was created\)/,
      );
      assert.doesNotMatch(body, /name="JWT"/);
      assert.equal((await processorAssignments()).length, before);
    } finally {
      lms.platform.setFaults({});
    }
  });

  test('a deep-linking launch that does not accept a processor gets the assignment picker, and no processor from the attach address', async () => {
    const picker = await launch(lms.platform, { userId: 'instructor-1', messageType: 'LtiDeepLinkingRequest' });
    assert.match(text(picker.body), /Add a similarity-checked assignment/);
    const before = (await processorAssignments()).length;
    const answer = await attach(picker.body);
    assert.equal(answer.status, 400);
    assert.match(text(await answer.text()), /does not take a document processor/);
    assert.equal((await processorAssignments()).length, before);
  });

  test('a student cannot attach the tool', async () => {
    const page = await launch(lms.platform, {
      userId: 'student-1',
      messageType: 'LtiDeepLinkingRequest',
      activity: ACTIVITY,
    });
    assert.equal(page.status, 403);
    assert.match(text(page.body), /Only instructors can add the tool/);
  });
});
