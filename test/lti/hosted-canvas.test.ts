// A hosted Canvas registers itself: every Instructure-hosted Canvas signs as one shared issuer and publishes its keys,
// its OIDC authorization and its token endpoint on Canvas's SSO host, while the school's own host has the pages and
// services (test/fixtures/lms/canvas/hosted-registration.json, with the lines of canvas-lms each rule rests on). The
// dev platform plays both hosts on loopback; the tool is told to reach https://sso.canvaslms.com there, while what it
// stores and compares is Canvas's published address. A registration naming a shared issuer is taken from any
// configuration host when its keys, login and token addresses are Canvas's own, refused with a sentence when one is
// not, and never replaces another; the school's registration, launch, deep linking, grades and Asset Processor then
// work across the two hosts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { launch, submitForm } from '../../src/devplatform/agent.js';
import { routeOriginForTests } from '../../src/lti/platform-http.js';
import { toolUrls } from '../../src/lti/provider.js';
import { listRegistrations, type Registration } from '../../src/lti/registrations.js';
import { QUICK_ASSET_PROCESSOR, attachToActivity } from '../support/asset-processor.js';
import { openCourse } from '../support/course.js';
import { configurationFor, openRegistration, serveFakeLms } from '../support/fake-lms.js';
import { lmsFixture, shapeOf } from '../support/lms-fixtures.js';
import { pageText } from '../support/page-text.js';
import { HOSTED_CANVAS, servePlatform, type ServedPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

const TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';
const hosted = lmsFixture('canvas', 'hosted-registration').payload as {
  configuration: Record<string, unknown>;
  registrationAnswer: Record<string, unknown>;
};

let tool: TestTool;
const closers: Array<() => Promise<void>> = [];

before(async () => {
  tool = await startTestTool(QUICK_ASSET_PROCESSOR);
});
after(async () => {
  for (const close of closers.reverse()) await close();
  await tool.stop();
});

async function school(options: { clientId: string; deploymentId?: string; environment?: keyof typeof HOSTED_CANVAS }) {
  const lms = await servePlatform(tool.url, {
    hosted: HOSTED_CANVAS[options.environment ?? 'production'],
    clientId: options.clientId,
    deploymentId: options.deploymentId ?? `${options.clientId.slice(-3)}:d3a2504bba5184799a38f141e8df2335cfa8206d`,
  });
  closers.push(lms.close);
  return lms;
}

const registered = async (clientId: string): Promise<Registration | undefined> =>
  (await listRegistrations(tool.tool.database.db)).find((registration) => registration.clientId === clientId);

describe("a hosted Canvas's dynamic registration from its school's host", () => {
  let lms: ServedPlatform;
  const clientId = '10000000000123';

  before(async () => {
    lms = await school({ clientId });
  });

  test('the dev platform configures itself as hosted Canvas does: the same fields, Canvas SSO host addresses', async () => {
    const registrationUrl = new URL(lms.platform.registrationUrl(toolUrls(tool.url).register));
    const configurationUrl = registrationUrl.searchParams.get('openid_configuration')!;
    assert.equal(new URL(configurationUrl).origin, new URL(lms.url).origin, "on the school's host, not the issuer's");
    const configuration = (await (await fetch(configurationUrl)).json()) as Record<string, unknown>;
    const missing = shapeOf(hosted.configuration).filter((path) => !shapeOf(configuration).includes(path));
    assert.deepEqual(missing, [], "every field of hosted Canvas's configuration");
    for (const field of ['issuer', 'authorization_endpoint', 'jwks_uri', 'token_endpoint', 'authorization_server'])
      assert.equal(configuration[field], hosted.configuration[field], field);
  });

  test("is accepted: Canvas's issuer and SSO addresses are kept, the school named by its host, no deployment yet", async () => {
    const page = await fetch(lms.platform.registrationUrl(toolUrls(tool.url).register));
    const body = await page.text();
    assert.equal(page.status, 200, pageText(body));
    assert.match(pageText(body), /The tool is registered/);
    assert.match(pageText(body), /It did not name a deployment: the first launch/);
    // Canvas's admin page, on the school's host, shows the registration panel.
    assert.match(String(page.headers.get('content-security-policy')), new RegExp(new URL(lms.url).origin));
    const saved = await registered(clientId);
    assert.deepEqual(
      saved && {
        name: saved.name,
        issuer: saved.issuer,
        jwks: saved.jwksUrl,
        login: saved.authUrl,
        token: saved.tokenUrl,
        authorizationServer: saved.authorizationServer,
        deployments: saved.deploymentIds,
        product: saved.productFamily,
      },
      {
        name: `canvas at ${new URL(lms.url).host}`,
        issuer: 'https://canvas.instructure.com',
        jwks: 'https://sso.canvaslms.com/api/lti/security/jwks',
        login: 'https://sso.canvaslms.com/api/lti/authorize_redirect',
        token: 'https://sso.canvaslms.com/login/oauth2/token',
        authorizationServer: null,
        deployments: [],
        product: 'canvas',
      },
    );
    // What Canvas's registration schema takes: the assignment placements and the processor's, no other message type.
    const sent = lms.platform.dynamicRegistrations()[0]!;
    const messages = (sent[TOOL_CONFIGURATION] as { messages: Array<{ type: string; placements?: string[] }> })
      .messages;
    assert.deepEqual(
      messages.map((message) => [message.type, message.placements ?? null]),
      [
        ['LtiResourceLinkRequest', null],
        ['LtiDeepLinkingRequest', ['assignment_selection', 'link_selection']],
        ['LtiDeepLinkingRequest', ['ActivityAssetProcessor']],
      ],
    );
  });

  test("the school's first launch names its deployment; login, keys and tokens go through Canvas's SSO host, pages and services through the school's", async () => {
    const requestsBefore = lms.ssoRequests.length;
    const course = await openCourse(tool, { clientId, lms, title: 'Essay on rivers' });
    assert.deepEqual((await registered(clientId))?.deploymentIds, [lms.platform.registration().deploymentId]);
    assert.ok(
      tool.logs.some((line) => line.includes("took its first launch's as its own")),
      'the deployment taken is logged',
    );
    const sso = lms.ssoRequests.slice(requestsBefore);
    assert.ok(sso.includes('/api/lti/authorize_redirect'), 'the login went to the SSO host');
    assert.ok(sso.includes('/api/lti/security/jwks'), "the launch's key came from the SSO host");
    // A student's paper is checked and its result posted to the school's gradebook with a token of the SSO host.
    await course.submit('student-1', 'A paper on rivers, the deltas they build and the floods they bring.');
    await eventually(
      () => lms.platform.scoreLog().some((entry) => entry.userId === 'student-1' && entry.status === 200),
      "the result reached the school's gradebook",
      60_000,
      200,
    );
    assert.ok(sso.length > 0 && lms.ssoRequests.includes('/login/oauth2/token'), 'the token came from the SSO host');
    const granted = lms.platform.tokenExchanges().filter((exchange) => exchange.accessToken);
    assert.ok(granted.length > 0);
    for (const exchange of granted)
      assert.equal(decodeJwt(exchange.clientAssertion).aud, 'https://sso.canvaslms.com/login/oauth2/token');
  });

  test('deep linking: the instructor adds an assignment, which opens for a student', async () => {
    const picker = await launch(lms.platform, { userId: 'instructor-1', messageType: 'LtiDeepLinkingRequest' });
    assert.equal(picker.status, 200, pageText(picker.body));
    const back = await submitForm(picker.body, tool.url, undefined, (fields) => ({ ...fields, title: 'Map essay' }));
    assert.equal(back.status, 200, pageText(back.body));
    const returned = await submitForm(back.body, tool.url);
    assert.equal(returned.status, 200, pageText(returned.body));
    const [result] = lms.platform.deepLinkResults();
    assert.ok(result, "the school's Canvas took the link");
    const student = await launch(lms.platform, { userId: 'student-2', resourceLinkId: result.resourceLinkId });
    assert.equal(student.status, 200);
    assert.match(pageText(student.body), /Map essay/);
  });

  test("the Asset Processor: a file submitted in the school's own assignment is checked and reported", async () => {
    await attachToActivity(tool, lms, { id: 'hosted-activity', title: 'Essay on deltas' });
    const sent = await lms.platform.submitToActivity({
      activityId: 'hosted-activity',
      userId: 'student-3',
      files: [
        {
          content: Buffer.from('Deltas form where rivers meet the sea and drop the silt they carry.\n'.repeat(20)),
          filename: 'deltas.txt',
          contentType: 'text/plain',
        },
      ],
    });
    assert.equal(sent.status, 200, sent.body);
    await eventually(
      () =>
        lms.platform
          .assetReports()
          .some((report) => report.assetId === sent.assets[0]!.asset_id && report.processingProgress === 'Processed'),
      'the file reported Processed',
      60_000,
      200,
    );
  });

  test("another school's registration answering with the same client id is refused and changes nothing", async () => {
    const before = await registered(clientId);
    const other = await school({ clientId, deploymentId: '999:another-school' });
    const page = await fetch(other.platform.registrationUrl(toolUrls(tool.url).register));
    assert.equal(page.status, 409, pageText(await page.text()));
    assert.deepEqual(await registered(clientId), before, 'the keys, addresses and deployments stay');
  });
});

describe("a configuration naming a shared issuer with addresses that are not Canvas's own is refused", () => {
  const sso = 'https://sso.canvaslms.com';
  const canvas = {
    jwks_uri: `${sso}/api/lti/security/jwks`,
    authorization_endpoint: `${sso}/api/lti/authorize_redirect`,
    token_endpoint: `${sso}/login/oauth2/token`,
  };
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [
      'foreign keys',
      { jwks_uri: 'https://keys.example.net/jwks' },
      /its keys address is not https:\/\/sso\.canvaslms\.com/,
    ],
    ['a foreign login', { authorization_endpoint: 'https://login.example.net/auth' }, /its login address is not/],
    [
      'a foreign token endpoint',
      { token_endpoint: 'https://school.instructure.com/login/oauth2/token' },
      /its token address is not/,
    ],
    [
      'the beta SSO host for the production issuer',
      { jwks_uri: 'https://sso.beta.canvaslms.com/api/lti/security/jwks' },
      /its keys address is not/,
    ],
  ];
  let from = 20;
  for (const [what, changed, sentence] of cases) {
    test(`${what}: a 400 with the sentence, nothing registered, nothing posted to the LMS`, async () => {
      const lms = await serveFakeLms({
        configuration: (origin) => ({
          ...configurationFor('https://canvas.instructure.com', origin),
          ...canvas,
          ...changed,
        }),
        answer: { clientId: `foreign-${from}`, deploymentId: '1' },
      });
      closers.push(lms.close);
      const before = (await listRegistrations(tool.tool.database.db)).length;
      const answer = await openRegistration(tool.url, lms.configurationUrl, `127.0.0.${(from += 1)}`);
      assert.equal(answer.status, 400, answer.text);
      assert.match(answer.text, /The LMS's configuration is not Canvas's own, so the tool did not register/);
      assert.match(answer.text, sentence);
      assert.match(answer.text, /signed only with Canvas's own keys/);
      assert.equal(lms.registrations.length, 0, 'the tool registered itself anyway');
      assert.equal((await listRegistrations(tool.tool.database.db)).length, before);
    });
  }
});

describe('the beta and test environments', () => {
  for (const environment of ['beta', 'test'] as const) {
    test(`${environment}: its issuer is taken with its own SSO host${environment === 'test' ? ", its configuration read on the issuer's own host, where Canvas's code puts it in production" : ''}`, async () => {
      const clientId = `10000000000${environment === 'beta' ? 201 : 301}`;
      const lms = await school({ clientId, environment });
      const registration = new URL(lms.platform.registrationUrl(toolUrls(tool.url).register));
      if (environment === 'test') {
        // dynamic_registration_controller.rb, oidc_configuration_url: `parsed_issuer.host` outside development.
        const { issuer } = HOSTED_CANVAS.test;
        const onSchool = new URL(registration.searchParams.get('openid_configuration')!);
        registration.searchParams.set('openid_configuration', `${issuer}${onSchool.pathname}${onSchool.search}`);
        routeOriginForTests(issuer, onSchool.origin);
        closers.push(async () => routeOriginForTests(issuer, null));
      }
      const page = await fetch(registration);
      assert.equal(page.status, 200, pageText(await page.text()));
      const saved = await registered(clientId);
      assert.equal(saved?.issuer, HOSTED_CANVAS[environment].issuer);
      assert.equal(saved?.jwksUrl, `${HOSTED_CANVAS[environment].ssoOrigin}/api/lti/security/jwks`);
    });
  }
});
