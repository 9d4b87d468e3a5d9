// A student's erasure reaches everything the tool holds of them, the Asset Processor's records included: the files
// the LMS announced (their LMS ids, names, titles, addresses, reports), their acceptance of the terms, the score
// clock, and ltijs's session records (name, e-mail), which key on the LMS user id as text and are not reached by
// cascades from the person's row. `student export` lists the same. Every table of the tool's schema is named below
// as holding a user's data (with the query that finds it) or as holding none: a new table fails this test until it
// is placed in one list, and, when it holds user data, erased.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, test } from 'node:test';
import { launch, submitForm } from '../../src/devplatform/agent.js';
import { DEMO_USER } from '../../src/sandbox/index.js';
import { attachToActivity, checkedAsset, lmsAsset } from '../support/asset-processor.js';
import { pageText } from '../support/page-text.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { runToExit } from '../support/process.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const ACTIVITY = { id: 'e5f6a7b8-0000-4000-8000-000000000061', title: 'Essay on tides' };
const DIARY = 'Private diary of Erin Erased.pdf';

let tool: TestTool;
let lms: TestPlatform;
let assignmentId: string;
const db = () => tool.tool.database.db;

/** How many rows of each table hold the data of the student `subject` of the test's LMS. */
const USER_DATA: Record<string, (subject: string) => Promise<number>> = {
  lti_user: (subject) => count(sql`SELECT count(*) FROM lti_user WHERE subject = ${subject}`),
  course_member: (subject) =>
    count(sql`SELECT count(*) FROM course_member m JOIN lti_user u ON u.id = m.user_id WHERE u.subject = ${subject}`),
  submission: (subject) =>
    count(sql`SELECT count(*) FROM submission s JOIN lti_user u ON u.id = s.user_id WHERE u.subject = ${subject}`),
  // The bytes of a paper not yet at the service, found through the submission that waits to send it.
  received_file_chunk: (subject) =>
    count(
      sql`SELECT count(*) FROM received_file_chunk c JOIN submission s ON s.file_id = c.file_id JOIN lti_user u ON u.id = s.user_id WHERE u.subject = ${subject}`,
    ),
  submission_event: (subject) =>
    count(
      sql`SELECT count(*) FROM submission_event e JOIN submission s ON s.id = e.submission_id JOIN lti_user u ON u.id = s.user_id WHERE u.subject = ${subject}`,
    ),
  // created_by: set to null with the person (the assignment is the course's, not theirs).
  assignment: (subject) =>
    count(sql`SELECT count(*) FROM assignment a JOIN lti_user u ON u.id = a.created_by WHERE u.subject = ${subject}`),
  student_due_date: (subject) =>
    count(
      sql`SELECT count(*) FROM student_due_date d JOIN lti_user u ON u.id = d.user_id WHERE u.subject = ${subject}`,
    ),
  instructor_visit: (subject) =>
    count(
      sql`SELECT count(*) FROM instructor_visit v JOIN lti_user u ON u.id = v.user_id WHERE u.subject = ${subject}`,
    ),
  lms_asset: (subject) => count(sql`SELECT count(*) FROM lms_asset WHERE lms_user_id = ${subject}`),
  asset_report: (subject) =>
    count(
      sql`SELECT count(*) FROM asset_report r JOIN lms_asset x ON x.id = r.asset_row_id WHERE x.lms_user_id = ${subject}`,
    ),
  eula_acceptance: (subject) => count(sql`SELECT count(*) FROM eula_acceptance WHERE lms_user_id = ${subject}`),
  score_clock: (subject) => count(sql`SELECT count(*) FROM score_clock WHERE user_subject = ${subject}`),
  lti_record: (subject) => count(sql`SELECT count(*) FROM lti_record WHERE doc->'launch'->>'subject' = ${subject}`),
};

/** Tables that hold nothing of a person: registrations, courses, accounts, the tool's own bookkeeping. */
const NO_USER_DATA = [
  'platform',
  'platform_frame_origin',
  'platform_deployment',
  'course',
  'checker_account',
  'lti_config_version',
  'used_oidc_state',
  'kysely_migration',
  'kysely_migration_lock',
];

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const result = await query.execute(db());
  return Number((result.rows[0] as { count: string }).count);
}

async function holdings(subject: string): Promise<Record<string, number>> {
  return Object.fromEntries(
    await Promise.all(Object.entries(USER_DATA).map(async ([table, rows]) => [table, await rows(subject)] as const)),
  );
}

