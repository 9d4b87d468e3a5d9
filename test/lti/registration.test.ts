// The three ways a platform gets registered (dynamic registration, the CLI, and deep linking's placement of an
// assignment that follows), end to end against the dev platform.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch, submitForm } from '../../src/devplatform/agent.js';
import { toolUrls } from '../../src/lti/provider.js';
import { listRegistrations } from '../../src/lti/registrations.js';
import { runToExit } from '../support/process.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
const platforms: TestPlatform[] = [];
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

const ADMIN_TOKEN = 'registration-test-admin-token-0123456789';

before(async () => {
  tool = await startTestTool({ ADMIN_TOKEN });
});
after(async () => {
  for (const platform of platforms) await platform.close();
  await tool.stop();
});

describe('LTI Dynamic Registration', () => {
  test('the LMS opens /lti/register; the tool registers itself with its URLs and scopes, stores client and deployment, and a launch works', async () => {
    const lms = await startTestPlatform(tool, {
      clientId: 'dyn-client',
      deploymentId: 'dyn-deployment',
      register: false,
    });
    platforms.push(lms);
    const page = await fetch(lms.platform.registrationUrl(toolUrls(tool.url).register));
    assert.equal(page.status, 200, await page.clone().text());
    const body = await page.text();
    assert.match(text(body), /The tool is registered/);
    assert.match(body, /<script src="\/static\/registration-close.js"><\/script>/);
    const sent = lms.platform.dynamicRegistrations()[0]!;
    assert.equal(sent.initiate_login_uri, toolUrls(tool.url).login);
    assert.equal(sent.jwks_uri, toolUrls(tool.url).keys);
    assert.match(String(sent.scope), /lti-ags\/scope\/score/);
    assert.match(String(sent.scope), /contextmembership\.readonly/);
    const messages = (
      sent['https://purl.imsglobal.org/spec/lti-tool-configuration'] as { messages: Array<{ type: string }> }
    ).messages.map((m) => m.type);
    // Submission review follows these two, the Asset Processor's messages then (test/assetprocessor/at-registration.test.ts).
    assert.deepEqual(messages.slice(0, 3), [
      'LtiResourceLinkRequest',
      'LtiDeepLinkingRequest',
      'LtiSubmissionReviewRequest',
    ]);
    const saved = (await listRegistrations(tool.tool.database.db)).find((r) => r.clientId === 'dyn-client');
    // The dev platform announces its product family as "dev" (in its openid configuration): stored as announced.
    assert.deepEqual(
      saved && {
        deployments: saved.deploymentIds,
        by: saved.registeredBy,
        active: saved.active,
        product: saved.productFamily,
      },
      { deployments: ['dyn-deployment'], by: 'dynamic-registration', active: true, product: 'dev' },
    );
    lms.platform.addResourceLink({ id: 'after-dr', title: 'After registration' });
    const result = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'after-dr' });
    assert.equal(result.status, 200, text(result.body));
  });

  test('a Canvas registers itself: the tool stores the product family Canvas announced, whatever its address says', async () => {
    const lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'dyn-canvas', register: false });
    platforms.push(lms);
    assert.doesNotMatch(lms.url, /canvas/i, "the platform's address names no product");
    const page = await fetch(lms.platform.registrationUrl(toolUrls(tool.url).register));
    assert.equal(page.status, 200, await page.clone().text());
    const saved = (await listRegistrations(tool.tool.database.db)).find((r) => r.clientId === 'dyn-canvas');
    assert.equal(saved?.productFamily, 'canvas');
    // What the tool asked of it follows the family too: Canvas's own placements for deep linking.
    const sent = lms.platform.dynamicRegistrations()[0]!;
    const deepLinking = (
      sent['https://purl.imsglobal.org/spec/lti-tool-configuration'] as {
        messages: Array<{ type: string; placements?: string[] }>;
      }
    ).messages.find((m) => m.type === 'LtiDeepLinkingRequest');
    assert.deepEqual(deepLinking?.placements, ['assignment_selection', 'link_selection']);
    // Canvas is not told of submission review: whether it accepts the message type is unverified.
    const types = (
      sent['https://purl.imsglobal.org/spec/lti-tool-configuration'] as { messages: Array<{ type: string }> }
    ).messages.map((m) => m.type);
    assert.ok(!types.includes('LtiSubmissionReviewRequest'), types.join(', '));
  });

  test("without the LMS's configuration address: a 400 page that says where to open it", async () => {
    const response = await fetch(`${tool.url}/lti/register`);
    assert.equal(response.status, 400);
    assert.match(text(await response.text()), /openid_configuration/);
  });
});

