// Canvas's nulls through the tool's real login, launch and notice handler: canvas-lms serializes nested claims without
// compacting them (test/fixtures/lms/canvas/resource-link-request.json quotes where), so an assignment without a
// description comes as "description": null, and an account with the Asset Processor on sends an eulaservice claim
// whose url is null. Those launches open what they name; a required claim that is null is refused with the sentence of
// a missing one. test/lti/null-claims.unit.test.ts holds the rule for every field of every message type.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { launch } from '../../src/devplatform/agent.js';
import { en } from '../../src/i18n/en.js';
import { attachToActivity, postNotices } from '../support/asset-processor.js';
import { lmsFixture } from '../support/lms-fixtures.js';
import { pageText } from '../support/page-text.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const DEEP_LINKING_SETTINGS = 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings';
const AGS = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const NRPS = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
const resourceLink = lmsFixture('canvas', 'resource-link-request').payload;
const deepLinking = lmsFixture('canvas', 'deep-linking-request').payload;
const notice = lmsFixture('canvas', 'submission-notice').payload;

let tool: TestTool;
let lms: ServedPlatform;

before(async () => {
  tool = await startTestTool({ ASSET_PROCESSOR: 'on' });
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'canvas-nulls', productFamily: 'canvas' });
  lms.platform.addResourceLink({ id: 'essay', title: 'Essay on rivers' });
});
after(async () => {
  await lms.close();
  await tool.stop();
});

/**
 * The fixture's claims in place of the dev platform's, in an id_token it issued for this login (its issuer, audience,
 * nonce, user, deployment and roles stay, and where the answer goes back), then `edit` on top.
 */
const asCanvasSends =
  (fixture: Record<string, unknown>, edit: (claims: Record<string, unknown>) => void = () => {}) =>
  async (idToken: string) => {
    const { iat: _iat, exp: _exp, ...issued } = decodeJwt(idToken);
    const claims: Record<string, unknown> = { ...issued, ...structuredClone(fixture) };
    // The services are this platform's (the fixture's addresses are a school's that is not here).
    for (const service of [AGS, NRPS])
      if (issued[service]) claims[service] = issued[service];
      else delete claims[service];
    const settings = issued[DEEP_LINKING_SETTINGS] as Record<string, unknown> | undefined;
    if (settings && claims[DEEP_LINKING_SETTINGS])
      claims[DEEP_LINKING_SETTINGS] = {
        ...(claims[DEEP_LINKING_SETTINGS] as object),
        deep_link_return_url: settings.deep_link_return_url,
      };
    edit(claims);
    return lms.platform.sign(claims);
  };

describe("Canvas's launches with nulls in them", () => {
  test('an assignment without a description ("description": null), lis and eulaservice.url null: the instructor lands on it', async () => {
    const page = await launch(lms.platform, {
      userId: 'instructor-1',
      resourceLinkId: 'essay',
      replaceIdToken: asCanvasSends(resourceLink),
    });
    assert.equal(page.status, 200, pageText(page.body).slice(0, 400));
    assert.ok(page.ltik, 'a session opened');
    assert.match(pageText(page.body), /Essay on rivers/);
    const assignment = await tool.tool.database.db
      .selectFrom('assignment')
      .select('title')
      .where('resource_link_id', '=', (resourceLink[`${CLAIM}/resource_link`] as { id: string }).id)
      .executeTakeFirst();
    assert.equal(assignment?.title, 'Essay on rivers', 'the assignment the launch names was made');
  });

  test('a resource link whose id is null is refused as incomplete, with its sentence (400)', async () => {
    const page = await launch(lms.platform, {
      userId: 'instructor-1',
      resourceLinkId: 'essay',
      replaceIdToken: asCanvasSends(resourceLink, (claims) => {
        (claims[`${CLAIM}/resource_link`] as Record<string, unknown>).id = null;
      }),
    });
    assert.equal(page.status, 400);
    assert.ok(pageText(page.body).includes(en['launch.incomplete']), pageText(page.body).slice(0, 400));
    assert.equal(page.ltik, null);
  });

  test('"Add Document Processing App" with an activity whose id is null: the odd hint is dropped and the attach page opens', async () => {
    const page = await launch(lms.platform, {
      userId: 'instructor-1',
      messageType: 'LtiDeepLinkingRequest',
      replaceIdToken: asCanvasSends(deepLinking, (claims) => {
        claims[`${CLAIM}/activity`] = { id: null, title: null };
      }),
    });
    assert.equal(page.status, 200, pageText(page.body).slice(0, 400));
    assert.match(pageText(page.body), /Attach the check/, "the processor's attach page, with its check settings");
  });

  test("the documented submission notice with nulls where Canvas's serializer leaves them is kept (200)", async () => {
    const activity = 'null-claims-activity';
    await attachToActivity(tool, lms, { id: activity, title: 'Essay on deltas' });
    const { issuer, clientId, deploymentId } = lms.platform.registration();
    const now = Math.floor(Date.now() / 1000);
    const payload = structuredClone(notice);
    payload[`${CLAIM}/activity`] = { id: activity };
    payload[`${CLAIM}/eulaservice`] = { url: null, scope: ['https://purl.imsglobal.org/spec/lti/scope/eula/user'] };
    (payload[`${CLAIM}/for_user`] as Record<string, unknown>).person_sourcedid = null;
    payload['https://www.instructure.com/placement'] = null;
    const jwt = await lms.platform.sign({
      ...payload,
      iss: issuer,
      aud: clientId,
      azp: null,
      iat: now,
      exp: now + 300,
      nonce: randomUUID(),
      [`${CLAIM}/deployment_id`]: deploymentId,
    });
    const answer = await postNotices(tool, jwt);
    assert.equal(answer.status, 200, await answer.text());
    const kept = await tool.tool.database.db
      .selectFrom('lms_asset')
      .select('lms_submission_id')
      .where('asset_id', '=', 'dd33081e-81ba-4651-b528-098315f8a346')
      .executeTakeFirst();
    assert.equal(kept?.lms_submission_id, 'd6446aaf-3f71-4eea-b2fd-20bd8d151506:1');
  });
});
