// Threat: a registration that names no deployment (Canvas's dynamic registration never does) taken over by whoever
// launches first. Only a launch the platform's own key verifies names its first deployment; a forged one, a notice, or
// a second deployment later names nothing, and each is refused with the sentence of an unknown deployment.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { toolUrls } from '../../src/lti/provider.js';
import { listRegistrations } from '../../src/lti/registrations.js';
import { en } from '../../src/i18n/en.js';
import { payloadOf } from '../support/id-token.js';
import { pageText } from '../support/page-text.js';
import { servePlatform, type ServedPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { postNotices } from '../support/asset-processor.js';

const DEPLOYMENT = 'https://purl.imsglobal.org/spec/lti/claim/deployment_id';

let tool: TestTool;
let canvas: ServedPlatform;
let stranger: ServedPlatform;

before(async () => {
  tool = await startTestTool({ ASSET_PROCESSOR: 'on' });
  canvas = await servePlatform(tool.url, { rules: 'canvas', clientId: 'first-deployment', deploymentId: '7:abc' });
  // Another LMS with the same client id and deployment: its keys are not the registered platform's.
  stranger = await servePlatform(tool.url, { rules: 'canvas', clientId: 'first-deployment', deploymentId: '7:abc' });
  const page = await fetch(canvas.platform.registrationUrl(toolUrls(tool.url).register));
  assert.equal(page.status, 200, pageText(await page.text()));
  canvas.platform.addResourceLink({ id: 'essay', title: 'Essay' });
});
after(async () => {
  await canvas.close();
  await stranger.close();
  await tool.stop();
});

const deployments = async () =>
  (await listRegistrations(tool.tool.database.db)).find((r) => r.clientId === 'first-deployment')?.deploymentIds;

describe('a registration without a deployment', () => {
  test('Canvas named none: the registration is kept without one', async () => {
    assert.deepEqual(await deployments(), []);
  });

  test("a launch signed with another LMS's key names nothing (401)", async () => {
    const forged = await launch(canvas.platform, {
      userId: 'instructor-1',
      resourceLinkId: 'essay',
      replaceIdToken: (idToken) => stranger.platform.sign(payloadOf(idToken)),
    });
    assert.equal(forged.status, 401, pageText(forged.body));
    assert.equal(forged.ltik, null);
    assert.deepEqual(await deployments(), []);
  });

  test("a notice signed with the LMS's own key names nothing (403): only a launch does", async () => {
    const jwt = await canvas.platform.sign(
      canvas.platform.submissionNotice({ activityId: 'any', submissionId: 'any:1', userId: 'student-1', assets: [] }),
    );
    const answer = await postNotices(tool, jwt);
    assert.equal(answer.status, 403, await answer.text());
    assert.deepEqual(await deployments(), []);
  });

  test("the LMS's own first launch names it, and a second deployment is then refused as unknown (403)", async () => {
    const first = await launch(canvas.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    assert.equal(first.status, 200, pageText(first.body));
    assert.deepEqual(await deployments(), ['7:abc']);
    const second = await launch(canvas.platform, {
      userId: 'instructor-1',
      resourceLinkId: 'essay',
      replaceIdToken: (idToken) => canvas.platform.sign({ ...payloadOf(idToken), [DEPLOYMENT]: '8:another' }),
    });
    assert.equal(second.status, 403);
    assert.ok(pageText(second.body).includes(en['launch.deploymentUnregistered']), pageText(second.body));
    assert.deepEqual(await deployments(), ['7:abc']);
  });
});
