// With ASSET_PROCESSOR off (the default), the Asset Processor's own launches are refused as ltijs refuses any message
// type it does not take, and nothing of them is written. Also the EULA's setting, which needs the processor on.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ConfigError, parseConfig } from '../../src/config/config.js';
import { launch } from '../../src/devplatform/agent.js';
import { pageText } from '../support/page-text.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
let lms: TestPlatform;

before(async () => {
  tool = await startTestTool();
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'ap-launches-off' });
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const sessions = () =>
  tool.tool.database.db.selectFrom('lti_record').select('id').where('collection', '=', 'session').execute();

for (const [what, assetProcessor] of [
  [
    'report review',
    {
      messageType: 'LtiReportReviewRequest',
      activityId: 'a1',
      submissionId: 's1:1',
      assetId: 'x1',
      reportType: 'originality',
      forUserId: 'student-1',
    },
  ],
  ['settings', { messageType: 'LtiAssetProcessorSettingsRequest', activityId: 'a1' }],
  ['EULA', { messageType: 'LtiEulaRequest' }],
] as const) {
  test(`a ${what} launch is refused, and nothing is written`, async () => {
    assert.equal(tool.config.assetProcessor, false);
    const page = await launch(lms.platform, { userId: 'instructor-1', assetProcessor });
    assert.equal(page.status, 401);
    assert.match(pageText(page.body), /opened the tool for something it does not offer/);
    assert.deepEqual(await sessions(), []);
  });
}

test('the EULA setting: off by default; on needs the Asset Processor and its terms, given as text or as an address', () => {
  assert.equal(parseConfig({ ASSET_PROCESSOR: 'on' }).assetProcessorEula, null);
  assert.throws(
    () => parseConfig({ ASSET_PROCESSOR_EULA: 'on', ASSET_PROCESSOR_EULA_TERMS: 'Terms.' }),
    (error: unknown) => error instanceof ConfigError && /needs ASSET_PROCESSOR=on/.test(error.message),
  );
  assert.throws(
    () => parseConfig({ ASSET_PROCESSOR: 'on', ASSET_PROCESSOR_EULA: 'on' }),
    (error: unknown) => error instanceof ConfigError && error.variable === 'ASSET_PROCESSOR_EULA_TERMS',
  );
  assert.deepEqual(
    parseConfig({
      ASSET_PROCESSOR: 'on',
      ASSET_PROCESSOR_EULA: 'on',
      ASSET_PROCESSOR_EULA_TERMS: 'https://example.edu/terms',
    }).assetProcessorEula,
    { url: 'https://example.edu/terms' },
  );
  assert.deepEqual(
    parseConfig({
      ASSET_PROCESSOR: 'on',
      ASSET_PROCESSOR_EULA: 'on',
      ASSET_PROCESSOR_EULA_TERMS: 'Your files are compared.',
    }).assetProcessorEula,
    { text: 'Your files are compared.' },
  );
});
