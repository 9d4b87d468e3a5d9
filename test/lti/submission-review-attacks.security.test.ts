// Submission review under attack: the one verifier of launches (lti/verify-launch.ts) refuses a replayed
// token or nonce and a token signed HS256; a learner's review of someone else's submission, as Moodle would launch
// it (view.php?action=gradeReport&user=<anyone> needs no grading right), is refused; a resource link of another
// course or another platform opens nothing of it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SignJWT, decodeProtectedHeader } from 'jose';
import { launch, type LaunchOptions } from '../../src/devplatform/agent.js';
import { payloadOf } from '../support/id-token.js';
import { pageText } from '../support/page-text.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const NOT_VERIFIED = /could not be verified|expired or was already used/;

let tool: TestTool;
let lmsA: TestPlatform;
let lmsB: TestPlatform;
const db = () => tool.tool.database.db;

before(async () => {
  tool = await startTestTool();
  lmsA = await startTestPlatform(tool, { rules: 'moodle', clientId: 'review-a' });
  lmsB = await startTestPlatform(tool, { rules: 'moodle', clientId: 'review-b' });
  for (const lms of [lmsA, lmsB])
    lms.platform.addResourceLink({
      id: 'essay-12',
      title: 'Research essay',
      lineItem: { label: 'Research essay', scoreMaximum: 100 },
    });
  for (const userId of ['instructor-1', 'student-1', 'student-2'])
    assert.equal((await launch(lmsA.platform, { userId, resourceLinkId: 'essay-12' })).status, 200);
  const assignment = await db()
    .selectFrom('assignment')
    .select(['id', 'platform_id'])
    .where('resource_link_id', '=', 'essay-12')
    .executeTakeFirstOrThrow();
  const sam = await db()
    .selectFrom('lti_user')
    .select('id')
    .where('platform_id', '=', assignment.platform_id)
    .where('subject', '=', 'student-1')
    .executeTakeFirstOrThrow();
  await db()
    .insertInto('submission')
    .values({
      assignment_id: assignment.id,
      user_id: sam.id,
      attempt: 1,
      state: 'scored',
      file_label: 'sams-secret-essay.pdf',
      file_type: 'pdf',
      file_size: 2048,
      sha256: 'd'.repeat(64),
      paper_id: 8181,
      similarity: 64,
      report_key: 'key-sam',
      scored_at: new Date(),
    })
    .execute();
});
after(async () => {
  await lmsA.close();
  await lmsB.close();
  await tool.stop();
});

const review = (lms: TestPlatform, viewer: string, forUser: string, extra: Partial<LaunchOptions> = {}) =>
  launch(lms.platform, {
    userId: viewer,
    resourceLinkId: 'essay-12',
    messageType: 'LtiSubmissionReviewRequest',
    forUserId: forUser,
    ...extra,
  });

function assertNothingOfSam(body: string): void {
  assert.doesNotMatch(pageText(body), /sams-secret-essay|64\s*%|Sam Student/);
}

describe('submission review: replays and signatures', () => {
  test('the honest review works (the cases below differ from it in one thing each)', async () => {
    const opened = await review(lmsA, 'instructor-1', 'student-1');
    assert.equal(opened.status, 200, pageText(opened.body));
    assert.match(pageText(opened.body), /sams-secret-essay\.pdf/);
  });

  test('a replayed review token, in a new login of its own, is refused with nothing opened', async () => {
    const first = await review(lmsA, 'instructor-1', 'student-1');
    assert.equal(first.status, 200);
    const again = await review(lmsA, 'instructor-1', 'student-1', { replaceIdToken: () => first.idToken });
    assert.equal(again.status, 401, pageText(again.body));
    assert.match(pageText(again.body), NOT_VERIFIED);
    assert.equal(again.ltik, null);
    assertNothingOfSam(again.body);
  });

  test("a fresh review token that reuses a used token's nonce is refused", async () => {
    const first = await review(lmsA, 'instructor-1', 'student-1');
    const usedNonce = payloadOf(first.idToken).nonce;
    const again = await review(lmsA, 'instructor-1', 'student-1', {
      replaceIdToken: (idToken) => lmsA.platform.sign({ ...payloadOf(idToken), nonce: usedNonce }),
    });
    assert.equal(again.status, 401, pageText(again.body));
    assertNothingOfSam(again.body);
  });

  test('a review token signed HS256 (with the platform key id) is refused', async () => {
    const forged = await review(lmsA, 'instructor-1', 'student-1', {
      replaceIdToken: (idToken) =>
        new SignJWT(payloadOf(idToken))
          .setProtectedHeader({ alg: 'HS256', kid: decodeProtectedHeader(idToken).kid! })
          .sign(new TextEncoder().encode('a secret anyone could pick, 32 bytes')),
    });
    assert.equal(forged.status, 401, pageText(forged.body));
    assertNothingOfSam(forged.body);
  });
});

describe('submission review: who may see whose', () => {
  test('a learner changing for_user in their own token breaks its signature', async () => {
    const altered = await review(lmsA, 'student-2', 'student-2', {
      replaceIdToken: (idToken) => {
        const [header, , signature] = idToken.split('.');
        const payload = Buffer.from(
          JSON.stringify({ ...payloadOf(idToken), [`${CLAIM}/for_user`]: { user_id: 'student-1' } }),
        ).toString('base64url');
        return `${header}.${payload}.${signature}`;
      },
    });
    assert.equal(altered.status, 401, pageText(altered.body));
    assertNothingOfSam(altered.body);
  });

  test("a learner launched for another's submission (Moodle launches whoever opens view.php?action=gradeReport&user=…) is refused with a sentence", async () => {
    const refused = await review(lmsA, 'student-2', 'student-1');
    assert.equal(refused.status, 403);
    assert.match(pageText(refused.body), /You can open only your own submissions/);
    assertNothingOfSam(refused.body);
  });

  test("a learner's session from a refused review opens no instructor page", async () => {
    const refused = await review(lmsA, 'student-2', 'student-1');
    assert.ok(refused.ltik === null || refused.ltik.length > 0);
    const assignment = await db()
      .selectFrom('assignment')
      .select('id')
      .where('resource_link_id', '=', 'essay-12')
      .executeTakeFirstOrThrow();
    const own = await review(lmsA, 'student-2', 'student-2');
    assert.equal(own.status, 200);
    const sam = await db()
      .selectFrom('lti_user')
      .select('id')
      .where('subject', '=', 'student-1')
      .executeTakeFirstOrThrow();
    const page = await fetch(
      `${tool.url}/assignments/${assignment.id}/students/${sam.id}?ltik=${encodeURIComponent(own.ltik ?? '')}`,
    );
    assert.equal(page.status, 403);
    assertNothingOfSam(await page.text());
  });

  test("an instructor of another course naming this course's resource link finds nothing", async () => {
    const otherCourse = await review(lmsA, 'instructor-1', 'student-1', {
      replaceIdToken: (idToken) =>
        lmsA.platform.sign({
          ...payloadOf(idToken),
          [`${CLAIM}/context`]: { id: 'course-202', title: 'Another course' },
        }),
    });
    assert.equal(otherCourse.status, 404, pageText(otherCourse.body));
    assert.match(pageText(otherCourse.body), /Nobody has opened this assignment in the tool yet/);
    assertNothingOfSam(otherCourse.body);
  });

  test('an instructor of another platform with the same resource link id finds nothing', async () => {
    const otherPlatform = await review(lmsB, 'instructor-1', 'student-1');
    assert.equal(otherPlatform.status, 404, pageText(otherPlatform.body));
    assertNothingOfSam(otherPlatform.body);
  });
});
