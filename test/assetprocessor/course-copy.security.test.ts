// A course copy carries the original processor's custom assignment_id. A notice from the copy must never be filed in
// the original course (whose instructor would then see the copy's students, files and scores): it is refused with a
// sentence, and the original keeps only its own papers. A processor attached to a draft (no activity yet) is bound by
// its custom assignment_id only once, in its own course. Attaching again to the same LMS assignment makes no second one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { attachToActivity, postNotices } from '../support/asset-processor.js';
import { startTestPlatform, type ServedPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const ORIGINAL = { id: 'c0c0c0c0-0000-4000-8000-000000000001', title: 'Essay on moraines' };
const COPY_ACTIVITY = 'c0c0c0c0-0000-4000-8000-000000000002';

let tool: TestTool;
let lms: ServedPlatform;
let original: string;

before(async () => {
  tool = await startTestTool({ ASSET_PROCESSOR: 'on' });
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'course-copy' });
  original = await attachToActivity(tool, lms, ORIGINAL);
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const db = () => tool.tool.database.db;
const send = async (claims: Record<string, unknown>) => postNotices(tool, await lms.platform.sign(claims));
const asset = (id: string) => ({
  asset_id: id,
  url: `${lms.url}/assets/${id}`,
  size: 10,
  content_type: 'text/plain',
  title: `${id}.txt`,
  filename: `${id}.txt`,
});

describe('a course copy', () => {
  test("the copy's notice, naming the original processor, is refused (404) and nothing lands in the original course", async () => {
    const claims = lms.platform.submissionNotice({
      activityId: COPY_ACTIVITY,
      submissionId: 'copy-sub:1',
      userId: 'student-3',
      assets: [asset('copy-asset')],
      custom: { assignment_id: original },
    });
    const answer = await send(claims);
    assert.equal(answer.status, 404);
    assert.match(((await answer.json()) as { error: string }).error, /not attached to this assignment in this course/);
    assert.equal(
      (await db().selectFrom('lms_asset').select('id').where('assignment_id', '=', original).execute()).length,
      0,
    );
    const row = await db()
      .selectFrom('assignment')
      .select('activity_id')
      .where('id', '=', original)
      .executeTakeFirstOrThrow();
    assert.equal(row.activity_id, ORIGINAL.id, 'the original stays bound to its own LMS assignment');
  });

  test("a notice naming another course than the processor's finds nothing, even with the right activity", async () => {
    const claims = {
      ...lms.platform.submissionNotice({
        activityId: ORIGINAL.id,
        submissionId: 'other-course:1',
        userId: 'student-3',
        assets: [asset('other-asset')],
      }),
      [`${LTI_CLAIM}/context`]: { id: 'another-course' },
    };
    assert.equal((await send(claims)).status, 404);
  });

  test("a draft's processor is bound by its custom assignment_id once, in its own course; then it is an ordinary bound processor", async () => {
    await db().updateTable('assignment').set({ activity_id: null }).where('id', '=', original).execute();
    const course = lms.platform.course();
    const claims = {
      ...lms.platform.submissionNotice({
        activityId: ORIGINAL.id,
        submissionId: 'draft:1',
        userId: 'student-1',
        assets: [asset('draft-asset')],
        custom: { assignment_id: original },
      }),
      [`${LTI_CLAIM}/context`]: { id: course.id },
    };
    assert.equal((await send(claims)).status, 200);
    const row = await db()
      .selectFrom('assignment')
      .select('activity_id')
      .where('id', '=', original)
      .executeTakeFirstOrThrow();
    assert.equal(row.activity_id, ORIGINAL.id);
    const copy = lms.platform.submissionNotice({
      activityId: COPY_ACTIVITY,
      submissionId: 'copy-sub:2',
      userId: 'student-3',
      assets: [asset('copy-asset-2')],
      custom: { assignment_id: original },
    });
    assert.equal(
      (await send({ ...copy, [`${LTI_CLAIM}/context`]: { id: course.id } })).status,
      404,
      'once bound, a copy cannot take it',
    );
  });

  test('attaching the tool again to the same LMS assignment hands back the processor it has', async () => {
    const again = await attachToActivity(tool, lms, ORIGINAL);
    assert.equal(again, original);
    assert.equal(
      (await db().selectFrom('assignment').select('id').where('activity_id', '=', ORIGINAL.id).execute()).length,
      1,
    );
  });
});
