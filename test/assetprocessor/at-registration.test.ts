// The Asset Processor at registration: what the tool asks of an LMS that registers it dynamically (the placement
// on an assignment, the two launches, the three service scopes), and what an LMS registered by hand gives it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { accessTokenWithin } from '../../src/lti/access-token.js';
import { toolUrls } from '../../src/lti/provider.js';
import { addCanvasByHand } from '../support/asset-processor.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const SCOPES = {
  noticeHandlers: 'https://purl.imsglobal.org/spec/lti/scope/noticehandlers',
  asset: 'https://purl.imsglobal.org/spec/lti/scope/asset.readonly',
  report: 'https://purl.imsglobal.org/spec/lti/scope/report',
};
const TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

type Message = { type: string; target_link_uri?: string; placements?: string[] };

let tool: TestTool;
const platforms: TestPlatform[] = [];

before(async () => {
  tool = await startTestTool({ ASSET_PROCESSOR: 'on' });
});
after(async () => {
  for (const platform of platforms) await platform.close();
  await tool.stop();
});

async function registerDynamically(options: { rules?: 'canvas'; clientId: string }) {
  const lms = await startTestPlatform(tool, { ...options, register: false });
  platforms.push(lms);
  const page = await fetch(lms.platform.registrationUrl(toolUrls(tool.url).register));
  assert.equal(page.status, 200, await page.text());
  const sent = lms.platform.dynamicRegistrations()[0]!;
  return {
    scopes: String(sent.scope).split(' '),
    messages: (sent[TOOL_CONFIGURATION] as { messages: Message[] }).messages,
  };
}

describe('dynamic registration asks for the Asset Processor', () => {
  // canvas-lms doc/api/document_processor.md ("Tool Registration"): "add the `ActivityAssetProcessor` placement to a
  // `LtiDeepLinkingRequest` entry in the `messages` array"; its registration schema takes no message of another type
  // but the EULA's (src/lti/asset-processor.ts quotes where), and the dev platform under Canvas's rules answers 422.
  test('a Canvas is asked for the processor placement on deep linking and the three scopes, beside the assignment placements, and for no message its registration refuses', async () => {
    const { scopes, messages } = await registerDynamically({ rules: 'canvas', clientId: 'ap-dyn-canvas' });
    for (const scope of Object.values(SCOPES)) assert.ok(scopes.includes(scope), `scope ${scope} asked`);
    assert.ok(
      scopes.includes('https://purl.imsglobal.org/spec/lti-ags/scope/score'),
      'the gradebook scopes are still asked',
    );
    assert.deepEqual(
      messages.map((m) => [m.type, m.placements ?? null]),
      [
        ['LtiResourceLinkRequest', null],
        ['LtiDeepLinkingRequest', ['assignment_selection', 'link_selection']],
        ['LtiDeepLinkingRequest', ['ActivityAssetProcessor']],
      ],
    );
  });

  test('any other LMS is asked for the processor, its settings and report review launches: it ignores what it does not offer', async () => {
    const launch = toolUrls(tool.url).launch;
    const { scopes, messages } = await registerDynamically({ clientId: 'ap-dyn-other' });
    for (const scope of Object.values(SCOPES)) assert.ok(scopes.includes(scope), `scope ${scope} asked`);
    assert.deepEqual(
      messages.map((m) => [m.type, m.placements ?? null]),
      [
        ['LtiResourceLinkRequest', null],
        ['LtiDeepLinkingRequest', null],
        ['LtiSubmissionReviewRequest', null],
        ['LtiDeepLinkingRequest', ['ActivityAssetProcessor']],
        ['LtiAssetProcessorSettingsRequest', null],
        ['LtiReportReviewRequest', null],
      ],
    );
    for (const type of ['LtiAssetProcessorSettingsRequest', 'LtiReportReviewRequest']) {
      const message = messages.find((m) => m.type === type);
      assert.equal(message?.target_link_uri, launch, `${type} lands on the launch address`);
    }
  });
});

describe('an LMS registered by hand', () => {
  test('the CLI tells the administrator the placement, the launches and the scopes to enter in the LMS', async () => {
    const added = await addCanvasByHand(tool, 'ap-hand-cli', { ASSET_PROCESSOR: 'on' });
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /Placement on deep linking:\s+ActivityAssetProcessor/);
    assert.match(added.stdout, /LtiAssetProcessorSettingsRequest, LtiReportReviewRequest/);
    for (const scope of Object.values(SCOPES)) assert.ok(added.stdout.includes(scope), `scope ${scope} shown`);
  });

  test('the tool obtains access tokens for the notice handler, asset and report scopes, each granted by the LMS', async () => {
    const lms = await startTestPlatform(tool, { clientId: 'ap-hand-tokens' });
    platforms.push(lms);
    const registration = lms.platform.registration();
    const platform = await tool.tool.platforms.getPlatform(registration.issuer, registration.clientId);
    assert.ok(platform, 'the platform registered by hand is known to the tool');
    for (const scope of Object.values(SCOPES)) {
      const token = await accessTokenWithin(platform, scope, 10_000);
      const exchange = lms.platform.tokenExchanges().find((e) => e.accessToken === token);
      assert.deepEqual(exchange?.scopes, [scope], `the LMS granted ${scope}`);
    }
  });
});
