// The Asset Processor's own launches, which ltijs refuses and the tool verifies itself: report review ("View report"
// beside a file in the LMS), the processor's settings ("Modify") and the EULA. Every launch is signed by the dev
// platform with its key, as Canvas signs them; a launch the tool cannot trust (bad signature, unknown key, wrong
// audience, expired, replayed, unknown deployment, no state) is refused with nothing written.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { defaultSettings, type AssignmentSettings } from '../../src/assignments/settings.js';
import { eulaRefuses } from '../../src/assetprocessor/eula.js';
import { launch, submitForm, type LaunchOptions } from '../../src/devplatform/agent.js';
import type { AssetProcessorLaunch } from '../../src/devplatform/asset-processor-launches.js';
import type { Launch } from '../../src/lti/launch.js';
import { toolUrls } from '../../src/lti/provider.js';
import { resolveSession } from '../../src/lti/session.js';
import { sessionRecordKey } from '../../src/lti/storage.js';
import { attachToActivity, checkedAsset, lmsAsset } from '../support/asset-processor.js';
import { settingsForm } from '../support/forms.js';
import { pageText } from '../support/page-text.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const ACTIVITY = { id: 'b81f0e2a-0000-4000-8000-000000000023', title: 'Essay on rivers' };
const TERMS =
  'You agree that your submitted files are compared with other papers.\n\nThe tool keeps a copy of each file.';

let tool: TestTool;
let lms: TestPlatform;
let assignmentId: string;
let checkedSubmission: string;

const db = () => tool.tool.database.db;

before(async () => {
  tool = await startTestTool({ ASSET_PROCESSOR: 'on', ASSET_PROCESSOR_EULA: 'on', ASSET_PROCESSOR_EULA_TERMS: TERMS });
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'ap-launches' });
  assignmentId = await attachToActivity(tool, lms, ACTIVITY);
  // What the asset fetch leaves behind (not built yet): student-1's file admitted as a checked submission, another
  // file still being fetched, and one that failed.
  const file = { subject: 'student-1', lmsSubmissionId: 'sub-1:1' };
  checkedSubmission = await checkedAsset(tool, lms, assignmentId, {
    ...file,
    name: 'Sam Student',
    assetId: 'asset-checked',
    fileLabel: 'rivers.pdf',
    paperId: 5151,
  });
  await db()
    .insertInto('lms_asset')
    .values([
      { ...lmsAsset(lms, assignmentId, { ...file, assetId: 'asset-fetching' }), state: 'received' },
      {
        ...lmsAsset(lms, assignmentId, { ...file, assetId: 'asset-failed' }),
        state: 'failed',
        error_code: 'UNSUPPORTED_ASSET_TYPE',
        error_comment: 'The tool checks PDF, Word and plain-text files only; this file is an image.',
      },
    ])
    .execute();
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const review = (assetId: string, reportType = 'originality'): AssetProcessorLaunch => ({
  messageType: 'LtiReportReviewRequest',
  activityId: ACTIVITY.id,
  submissionId: 'sub-1:1',
  assetId,
  reportType,
  forUserId: 'student-1',
});

const open = (userId: string, assetProcessor: AssetProcessorLaunch, extra: Partial<LaunchOptions> = {}) =>
  launch(lms.platform, { userId, assetProcessor, ...extra });

async function showToStudents(visibleTo: AssignmentSettings['resultsVisibleTo']) {
  await db()
    .updateTable('assignment')
    .set({ settings: JSON.stringify({ ...defaultSettings(), resultsVisibleTo: visibleTo }) })
    .where('id', '=', assignmentId)
    .execute();
}

/** What a launch writes: sessions, nonces, people, and the states it uses up. */
async function written() {
  const records = await db()
    .selectFrom('lti_record')
    .select(['collection', 'record_key'])
    .where('collection', 'in', ['session', 'nonce'])
    .orderBy('collection')
    .orderBy('record_key')
    .execute();
  const people = await db().selectFrom('lti_user').select('subject').orderBy('subject').execute();
  return { records: records.map((record) => `${record.collection} ${record.record_key}`), people };
}

/**
 * What was written since `before`: records and people that were not there. A nonce lives ten seconds and the storage's
 * sweep deletes it when it has expired (lti/storage.ts), on a busy machine between two reads: what went is no write.
 */
async function writtenSince(before: Awaited<ReturnType<typeof written>>) {
  const now = await written();
  return {
    records: now.records.filter((record) => !before.records.includes(record)),
    people: now.people.filter((person) => !before.people.some((known) => known.subject === person.subject)),
  };
}

