// ASSET_PROCESSOR off (the default): the tool neither asks an LMS for the Asset Processor at registration nor
// attaches one; a deep-linking launch that would take a processor gets the ordinary assignment picker.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { toolUrls } from '../../src/lti/provider.js';
import { addCanvasByHand } from '../support/asset-processor.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { pageText } from '../support/page-text.js';

const TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';
// The page's words as a person reads them (apostrophes in the catalogue's words are escaped in the HTML).
const text = pageText;

let tool: TestTool;
const platforms: TestPlatform[] = [];

before(async () => {
  tool = await startTestTool();
});
after(async () => {
  for (const platform of platforms) await platform.close();
  await tool.stop();
});

describe('with the Asset Processor off (the default)', () => {
  test('dynamic registration asks for none of its placement, messages or scopes', async () => {
    assert.equal(tool.config.assetProcessor, false);
    const lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'ap-off-dyn', register: false });
    platforms.push(lms);
    const page = await fetch(lms.platform.registrationUrl(toolUrls(tool.url).register));
    assert.equal(page.status, 200, await page.text());
    const sent = lms.platform.dynamicRegistrations()[0]!;
    const scope = String(sent.scope);
    assert.match(scope, /lti-ags\/scope\/score/);
    assert.doesNotMatch(scope, /noticehandlers|asset\.readonly|scope\/report/);
    const messages = (sent[TOOL_CONFIGURATION] as { messages: Array<{ type: string; placements?: string[] }> })
      .messages;
    assert.deepEqual(
      messages.map((m) => [m.type, m.placements ?? null]),
      [
        ['LtiResourceLinkRequest', null],
        ['LtiDeepLinkingRequest', ['assignment_selection', 'link_selection']],
      ],
    );
  });

  test('a deep-linking launch that accepts a processor gets the ordinary picker, and neither the attach address nor the notice handler exists', async () => {
    const lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'ap-off-dl' });
    platforms.push(lms);
    const page = await launch(lms.platform, {
      userId: 'instructor-1',
      messageType: 'LtiDeepLinkingRequest',
      activity: { id: 'f3b1c2d4-0000-4000-8000-0000000000ff', title: 'Essay' },
    });
    assert.equal(page.status, 200, text(page.body));
    assert.match(text(page.body), /Add a similarity-checked assignment/);
    assert.doesNotMatch(text(page.body), /Check this assignment's submissions/);
    const attach = await fetch(`${tool.url}/asset-processor/attach`, {
      method: 'POST',
      body: new URLSearchParams({ ltik: 'x' }),
      redirect: 'manual',
    });
    assert.equal(attach.status, 404);
    const notices = await fetch(`${tool.url}/asset-processor/notices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"notices":[{"jwt":"x"}]}',
    });
    assert.equal(notices.status, 404, 'no notice handler answers');
    assert.deepEqual(lms.platform.noticeHandlers(), {});
    const processors = await tool.tool.database.db
      .selectFrom('assignment')
      .select('id')
      .where('kind', '=', 'asset-processor')
      .execute();
    assert.equal(processors.length, 0);
  });

  test('the CLI does not tell the administrator to enter the processor in the LMS', async () => {
    const added = await addCanvasByHand(tool, 'ap-off-cli');
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /Deep linking URL/);
    assert.doesNotMatch(added.stdout, /ActivityAssetProcessor|Asset Processor/);
  });
});