describe('deep linking', () => {
  test('the instructor adds "a similarity-checked assignment": the link comes back with its similarity column, and opens that assignment', async () => {
    const lms = await startTestPlatform(tool, { clientId: 'dl-client' });
    platforms.push(lms);
    const picker = await launch(lms.platform, { userId: 'instructor-1', messageType: 'LtiDeepLinkingRequest' });
    assert.equal(picker.status, 200, text(picker.body));
    assert.match(text(picker.body), /Add a similarity-checked assignment/);
    const back = await submitForm(picker.body, tool.url, undefined, (fields) => ({
      ...fields,
      title: 'Research essay',
    }));
    assert.equal(back.status, 200, text(back.body));
    assert.match(back.body, /data-auto-submit/);
    const returned = await submitForm(back.body, tool.url);
    assert.equal(returned.status, 200, text(returned.body));
    const [result] = lms.platform.deepLinkResults();
    assert.ok(result, 'the platform received no content item');
    const item = (result.contentItems[0] ?? {}) as {
      type?: string;
      lineItem?: Record<string, unknown>;
      custom?: Record<string, string>;
    };
    assert.equal(item.type, 'ltiResourceLink');
    const assignmentId = item.custom?.assignment_id;
    // The submissionReview makes the LMS's gradebook offer to open a student's submission in the tool (Moodle: grade analysis).
    assert.deepEqual(item.lineItem, {
      scoreMaximum: 100,
      label: 'Research essay',
      resourceId: assignmentId,
      tag: 'similarity',
      submissionReview: {
        reachableBy: [
          'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
          'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
        ],
        url: toolUrls(tool.url).launch,
        custom: { assignment_id: assignmentId },
      },
    });
    // The link's first launch binds it to the assignment deep linking created: no second assignment.
    const before = (await tool.tool.database.db.selectFrom('assignment').select('id').execute()).length;
    const opened = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: result.resourceLinkId });
    assert.equal(opened.status, 200);
    assert.match(opened.url, new RegExp(`/assignments/${assignmentId}/dashboard`));
    assert.equal((await tool.tool.database.db.selectFrom('assignment').select('id').execute()).length, before);
    const student = await launch(lms.platform, { userId: 'student-1', resourceLinkId: result.resourceLinkId });
    assert.match(text(student.body), /Research essay/);
  });

  test('a student cannot open the deep-linking picker', async () => {
    const lms = await startTestPlatform(tool, { clientId: 'dl-student' });
    platforms.push(lms);
    const result = await launch(lms.platform, { userId: 'student-1', messageType: 'LtiDeepLinkingRequest' });
    assert.equal(result.status, 403);
    assert.match(text(result.body), /Only instructors can add the tool/);
  });
});