describe('report review', () => {
  test("the instructor opens the report viewer of the file's checked paper", async () => {
    const page = await open('instructor-1', review('asset-checked'));
    assert.equal(page.status, 200, pageText(page.body));
    assert.match(page.url, new RegExp(`/reports/${checkedSubmission}/similarity/view\\?ltik=`));
    assert.match(pageText(page.body), /Similarity report/);
    assert.match(page.body, /data-pdf-url="\/reports\/[^"]+\/similarity\/file\?/);
  });

  test('the student who submitted the file opens it when the assignment shows students their reports', async () => {
    await showToStudents('students-after-scoring');
    const page = await open('student-1', review('asset-checked'));
    assert.equal(page.status, 200, pageText(page.body));
    assert.match(page.url, new RegExp(`/reports/${checkedSubmission}/similarity/view`));
    assert.match(pageText(page.body), /Similarity report/);
  });

  test('the same student is told the instructor has not made it available while reports are for instructors only', async () => {
    await showToStudents('instructors');
    try {
      const page = await open('student-1', review('asset-checked'));
      assert.equal(page.status, 403);
      assert.match(pageText(page.body), /Your instructor has not made this report available to you/);
    } finally {
      await showToStudents('students-after-scoring');
    }
  });

  test('another student, in a launch the LMS signed for them naming this file, is refused', async () => {
    const page = await open('student-2', review('asset-checked'));
    assert.equal(page.status, 403);
    assert.match(pageText(page.body), /another student's file/);
    assert.doesNotMatch(page.body, /data-pdf-url/);
  });

  test('a file still being fetched gets a page saying so; a failed one its reason', async () => {
    const fetching = await open('instructor-1', review('asset-fetching'));
    assert.equal(fetching.status, 200);
    assert.match(pageText(fetching.body), /being checked: the LMS announced it and the tool is fetching it/);
    const failed = await open('student-1', review('asset-failed'));
    assert.equal(failed.status, 200);
    assert.match(pageText(failed.body), /could not be checked.*this file is an image/);
  });

  test('a file the tool never heard of is a 404 with a sentence', async () => {
    const page = await open('instructor-1', review('asset-unknown'));
    assert.equal(page.status, 404);
    assert.match(pageText(page.body), /no record of this file/);
  });
});

describe('launches the tool cannot trust are refused, and nothing is written', () => {
  const resign =
    (change: (payload: Record<string, unknown>) => Record<string, unknown>, expiresInSeconds?: number) =>
    async (idToken: string) =>
      lms.platform.sign(change({ ...decodeJwt(idToken) }), expiresInSeconds === undefined ? {} : { expiresInSeconds });
  const cases: Array<[string, number, RegExp, Partial<LaunchOptions>]> = [
    [
      'a bad signature',
      401,
      /could not be verified/,
      {
        replaceIdToken: (jwt) => {
          const [head, body, signature] = jwt.split('.');
          return `${head}.${body}.${signature!.slice(0, -6)}${signature!.slice(-6) === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA'}`;
        },
      },
    ],
    [
      'a key the LMS does not publish',
      401,
      /could not be verified/,
      {
        replaceIdToken: async (jwt) => {
          const { privateKey } = await generateKeyPair('RS256');
          return new SignJWT({ ...decodeJwt(jwt) })
            .setProtectedHeader({ alg: 'RS256', kid: 'not-the-platforms' })
            .sign(privateKey);
        },
      },
    ],
    [
      "a signature by another key under the LMS's key id",
      401,
      /could not be verified/,
      {
        replaceIdToken: async (jwt) => {
          const { privateKey } = await generateKeyPair('RS256');
          const kid = JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()).kid as string;
          return new SignJWT({ ...decodeJwt(jwt) }).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
        },
      },
    ],
    [
      "another tool's audience",
      403,
      /not registered/,
      { replaceIdToken: resign((p) => ({ ...p, aud: 'another-tool', azp: 'another-tool' })) },
    ],
    [
      'several audiences and no azp naming the tool',
      401,
      /could not be verified/,
      { replaceIdToken: resign(({ azp: _azp, ...p }) => ({ ...p, aud: [String(p.aud), 'another-tool'] })) },
    ],
    ['an expired token', 401, /could not be verified/, { replaceIdToken: resign((p) => p, -60) }],
    [
      'an unknown deployment',
      403,
      /not registered/,
      { replaceIdToken: resign((p) => ({ ...p, [`${LTI_CLAIM}/deployment_id`]: 'no-such-deployment' })) },
    ],
    // Every launch is answered alike by the one verifier (lti/verify-launch.ts): a token that is not an LTI 1.3
    // message is not verified, as ltijs answered for resource links.
    [
      'another LTI version',
      401,
      /could not be verified/,
      { replaceIdToken: resign((p) => ({ ...p, [`${LTI_CLAIM}/version`]: '1.1' })) },
    ],
    ['no state', 400, /incomplete/, { editForm: ({ state: _state, ...fields }) => fields }],
  ];
  for (const [what, status, sentence, options] of cases) {
    test(`${what}: ${status}`, async () => {
      const before = await written();
      const page = await open('instructor-1', review('asset-checked'), options);
      assert.equal(page.status, status, pageText(page.body));
      assert.match(pageText(page.body), sentence);
      assert.deepEqual(await writtenSince(before), { records: [], people: [] });
    });
  }

  test('a replayed id_token (its nonce used once already) is refused', async () => {
    const first = await open('instructor-1', review('asset-checked'));
    assert.equal(first.status, 200);
    const before = await written();
    const replay = await open('instructor-1', review('asset-checked'), { replaceIdToken: () => first.idToken });
    assert.equal(replay.status, 401);
    assert.match(pageText(replay.body), /could not be verified/);
    assert.deepEqual(await writtenSince(before), { records: [], people: [] });
  });
});

