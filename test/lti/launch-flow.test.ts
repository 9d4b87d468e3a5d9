// A launch through the one chain (src/lti/launch-flow.ts) without express or HTTP on the tool's side: the request as
// plain values, the outcome as a value. The LMS is the dev platform (its keys served over HTTP, as an LMS serves
// them); the tool's database is real.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runLaunch, type LaunchFlowDeps, type LaunchRequest } from '../../src/lti/launch-flow.js';
import { issueState } from '../../src/lti/oidc-state.js';
import { launchClaims } from '../support/id-token.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
let lms: TestPlatform;
let deps: LaunchFlowDeps;
before(async () => {
  tool = await startTestTool();
  lms = await startTestPlatform(tool);
  deps = {
    db: tool.tool.database.db,
    encryptionKey: tool.config.encryptionKey,
    toolOrigin: new URL(tool.url).origin,
  };
});
after(async () => {
  await lms.close();
  await tool.stop();
});

/** A launch as the LMS posts it: a signed id_token and the state the tool signed at login. */
async function posted(overrides: Record<string, unknown> = {}, request: Partial<LaunchRequest> = {}) {
  const claims = launchClaims(lms.platform, { sub: 'student-7', ...overrides });
  const state = issueState(deps.encryptionKey, String(claims.iss), null);
  return {
    body: { id_token: await lms.platform.sign(claims), state },
    cookies: undefined,
    fetchSite: 'cross-site',
    origin: undefined,
    path: '/launch',
    ...request,
  } satisfies LaunchRequest;
}

const takeAll = () => null;

test('a launch opens: the session names the person, the course and the launch as verified', async () => {
  const outcome = await runLaunch(deps, await posted(), takeAll);
  assert.equal(outcome.outcome, 'opened');
  if (outcome.outcome !== 'opened') return;
  assert.equal(outcome.started.launch.subject, 'student-7');
  assert.equal(outcome.started.launch.context?.id, 'course-101');
  assert.equal(outcome.started.launch.message.type, 'LtiResourceLinkRequest');
  assert.ok(outcome.started.ltik.length > 0);
  const person = await deps.db
    .selectFrom('lti_user')
    .select('subject')
    .where('id', '=', outcome.started.userId)
    .executeTakeFirstOrThrow();
  assert.equal(person.subject, 'student-7');
});

test('the same form posted twice: the second is refused as a state used, 401', async () => {
  const request = await posted({ sub: 'student-8' });
  assert.equal((await runLaunch(deps, request, takeAll)).outcome, 'opened');
  const again = await runLaunch(deps, request, takeAll);
  assert.deepEqual(again.outcome === 'refused' && { status: again.status, sentence: again.sentence }, {
    status: 401,
    sentence: { key: 'launch.stateUsed' },
  });
});

test('each refusal before the signature is trusted names its status, sentence and the platform that may frame it', async () => {
  const issuer = lms.platform.registration().issuer;
  const cases: Array<[string, LaunchRequest, number, string]> = [
    ['a body without a state', { ...(await posted()), body: { id_token: 'x' } }, 400, 'launch.bodyIncomplete'],
    [
      'a token that is no JWT',
      { ...(await posted()), body: { id_token: 'x.y.z', state: 's' } },
      401,
      'launch.unreadable',
    ],
    [
      "another login's state cookie",
      await posted({}, { cookies: 'stateSOMEONEELSE=https://lms.example' }),
      401,
      'launch.otherBrowser',
    ],
    [
      'a deployment the platform never registered',
      await posted({ 'https://purl.imsglobal.org/spec/lti/claim/deployment_id': 'unknown-deployment' }),
      403,
      'launch.deploymentUnregistered',
    ],
  ];
  for (const [what, request, status, key] of cases) {
    const outcome = await runLaunch(deps, request, takeAll);
    assert.equal(outcome.outcome, 'refused', what);
    if (outcome.outcome !== 'refused') continue;
    assert.deepEqual([outcome.status, outcome.sentence.key], [status, key], what);
    if (status !== 400 && key !== 'launch.unreadable') assert.equal(outcome.platform?.issuer, issuer, what);
  }
});

test("the caller's check refuses a verified launch before anything is written", async () => {
  const before = await deps.db.selectFrom('lti_user').select('id').where('subject', '=', 'student-9').execute();
  const outcome = await runLaunch(deps, await posted({ sub: 'student-9' }), () => ({
    status: 403,
    sentence: { key: 'launch.notOffered' },
    reason: 'not now',
  }));
  assert.equal(outcome.outcome === 'refused' && outcome.status, 403);
  const afterwards = await deps.db.selectFrom('lti_user').select('id').where('subject', '=', 'student-9').execute();
  assert.deepEqual([before.length, afterwards.length], [0, 0]);
});

test("a launch kept in the LMS's platform storage is asked back first, then taken only from the tool's own page", async () => {
  const claims = launchClaims(lms.platform, { sub: 'student-10' });
  const state = issueState(deps.encryptionKey, String(claims.iss), {
    target: '_parent',
    origin: 'https://lms.example',
  });
  const idToken = await lms.platform.sign(claims);
  const base = { cookies: undefined, origin: undefined, path: '/launch' };
  const first = await runLaunch(
    deps,
    { ...base, body: { id_token: idToken, state }, fetchSite: 'cross-site' },
    takeAll,
  );
  assert.equal(first.outcome, 'check storage');
  const fromElsewhere = await runLaunch(
    deps,
    { ...base, body: { id_token: idToken, state, lti_storage_checked: '1' }, fetchSite: 'cross-site' },
    takeAll,
  );
  assert.equal(fromElsewhere.outcome === 'refused' && fromElsewhere.sentence.key, 'launch.otherBrowser');
  const fromToolPage = await runLaunch(
    deps,
    { ...base, body: { id_token: idToken, state, lti_storage_checked: '1' }, fetchSite: 'same-origin' },
    takeAll,
  );
  assert.equal(fromToolPage.outcome, 'opened');
});