describe('registration by hand with the CLI', () => {
  test('platform add registers (and adding again adds a deployment, changing a URL is logged), list shows it with the URLs to paste, remove removes it', async () => {
    const env = { ...tool.database.env, ENCRYPTION_KEY: tool.config.encryptionKey, PUBLIC_URL: tool.url };
    const args = [
      'platform',
      'add',
      '--name',
      'Moodle by hand',
      '--issuer',
      'https://moodle.example.edu',
      '--client-id',
      'cli-client',
      '--deployment-id',
      '1',
      '--auth-url',
      'https://moodle.example.edu/mod/lti/auth.php',
      '--token-url',
      'https://moodle.example.edu/mod/lti/token.php',
      '--jwks-url',
      'https://moodle.example.edu/mod/lti/certs.php',
    ];
    const added = await runToExit('cli/main.ts', args, env);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /Initiate login URL \(OpenID Connect\): +http:\/\/127\.0\.0\.1:\d+\/lti\/login/);
    const again = await runToExit(
      'cli/main.ts',
      args.map((a) => (a === '1' ? '2' : a)),
      env,
    );
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /Platform URLs changed/, 'adding a deployment changed no URL');
    // An administrator's change of a platform's URL is written down, with what changed and who changed it.
    const moved = await runToExit(
      'cli/main.ts',
      args.map((a) => (a.endsWith('/token.php') ? 'https://moodle.example.edu/mod/lti/token2.php' : a)),
      env,
    );
    assert.equal(moved.code, 0, moved.stderr);
    const entry = moved.stderr.split('\n').find((line) => line.includes('Platform URLs changed by an administrator'));
    assert.ok(entry, moved.stderr);
    assert.deepEqual(JSON.parse(entry).changes, [
      {
        what: 'token URL',
        was: 'https://moodle.example.edu/mod/lti/token.php',
        now: 'https://moodle.example.edu/mod/lti/token2.php',
      },
    ]);
    assert.equal(JSON.parse(entry).by, 'cli');
    const listed = await runToExit('cli/main.ts', ['platform', 'list'], env);
    assert.match(listed.stdout, /Moodle by hand \(active\)[\s\S]*deployments: +1, 2/);
    const wrong = await runToExit(
      'cli/main.ts',
      [
        'platform',
        'add',
        '--name',
        'x',
        '--issuer',
        'https://x',
        '--client-id',
        'c',
        '--deployment-id',
        'd',
        '--auth-url',
        'http://x.example/a',
        '--token-url',
        'https://x/t',
        '--jwks-url',
        'https://x/k',
      ],
      env,
    );
    assert.equal(wrong.code, 2);
    assert.match(
      wrong.stderr,
      /^--auth-url must be a full https address \(http for localhost only\) such as https:\/\/moodle\.example\.edu\/mod\/lti\/auth\.php; it is http:\/\/x\.example\/a\.$/m,
    );
    const removed = await runToExit(
      'cli/main.ts',
      ['platform', 'remove', '--issuer', 'https://moodle.example.edu', '--client-id', 'cli-client'],
      env,
    );
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(
      (await listRegistrations(tool.tool.database.db)).some((r) => r.clientId === 'cli-client'),
      false,
    );
  });

  test('platform add --product canvas stores the family as given, and adding a deployment without it keeps it', async () => {
    const env = { ...tool.database.env, ENCRYPTION_KEY: tool.config.encryptionKey, PUBLIC_URL: tool.url };
    const args = [
      'platform',
      'add',
      '--name',
      'School LMS',
      '--issuer',
      'https://lms.school.example',
      '--client-id',
      'cli-product',
      '--deployment-id',
      '1',
      '--auth-url',
      'https://lms.school.example/auth',
      '--token-url',
      'https://lms.school.example/token',
      '--jwks-url',
      'https://lms.school.example/keys',
    ];
    const added = await runToExit('cli/main.ts', [...args, '--product', 'canvas'], env);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /product: +canvas/);
    const again = await runToExit(
      'cli/main.ts',
      args.map((a) => (a === '1' ? '2' : a)),
      env,
    );
    assert.equal(again.code, 0, again.stderr);
    const saved = (await listRegistrations(tool.tool.database.db)).find((r) => r.clientId === 'cli-product');
    assert.deepEqual(saved && { product: saved.productFamily, deployments: saved.deploymentIds }, {
      product: 'canvas',
      deployments: ['1', '2'],
    });
  });
});