describe("the processor's settings", () => {
  test('the instructor gets the check settings form of the processor, and a change is saved', async () => {
    const page = await open('instructor-1', {
      messageType: 'LtiAssetProcessorSettingsRequest',
      activityId: ACTIVITY.id,
    });
    assert.equal(page.status, 200, pageText(page.body));
    assert.match(page.url, new RegExp(`/assignments/${assignmentId}/settings\\?ltik=`));
    const ltik = new URL(page.url).searchParams.get('ltik') ?? '';
    const form = settingsForm(defaultSettings(), ltik);
    form.set('excludeQuotes', 'on');
    form.set('excludeThresholdWords', '12');
    const saved = await fetch(`${tool.url}/assignments/${assignmentId}/settings`, { method: 'POST', body: form });
    assert.equal(saved.status, 200, pageText(await saved.text()));
    const row = await db()
      .selectFrom('assignment')
      .select('settings')
      .where('id', '=', assignmentId)
      .executeTakeFirstOrThrow();
    const settings = row.settings as AssignmentSettings;
    assert.equal(settings.excludeQuotes, true);
    assert.equal(settings.excludeThresholdWords, 12);
  });

  test('a processor attached to a draft (no activity id yet) is found by its assignment_id and bound to the activity', async () => {
    const draft = await db()
      .insertInto('assignment')
      .columns([
        'platform_id',
        'course_id',
        'resource_link_id',
        'title',
        'settings',
        'created_by',
        'line_item_url',
        'line_items_url',
        'memberships_url',
        'kind',
        'activity_id',
      ])
      .expression((eb) =>
        eb
          .selectFrom('assignment')
          .select([
            'platform_id',
            'course_id',
            'resource_link_id',
            eb.val('Draft essay').as('title'),
            'settings',
            'created_by',
            'line_item_url',
            'line_items_url',
            'memberships_url',
            'kind',
            eb.val(null).as('activity_id'),
          ])
          .where('id', '=', assignmentId),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    const activityId = 'c0ffee00-0000-4000-8000-000000000023';
    const page = await open('instructor-1', {
      messageType: 'LtiAssetProcessorSettingsRequest',
      activityId,
      custom: { assignment_id: draft.id },
    });
    assert.equal(page.status, 200, pageText(page.body));
    assert.match(page.url, new RegExp(`/assignments/${draft.id}/settings`));
    const row = await db()
      .selectFrom('assignment')
      .select('activity_id')
      .where('id', '=', draft.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.activity_id, activityId);
  });

  test('a student is refused', async () => {
    const page = await open('student-1', { messageType: 'LtiAssetProcessorSettingsRequest', activityId: ACTIVITY.id });
    assert.equal(page.status, 403);
    assert.match(pageText(page.body), /Only instructors/);
  });
});

describe('the EULA', () => {
  test('the terms, Accept: told to the LMS and kept, after which the files of that student are checked', async () => {
    assert.equal(await eulaRefuses(db(), { assignmentId, lmsUserId: 'student-3' }, true), true);
    const page = await open('student-3', { messageType: 'LtiEulaRequest' });
    assert.equal(page.status, 200, pageText(page.body));
    assert.match(pageText(page.body), /Terms of use.*compared with other papers.*keeps a copy/);
    const accepted = await submitForm(page.body, tool.url);
    assert.equal(accepted.status, 200, pageText(accepted.body));
    assert.match(pageText(accepted.body), /You accepted the terms/);
    assert.match(accepted.body, /data-close-at-once="true"/);
    assert.match(accepted.body, /eula-close\.js/);
    const told = lms.platform.eulaAcceptances();
    assert.deepEqual(
      told.map((a) => [a.userId, a.accepted]),
      [['student-3', true]],
    );
    assert.equal(await eulaRefuses(db(), { assignmentId, lmsUserId: 'student-3' }, true), false);
    assert.equal(
      await eulaRefuses(db(), { assignmentId, lmsUserId: 'student-2' }, true),
      true,
      'another student has not accepted',
    );
  });

  test('when the LMS does not take the acceptance, the student is told and the tool records nothing', async () => {
    const page = await open('student-2', { messageType: 'LtiEulaRequest' });
    assert.equal(page.status, 200, pageText(page.body));
    lms.platform.setFaults({ agsStatus: 500 });
    try {
      const refused = await submitForm(page.body, tool.url);
      assert.equal(refused.status, 502);
      assert.match(pageText(refused.body), /did not record your acceptance/);
      assert.match(refused.body, /data-close-at-once="false"/);
    } finally {
      lms.platform.setFaults({});
    }
    assert.equal(await eulaRefuses(db(), { assignmentId, lmsUserId: 'student-2' }, true), true);
    assert.ok(!lms.platform.eulaAcceptances().some((a) => a.userId === 'student-2'));
  });

  test('a file of a student who has not accepted is not checked (EULA_NOT_ACCEPTED); one who has is', async () => {
    const file = (topic: string) => ({
      content: Buffer.from(`${topic} `.repeat(200)),
      filename: `${topic}.txt`,
      contentType: 'text/plain',
    });
    const refused = await lms.platform.submitToActivity({
      activityId: ACTIVITY.id,
      userId: 'student-2',
      files: [file('tides')],
    });
    const taken = await lms.platform.submitToActivity({
      activityId: ACTIVITY.id,
      userId: 'student-3',
      files: [file('deltas')],
    });
    assert.equal(refused.status, 200, refused.body);
    assert.equal(taken.status, 200, taken.body);
    const reportOf = (assetId: string) =>
      lms.platform.assetReports().find((report) => report.assetId === assetId && report.type === 'originality');
    const deadline = Date.now() + 30_000;
    // Each file's first report says it is in hand (Processing); the refused one's then says why it was not checked.
    while (
      (reportOf(refused.assets[0]!.asset_id)?.processingProgress !== 'Failed' ||
        !reportOf(taken.assets[0]!.asset_id)) &&
      Date.now() < deadline
    )
      await new Promise((resolve) => setTimeout(resolve, 200));
    const notAccepted = reportOf(refused.assets[0]!.asset_id);
    assert.equal(notAccepted?.processingProgress, 'Failed');
    assert.equal(notAccepted?.errorCode, 'EULA_NOT_ACCEPTED');
    assert.match(notAccepted?.comment ?? '', /has not accepted/);
    assert.ok(
      ['Processing', 'Processed'].includes(reportOf(taken.assets[0]!.asset_id)?.processingProgress ?? ''),
      'the file of a student who accepted is being checked',
    );
  });

  test('the EULA off: nobody is refused', async () => {
    assert.equal(await eulaRefuses(db(), { assignmentId, lmsUserId: 'student-2' }, false), false);
  });

  test('the Accept form refuses a session that is not an EULA launch', async () => {
    const settings = await open('instructor-1', {
      messageType: 'LtiAssetProcessorSettingsRequest',
      activityId: ACTIVITY.id,
    });
    const ltik = new URL(settings.url).searchParams.get('ltik') ?? '';
    assert.notEqual(ltik, '');
    const before = lms.platform.eulaAcceptances().length;
    const answer = await fetch(`${tool.url}/asset-processor/eula`, {
      method: 'POST',
      body: new URLSearchParams({ ltik }),
    });
    assert.equal(answer.status, 403);
    assert.match(pageText(await answer.text()), /accepted from the page your LMS opens/);
    assert.equal(lms.platform.eulaAcceptances().length, before);
  });

  test('registration asks the LMS for the EULA launch and its scopes', async () => {
    const other = await startTestPlatform(tool, { rules: 'canvas', clientId: 'ap-eula-registration', register: false });
    try {
      const page = await fetch(other.platform.registrationUrl(toolUrls(tool.url).register));
      assert.equal(page.status, 200, await page.text());
      const sent = other.platform.dynamicRegistrations()[0]!;
      assert.match(String(sent.scope), /scope\/eula\/user/);
      const messages = (
        sent['https://purl.imsglobal.org/spec/lti-tool-configuration'] as { messages: Array<{ type: string }> }
      ).messages;
      assert.ok(messages.some((m) => m.type === 'LtiEulaRequest'));
    } finally {
      await other.close();
    }
  });
});

describe('every message type in one shape', () => {
  /** The records kept of sessions: the tool's, and any in the two shapes ltijs gave them. */
  const sessionCollections = async () =>
    (
      await db()
        .selectFrom('lti_record')
        .select('collection')
        .where('collection', 'in', ['session', 'idtoken', 'contexttoken'])
        .execute()
    ).map((row) => row.collection);

  test('each launch is kept as one record: the launch the verifier read, which the page reads back as it was kept', async () => {
    lms.platform.addResourceLink({ id: 'shape-link', title: 'Shape', lineItem: { label: 'Shape', scoreMaximum: 100 } });
    const launches: Array<{ type: string; options: LaunchOptions; particular: Record<string, unknown> }> = [
      {
        type: 'LtiResourceLinkRequest',
        options: { userId: 'instructor-1', resourceLinkId: 'shape-link' },
        particular: { targetLinkUri: toolUrls(tool.url).launch },
      },
      {
        type: 'LtiDeepLinkingRequest',
        options: { userId: 'instructor-1', messageType: 'LtiDeepLinkingRequest' },
        particular: { acceptTypes: ['ltiResourceLink'], acceptMultiple: false, assetProcessor: null },
      },
      {
        type: 'LtiSubmissionReviewRequest',
        options: {
          userId: 'instructor-1',
          messageType: 'LtiSubmissionReviewRequest',
          resourceLinkId: 'shape-link',
          forUserId: 'student-1',
        },
        particular: { resourceLinkId: 'shape-link', forUser: { userId: 'student-1', name: 'student-1' } },
      },
      {
        type: 'LtiReportReviewRequest',
        options: { userId: 'student-1', assetProcessor: review('asset-checked') },
        particular: {
          activityId: ACTIVITY.id,
          lmsSubmissionId: 'sub-1:1',
          assetId: 'asset-checked',
          reportType: 'originality',
        },
      },
      {
        type: 'LtiAssetProcessorSettingsRequest',
        options: {
          userId: 'instructor-1',
          assetProcessor: { messageType: 'LtiAssetProcessorSettingsRequest', activityId: ACTIVITY.id },
        },
        particular: { activityId: ACTIVITY.id, custom: {} },
      },
      {
        type: 'LtiEulaRequest',
        options: { userId: 'student-3', assetProcessor: { messageType: 'LtiEulaRequest' } },
        particular: {},
      },
    ];
    for (const { type, options, particular } of launches) {
      const before = await sessionCollections();
      const result = await launch(lms.platform, options);
      assert.ok(result.status < 400, `${type}: ${result.status} ${pageText(result.body).slice(0, 300)}`);
      // One record (the same launch again takes its record again), and nothing in the shapes ltijs gave sessions.
      const after = await sessionCollections();
      assert.ok(after.length - before.length <= 1, `${type}: ${after.length - before.length} records written`);
      assert.deepEqual([...new Set(after)], ['session']);
      // The record the ltik names (in the redirect, or in the EULA page's form).
      const ltik = result.ltik ?? result.body.match(/name="ltik" value="([^"]+)"/)?.[1];
      assert.ok(ltik, `${type}: no ltik`);
      const named = decodeJwt(ltik) as { contextId: string; user: string };
      const { doc } = await db()
        .selectFrom('lti_record')
        .select('doc')
        .where('collection', '=', 'session')
        .where('record_key', '=', sessionRecordKey(named))
        .executeTakeFirstOrThrow();
      const kept = doc as { launch: Launch };
      assert.deepEqual(Object.keys(kept), ['launch']);
      // The message type and what is particular to it, as its file read it; who launched, from where.
      assert.equal(kept.launch.message.type, type);
      for (const [field, value] of Object.entries(particular))
        assert.deepEqual((kept.launch.message as Record<string, unknown>)[field], value, `${type}: message.${field}`);
      assert.equal(kept.launch.subject, options.userId);
      assert.equal(kept.launch.issuer, lms.platform.registration().issuer);
      // What every page of the session gets is that launch, as it was kept.
      const session = await resolveSession({ db: db(), encryptionKey: tool.config.encryptionKey }, ltik);
      assert.ok(typeof session === 'object', `${type}: the session reads ${String(session)}`);
      assert.deepEqual(session.launch, kept.launch);
    }
  });
});