before(async () => {
  tool = await startTestTool({
    ASSET_PROCESSOR: 'on',
    ASSET_PROCESSOR_EULA: 'on',
    ASSET_PROCESSOR_EULA_TERMS: 'Your files are compared with other papers.',
  });
  lms = await startTestPlatform(tool, { rules: 'canvas', clientId: 'security-erasure' });
  assignmentId = await attachToActivity(tool, lms, ACTIVITY);
  const { platform_id: platformId } = await db()
    .selectFrom('assignment')
    .select('platform_id')
    .where('id', '=', assignmentId)
    .executeTakeFirstOrThrow();
  // Two students with the same kinds of records: one is erased, the other must keep all of theirs.
  for (const [subject, n] of [
    ['student-erased', 1],
    ['student-kept', 2],
  ] as const) {
    const file = { subject, lmsSubmissionId: `sub-${n}:1` };
    const checked = await checkedAsset(tool, lms, assignmentId, {
      ...file,
      name: `Name of ${subject}`,
      assetId: `asset-${n}`,
      fileLabel: 'tides.pdf',
      paperId: 7000 + n,
    });
    await db()
      .insertInto('submission_event')
      .values({ submission_id: checked, from_state: null, to_state: 'received', reason: 'received from the LMS' })
      .execute();
    // An extension the LMS stated for them, and a dashboard visit (as a course's instructor elsewhere might have).
    const { user_id: userId } = await db()
      .selectFrom('submission')
      .select('user_id')
      .where('id', '=', checked)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('student_due_date')
      .values({ assignment_id: assignmentId, user_id: userId, due_at: new Date('2099-01-01T00:00:00Z') })
      .execute();
    await db()
      .insertInto('instructor_visit')
      .values({ assignment_id: assignmentId, user_id: userId, session_hash: `visit-${n}`, seen_at: new Date() })
      .execute();
    const { id: assetRow } = await db()
      .selectFrom('lms_asset')
      .select('id')
      .where('submission_id', '=', checked)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('asset_report')
      .values({
        asset_row_id: assetRow,
        type: 'originality',
        progress: 'Processed',
        body: JSON.stringify({ comment: 'checked' }),
        posted_timestamp: new Date(),
      })
      .execute();
    await db()
      .insertInto('lms_asset')
      .values({
        ...lmsAsset(lms, assignmentId, { ...file, assetId: `diary-${n}` }),
        title: DIARY,
        filename: DIARY,
        state: 'failed',
        error_code: 'UNSUPPORTED_ASSET_TYPE',
        error_comment: 'Not a paper.',
      })
      .execute();
    await db()
      .insertInto('score_clock')
      .values({
        platform_id: platformId,
        line_item_url: `${lms.url}/lineitems/1`,
        user_subject: subject,
        last_timestamp: new Date(),
      })
      .execute();
    // The EULA launch (ltijs's session records with the name and e-mail) and its acceptance.
    lms.platform.addUser({
      id: subject,
      name: `Name of ${subject}`,
      email: `${subject}@example.edu`,
      roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
    });
    const page = await launch(lms.platform, { userId: subject, assetProcessor: { messageType: 'LtiEulaRequest' } });
    assert.equal(page.status, 200, pageText(page.body));
    const accepted = await submitForm(page.body, tool.url);
    assert.equal(accepted.status, 200, pageText(accepted.body));
  }
});
after(async () => {
  await lms.close();
  await tool.stop();
});

const cli = (action: 'export' | 'erase', subject: string) =>
  runToExit('cli/main.ts', ['student', action, '--issuer', lms.platform.registration().issuer, '--subject', subject], {
    ...tool.database.env,
    ENCRYPTION_KEY: tool.config.encryptionKey,
    PUBLIC_URL: tool.url,
    CHECKER_URL: tool.tool.sandbox!.url,
    CHECKER_USERNAME: DEMO_USER.email,
    CHECKER_PASSWORD: DEMO_USER.password,
  });

describe("a student's erasure", () => {
  test("every table of the schema is listed as holding a user's data (and how it is found) or as holding none", async () => {
    const result = await sql<{
      table_name: string;
    }>`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(
      db(),
    );
    const unlisted = result.rows
      .map((row) => row.table_name)
      .filter((table) => !(table in USER_DATA) && !NO_USER_DATA.includes(table));
    assert.deepEqual(
      unlisted,
      [],
      "a table that is in neither list: say whether it holds a user's data, and if so erase and export it in src/submissions/student-data.ts",
    );
    const listedButGone = [...Object.keys(USER_DATA), ...NO_USER_DATA].filter(
      (table) => !result.rows.some((row) => row.table_name === table),
    );
    assert.deepEqual(listedButGone, []);
  });

  test('export lists the files the LMS sent, the terms accepted and the sessions', async () => {
    const exported = await cli('export', 'student-erased');
    assert.equal(exported.code, 0, exported.stderr);
    const data = JSON.parse(exported.stdout) as {
      filesFromTheLms: Array<{ filename: string | null }>;
      termsAccepted: unknown[];
      sessions: Array<{ record: object }>;
      gradePosts: unknown[];
    };
    assert.ok(data.filesFromTheLms.some((file) => file.filename === DIARY));
    assert.equal(data.termsAccepted.length, 1);
    assert.equal(data.gradePosts.length, 1);
    assert.ok(data.sessions.some((session) => JSON.stringify(session.record).includes('student-erased@example.edu')));
    assert.ok(!exported.stdout.includes('student-kept'), 'nothing of another student');
  });

  test('erase leaves no row of the student in any table that holds user data, and every row of the other student', async () => {
    const before = await holdings('student-erased');
    const untouched = await holdings('student-kept');
    for (const table of [
      'lti_user',
      'student_due_date',
      'instructor_visit',
      'submission',
      'submission_event',
      'lms_asset',
      'asset_report',
      'eula_acceptance',
      'score_clock',
      'lti_record',
    ]) {
      assert.ok(before[table]! > 0, `the set-up gave the student rows in ${table}`);
    }
    const erased = await cli('erase', 'student-erased');
    assert.equal(erased.code, 0, erased.stderr);
    assert.match(erased.stdout, /The student's data is erased\./);
    assert.deepEqual(
      await holdings('student-erased'),
      Object.fromEntries(Object.keys(USER_DATA).map((table) => [table, 0])),
    );
    assert.deepEqual(await holdings('student-kept'), untouched);
    const diary = await db().selectFrom('lms_asset').select('id').where('filename', '=', DIARY).execute();
    assert.equal(diary.length, 1, "only the other student's file of that name is left");
    const again = await cli('export', 'student-erased');
    assert.equal(again.code, 1);
    assert.match(again.stderr, /holds nothing about that student/);
  });
});