describe('the CLI refuses a registration that cannot work', () => {
  const env = () => ({ ...tool.database.env, ENCRYPTION_KEY: tool.config.encryptionKey, PUBLIC_URL: tool.url });
  const add = (overrides: Record<string, string>) => {
    const flags: Record<string, string> = {
      '--name': 'Refused LMS',
      '--issuer': 'https://moodle.example.edu',
      '--client-id': 'cli-refused',
      '--deployment-id': '1',
      '--auth-url': 'https://moodle.example.edu/mod/lti/auth.php',
      '--token-url': 'https://moodle.example.edu/mod/lti/token.php',
      '--jwks-url': 'https://moodle.example.edu/mod/lti/certs.php',
      ...overrides,
    };
    return runToExit('cli/main.ts', ['platform', 'add', ...Object.entries(flags).flat()], env());
  };
  const saved = async () =>
    (await listRegistrations(tool.tool.database.db)).filter((r) => r.clientId === 'cli-refused');

  test('an issuer without its scheme and a misspelt product are refused at once, each flag named with what it takes and the product it was meant to be; nothing is saved', async () => {
    const refused = await add({ '--issuer': 'moodle.example.edu', '--product': 'moodel' });
    assert.equal(refused.code, 2, refused.stdout);
    assert.match(
      refused.stderr,
      /^--issuer must be the LMS's issuer as its tool settings show it, a full https address \(http for localhost only\) without query or fragment, such as https:\/\/moodle\.example\.edu; it is moodle\.example\.edu\.$/m,
    );
    assert.match(
      refused.stderr,
      /^--product must be the LMS's product family code, one of moodle, canvas, desire2learn, BlackboardLearn, sakai, schoology; it is moodel: did you mean moodle\?$/m,
    );
    assert.doesNotMatch(refused.stdout, /Saved/);
    assert.deepEqual(await saved(), []);
  });

  test('plain http on a school host, a query in the issuer, and a product the tool does not know are refused; http on localhost is taken', async () => {
    for (const [overrides, flag] of [
      [{ '--issuer': 'http://moodle.example.edu' }, '--issuer'],
      [{ '--issuer': 'https://moodle.example.edu/?course=1' }, '--issuer'],
      [{ '--issuer': 'https://admin@moodle.example.edu' }, '--issuer'],
      [{ '--token-url': 'moodle.example.edu/mod/lti/token.php' }, '--token-url'],
      [{ '--product': 'ilias' }, '--product'],
    ] as const) {
      const refused = await add(overrides);
      assert.equal(refused.code, 2, `${JSON.stringify(overrides)} was taken: ${refused.stdout}`);
      assert.match(refused.stderr, new RegExp(`^${flag} must be `, 'm'));
      if (flag === '--product') assert.doesNotMatch(refused.stderr, /did you mean/, 'ilias is near no known product');
    }
    assert.deepEqual(await saved(), []);
    const local = await add({ '--issuer': 'http://localhost:8081', '--product': 'Moodle' });
    assert.equal(local.code, 0, local.stderr);
    assert.deepEqual(
      (await saved()).map((r) => ({ issuer: r.issuer, product: r.productFamily })),
      [{ issuer: 'http://localhost:8081', product: 'moodle' }],
      'the product is stored as Moodle spells it',
    );
  });
});

describe('registration by hand on the admin page', () => {
  test("the form's LMS product is stored as typed; left empty, the platform's family stays unknown", async () => {
    const form = (fields: Record<string, string>) =>
      fetch(`${tool.url}/admin/registrations`, {
        method: 'POST',
        body: new URLSearchParams({
          adminToken: ADMIN_TOKEN,
          issuer: 'https://d2l.school.example',
          deploymentId: 'd1',
          authUrl: 'https://d2l.school.example/auth',
          tokenUrl: 'https://d2l.school.example/token',
          jwksUrl: 'https://d2l.school.example/keys',
          ...fields,
        }),
      });
    const page = await form({ name: 'Brightspace', clientId: 'admin-product', productFamily: 'desire2learn' });
    assert.equal(page.status, 200, text(await page.text()));
    const blank = await form({ name: 'Unknown LMS', clientId: 'admin-no-product', productFamily: '' });
    assert.equal(blank.status, 200);
    assert.match(text(await blank.text()), /Brightspace admin, desire2learn/);
    const saved = await listRegistrations(tool.tool.database.db);
    assert.deepEqual(
      ['admin-product', 'admin-no-product'].map(
        (clientId) => saved.find((r) => r.clientId === clientId)?.productFamily,
      ),
      ['desire2learn', null],
    );
  });
});
