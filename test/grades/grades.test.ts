// Scores into the gradebook under Moodle's and Canvas's real rules, through a gradebook outage, and never onto
// another student's row or another platform's column.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql, type Selectable } from 'kysely';
import { launch, submitForm } from '../../src/devplatform/agent.js';
import { ROLES, type PlatformRules } from '../../src/devplatform/index.js';
import { AGS_SCOPES } from '../../src/grades/ags.js';
import { postGrade } from '../../src/grades/post-grade.js';
import { resyncGrade } from '../../src/grades/resync.js';
import { QUEUES } from '../../src/jobs/index.js';
import { accessTokenWithin } from '../../src/lti/access-token.js';
import type { DatabaseSchema } from '../../src/db/index.js';
import { openCourse } from '../support/course.js';
import { setGradeColumn } from '../support/grade-column.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { FAST_JOBS, startTestTool, type TestTool } from '../support/tool.js';
import { eventually } from '../support/wait.js';

let tool: TestTool;
const platforms: TestPlatform[] = [];

const essay = (seed: string) =>
  Array.from(
    { length: 50 },
    (_, i) => `${seed} point ${i} adds its own observation ${i * 11} to the study of ${seed}.`,
  ).join(' ');

before(async () => {
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '200',
    POLL_SCHEDULE_SECONDS: '1,1,2',
    ...FAST_JOBS,
    JOB_RETRY_LIMIT: '30',
  });
});
after(async () => {
  for (const platform of platforms) await platform.close();
  await tool.stop();
});

/**
 * A platform with one assignment (opened by its instructor), and a function for a student to submit to it. Its
 * instructor chose to post the similarity as the grade: these tests are about how a grade reaches the gradebook
 * (the default, a comment and no grade, is term.test.ts's).
 */
async function course(rules: PlatformRules, clientId: string) {
  // Registered as the LMS whose rules it plays (an LMS of the specification's rules as one of unknown family).
  const lms = await startTestPlatform(tool, {
    rules,
    clientId,
    ...(rules === 'spec' ? {} : { productFamily: rules }),
  });
  const opened = await openCourse(tool, { clientId, title: `Essay (${rules})`, lms });
  await setGradeColumn(tool, opened.path, 'assignment');
  platforms.push(opened.lms);
  return opened;
}

/** What postGrade needs, from the running tool, for tests that post a grade themselves. */
const gradeDeps = () => ({
  db: tool.tool.database.db,
  provider: tool.tool.platforms,
  logger: { info() {}, warn() {} },
});

async function settled(submissionId: string, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await tool.tool.database.db
      .selectFrom('submission')
      .selectAll()
      .where('id', '=', submissionId)
      .executeTakeFirstOrThrow();
    if (row.state === 'graded' || row.grade_state === 'not-gradable' || row.grade_state === 'failed') return row;
    if (Date.now() > deadline) throw new Error(`still ${row.state} / grade ${row.grade_state}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('Moodle: scores only when FullyGraded, timestamps compared in whole seconds, query strings in line item URLs', () => {
  test('every student ends with the right score, and no score post is refused (no 409 for a timestamp in the same second)', async () => {
    const { lms, submit } = await course('moodle', 'moodle-client');
    const ids = await Promise.all(
      ['student-1', 'student-2', 'student-3'].map((s, i) => submit(s, essay(`moodle topic ${i}`))),
    );
    const rows = await Promise.all(ids.map((id) => settled(id)));
    for (const row of rows) {
      assert.equal(row.state, 'graded');
      const subject = (
        await tool.tool.database.db
          .selectFrom('lti_user')
          .select('subject')
          .where('id', '=', row.user_id)
          .executeTakeFirstOrThrow()
      ).subject;
      const grade = lms.platform.gradebook().find((g) => g.userId === subject);
      assert.equal(grade?.scoreGiven, Number(row.similarity));
      assert.equal(grade?.gradingProgress, 'FullyGraded');
    }
    const log = lms.platform.scoreLog();
    // A receipt post still queued when the result arrives is replaced by the result post (jobs read the current state).
    assert.ok(log.length >= 3);
    assert.deepEqual(
      log.filter((entry) => entry.status >= 400),
      [],
      'a score post was refused',
    );
  });
});

describe('Canvas: older timestamps refused with 400, non-students with 422', () => {
  test('a student who is not a student for Canvas any more is recorded as not gradable, not retried forever', async () => {
    const { lms, submit } = await course('canvas', 'canvas-client');
    const ok = await submit('student-1', essay('canvas fine'));
    const id = await submit('student-2', essay('canvas test student'));
    // Canvas's Student View: the launch says learner, but the gradebook has no student of that id.
    lms.platform.addUser({ id: 'student-2', name: 'Test Student', email: 'test@example.edu', roles: ROLES.instructor });
    const refused = await settled(id);
    assert.equal(refused.grade_state, 'not-gradable');
    assert.match(String(refused.grade_error), /422/);
    const posts = lms.platform.scoreLog().filter((entry) => entry.userId === 'student-2');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal(
      lms.platform.scoreLog().filter((entry) => entry.userId === 'student-2').length,
      posts.length,
      'the refused score was posted again',
    );
    const fine = await settled(ok);
    assert.equal(fine.state, 'graded');
    const final = lms.platform
      .scoreLog()
      .filter((entry) => entry.userId === 'student-1')
      .at(-1)!;
    const extension = (final.body as Record<string, Record<string, unknown>>)[
      'https://canvas.instructure.com/lti/submission'
    ];
    // The similarity as the grade keeps a grade already there and is never stopped by preserve_score
    // (test/fixtures/lms/canvas/gradebook.md C1, C2); Canvas graded the paper with it.
    assert.equal(extension?.prioritize_non_tool_grade, true);
    assert.equal('preserve_score' in (extension ?? {}), false);
    assert.equal(lms.platform.gradebook().find((g) => g.userId === 'student-1')?.scoreGiven, Number(fine.similarity));
    // One Canvas attempt for the paper, whichever of its posts (the receipt, or the result when its job ran first)
    // recorded it.
    assert.equal(
      lms.platform.attempts(lms.platform.lineItems()[0]!.id.split('/').pop()!, 'student-1'),
      1,
      'the paper is not one attempt in Canvas',
    );
  });
});

describe('a gradebook outage', () => {
  test('503 from the LMS for a while: every score is posted once it recovers', async () => {
    const { lms, submit } = await course('spec', 'outage-client');
    lms.platform.setFaults({ agsStatus: 503 });
    const ids = await Promise.all(['student-1', 'student-3'].map((s, i) => submit(s, essay(`outage ${i}`))));
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const during = await tool.tool.database.db
      .selectFrom('submission')
      .select('state')
      .where('id', 'in', ids)
      .execute();
    assert.ok(
      during.every((row) => row.state !== 'graded'),
      'graded while the gradebook was down',
    );
    lms.platform.setFaults({});
    for (const id of ids) assert.equal((await settled(id, 60_000)).state, 'graded');
    assert.equal(lms.platform.gradebook().filter((g) => g.gradingProgress === 'FullyGraded').length, 2);
  });
});

describe('the similarity in a column of its own', () => {
  test('one "Similarity" column is created and found again, never twice; the assignment\'s own column stays empty', async () => {
    const c = await course('spec', 'own-column');
    const db = tool.tool.database.db;
    const assignmentId = c.path.split('/').pop()!;
    await setGradeColumn(tool, assignmentId, 'similarity');

    const ids = await Promise.all(['student-1', 'student-2'].map((s, i) => c.submit(s, essay(`own column ${i}`))));
    const rows = await Promise.all(ids.map((id) => settled(id)));
    const columns = () =>
      c.lms.platform.lineItems().filter((item) => item.tag === 'similarity' && item.resourceId === assignmentId);
    assert.equal(columns().length, 1, 'exactly one similarity column');
    assert.match(columns()[0]!.label, /^Similarity: /);
    // The column offers submission review: the LMS's gradebook may open a student's submission in the tool.
    assert.deepEqual(columns()[0]!.submissionReview, {
      reachableBy: [
        'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
        'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
      ],
      custom: { assignment_id: assignmentId },
    });
    const inColumn = (label: string) =>
      c.lms.platform
        .gradebook()
        .filter((g) => g.label === label)
        .map((g) => [g.userId, g.scoreGiven])
        .sort();
    assert.deepEqual(
      inColumn(columns()[0]!.label),
      rows.map((row, i) => [`student-${i + 1}`, Number(row.similarity)]).sort(),
    );
    assert.deepEqual(inColumn('Essay (spec)'), [], "nothing posted to the assignment's own column");

    // The tool forgets the column's address (a restored backup, a course copy): it finds the column again.
    await db.updateTable('assignment').set({ similarity_line_item_url: null }).where('id', '=', assignmentId).execute();
    await db.updateTable('submission').set({ state: 'scored' }).where('id', '=', ids[0]!).execute();
    const resynced = await fetch(`${tool.url}${c.path}/resync-grades`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${(await launch(c.lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' })).ltik}`,
      },
    });
    assert.ok(resynced.status < 400, `resync answered ${resynced.status}`);
    await settled(ids[0]!);
    assert.equal(columns().length, 1, 'a second similarity column was created');
  });

  test('while the LMS is slow to create the column, the database stays free for everyone else (the embedded one too)', async () => {
    const c = await course('spec', 'slow-column');
    const first = await settled(await c.submit('student-1', essay('slow column topic')));
    const db = tool.tool.database.db;
    await setGradeColumn(tool, first.assignment_id, 'similarity');
    const grades = gradeDeps();
    c.lms.platform.setFaults({ agsDelayMs: 3000 });
    try {
      const posted = postGrade(grades, first.id, { resync: true });
      await eventually(() => c.lms.platform.heldRequests() > 0, 'the column lookup never reached the LMS');
      // Another part of the tool reads and writes while the LMS holds the column lookup.
      await db.updateTable('submission').set({ updated_at: new Date() }).where('id', '=', first.id).execute();
      assert.ok(c.lms.platform.heldRequests() > 0, 'the database waited for the LMS');
      c.lms.platform.setFaults({});
      assert.deepEqual(await posted, { kind: 'final', score: Number(first.similarity) });
    } finally {
      c.lms.platform.setFaults({});
    }
  });

  test("a deep-linked assignment's own column carries the same tag and id: the similarity still gets a column of its own", async () => {
    const lms = await startTestPlatform(tool, { clientId: 'deep-linked-own-column' });
    platforms.push(lms);
    const picker = await launch(lms.platform, { userId: 'instructor-1', messageType: 'LtiDeepLinkingRequest' });
    const back = await submitForm(picker.body, tool.url, undefined, (fields) => ({ ...fields, title: 'Linked essay' }));
    assert.equal((await submitForm(back.body, tool.url)).status, 200);
    const linked = lms.platform.deepLinkResults()[0]!;
    const assignmentId = String((linked.contentItems[0] as { custom: Record<string, string> }).custom.assignment_id);
    await setGradeColumn(tool, assignmentId, 'similarity');

    const ids: string[] = [];
    for (const student of ['student-1', 'student-2']) {
      const opened = await launch(lms.platform, { userId: student, resourceLinkId: linked.resourceLinkId });
      assert.equal(opened.status, 200, opened.body.slice(0, 300));
      const form = new FormData();
      form.append('file', new Blob([essay(`linked column ${student}`)]), 'essay.txt');
      const response = await fetch(`${tool.url}/assignments/${assignmentId}/submissions`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${opened.ltik}`, accept: 'application/json' },
      });
      assert.equal(response.status, 201, await response.clone().text());
      ids.push(String(((await response.json()) as { submissionId: string }).submissionId));
    }
    const rows = await Promise.all(ids.map((id) => settled(id)));
    const tagged = lms.platform
      .lineItems()
      .filter((item) => item.tag === 'similarity' && item.resourceId === assignmentId);
    assert.deepEqual(tagged.map((item) => item.label).sort(), ['Linked essay', 'Similarity: Linked essay']);
    const inColumn = (label: string) =>
      lms.platform
        .gradebook()
        .filter((g) => g.label === label && g.gradingProgress === 'FullyGraded')
        .map((g) => [g.userId, g.scoreGiven])
        .sort();
    assert.deepEqual(
      inColumn('Similarity: Linked essay'),
      rows.map((row, i) => [`student-${i + 1}`, Number(row.similarity)]).sort(),
    );
    assert.deepEqual(inColumn('Linked essay'), [], "no score in the assignment's own column");
  });
});

describe('two platforms with the same user ids', () => {
  test('each score lands on its own platform, its own column and its own student', async () => {
    const a = await course('spec', 'same-ids-a');
    const b = await course('spec', 'same-ids-b');
    const [inA, inB] = await Promise.all([
      a.submit('student-1', essay('platform a paper')),
      b.submit('student-1', 'An entirely different paper. '.repeat(40)),
    ]);
    const [rowA, rowB] = await Promise.all([settled(inA), settled(inB)]);
    assert.notEqual(rowA.user_id, rowB.user_id, 'one user row for two platforms');
    assert.deepEqual(
      a.lms.platform.gradebook().map((g) => [g.userId, g.scoreGiven]),
      [['student-1', Number(rowA.similarity)]],
    );
    assert.deepEqual(
      b.lms.platform.gradebook().map((g) => [g.userId, g.scoreGiven]),
      [['student-1', Number(rowB.similarity)]],
    );
    // A's student cannot read B's assignment with A's session.
    const studentA = await launch(a.lms.platform, { userId: 'student-1', resourceLinkId: 'essay' });
    const assignmentB = (
      await tool.tool.database.db
        .selectFrom('submission')
        .select('assignment_id')
        .where('id', '=', inB)
        .executeTakeFirstOrThrow()
    ).assignment_id;
    const crossed = await fetch(
      `${tool.url}/assignments/${assignmentB}/my-submissions?ltik=${encodeURIComponent(studentA.ltik!)}`,
    );
    assert.equal(crossed.status, 403);
  });
});

/** A later attempt of the same student, written straight into the database in the state a test needs. */
async function laterAttempt(
  first: Selectable<DatabaseSchema['submission']>,
  attempt: number,
  state: 'scored' | 'rejected',
  similarity: number | null,
): Promise<string> {
  const row = await tool.tool.database.db
    .insertInto('submission')
    .values({
      assignment_id: first.assignment_id,
      user_id: first.user_id,
      attempt,
      state,
      file_label: `attempt-${attempt}.txt`,
      file_type: first.file_type,
      file_size: 100,
      sha256: String(attempt).repeat(64),
      paper_id: null,
      report_key: null,
      similarity,
      ai_score: null,
      grammar_score: null,
      failure_reason: state === 'rejected' ? 'The checking service refused the file.' : null,
      scored_at: state === 'scored' ? new Date() : null,
      grade_error: null,
      graded_at: null,
      send_lease: null,
      send_lease_until: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('a score refused for its timestamp while a newer attempt arrives', () => {
  test("is not sent again: the newer attempt's score stays in the gradebook", async () => {
    const { lms, submit } = await course('moodle', 'resend-race');
    const firstId = await submit('student-1', essay('resend race topic'));
    const first = await settled(firstId);
    assert.equal(first.state, 'graded');
    const grades = gradeDeps();

    // A resync of attempt 1 is on its way to the LMS, held there...
    lms.platform.setFaults({ agsDelayMs: 2000 });
    const resent = postGrade(grades, firstId, { resync: true });
    await eventually(() => lms.platform.heldRequests() > 0, 'the resent score never reached the LMS');
    lms.platform.setFaults({});
    // ...while the student's second attempt is scored and its score, with a later timestamp, lands first.
    const secondScore = Number(first.similarity) === 7 ? 8 : 7;
    const second = await laterAttempt(first, 2, 'scored', secondScore);
    assert.deepEqual(await postGrade(grades, second), { kind: 'final', score: secondScore });

    // The held post arrives with the older timestamp and is refused (409); attempt 1's score is not sent again.
    assert.deepEqual(await resent, { kind: 'skipped' });
    const posts = lms.platform.scoreLog().filter((entry) => entry.userId === 'student-1');
    const told = posts.map(({ status, body }) => {
      const { gradingProgress, scoreGiven, timestamp } = body as Record<string, unknown>;
      return `${status} ${String(gradingProgress)} ${String(scoreGiven)} ${String(timestamp)}`;
    });
    assert.equal(posts.at(-1)?.status, 409, told.join('\n'));
    assert.deepEqual(
      lms.platform.gradebook().map((g) => [g.userId, g.scoreGiven]),
      [['student-1', secondScore]],
    );
  });
});

describe('an LMS whose token endpoint does not answer', () => {
  test('the tool stops waiting for an access token at its timeout, and gets one once the LMS answers again', async () => {
    const { lms } = await course('spec', 'slow-token');
    const registration = lms.platform.registration();
    const platform = await tool.tool.platforms.getPlatform(registration.issuer, registration.clientId);
    assert.ok(platform, 'the platform is not registered');
    lms.platform.setFaults({ tokenDelayMs: 5000 });
    const started = Date.now();
    await assert.rejects(
      accessTokenWithin(platform, AGS_SCOPES.score, 300),
      /token endpoint did not answer within 0.3 s/,
    );
    assert.ok(Date.now() - started < 4000, `waited ${Date.now() - started} ms for a platform that answers after 5 s`);
    lms.platform.setFaults({});
    assert.ok((await accessTokenWithin(platform, AGS_SCOPES.score, 10_000)).length > 0);
  });
});

describe('an instructor deletes the attempt the gradebook shows', () => {
  test('the cell goes back to the attempt that owns it now, past a rejected later one', async () => {
    const { lms, path, submit } = await course('spec', 'delete-owner');
    const first = await settled(await submit('student-1', essay('delete owner topic')));
    assert.equal(first.state, 'graded');
    const grades = gradeDeps();
    const secondScore = Number(first.similarity) === 42 ? 43 : 42;
    const second = await laterAttempt(first, 2, 'scored', secondScore);
    assert.deepEqual(await postGrade(grades, second), { kind: 'final', score: secondScore });
    await laterAttempt(first, 3, 'rejected', null);
    const cell = () => lms.platform.gradebook().find((g) => g.userId === 'student-1')?.scoreGiven;
    assert.equal(cell(), secondScore);

    const instructor = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay' });
    const deleted = await fetch(`${tool.url}${path}/submissions/${second}/delete`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ ltik: instructor.ltik! }),
    });
    assert.equal(deleted.status, 303);
    assert.match(
      new URL(deleted.headers.get('location') ?? '', tool.url).searchParams.get('notice') ?? '',
      /attempt 2 is deleted/,
    );
    await eventually(
      () => cell() === Number(first.similarity),
      `the gradebook does not show attempt 1's ${first.similarity}`,
      30_000,
      200,
    );
  });
});

describe('a resync while a grade post for the paper is already waiting', () => {
  test('the waiting post sends the score again instead of finding it posted', async () => {
    const { lms, submit } = await course('spec', 'resync-waiting');
    const first = await settled(await submit('student-1', essay('resync waiting topic')));
    assert.equal(first.grade_state, 'posted');
    const posts = () =>
      lms.platform.scoreLog().filter((entry) => entry.userId === 'student-1' && entry.status < 300).length;
    const before = posts();
    // Every grade job of the paper has ended (not only marked it graded): the receipt's job may have posted the final
    // score while the scoring's own waited behind it, held back a few seconds, with the same key.
    const gradeJobsOfPaper = async () =>
      Number(
        (
          await sql<{
            n: string;
          }>`SELECT count(*) AS n FROM pgboss.job WHERE name = ${QUEUES.grade} AND singleton_key = ${first.id} AND state IN ('created', 'retry', 'active')`.execute(
            tool.tool.database.db,
          )
        ).rows[0]!.n,
      );
    await eventually(
      async () => (await gradeJobsOfPaper()) === 0,
      'a grade job of the paper is still waiting or running',
      20_000,
      100,
    );
    // A plain grade job waits for the paper (as the scoring's own would), then the instructor resyncs.
    assert.ok(
      await tool.tool.jobs.send(QUEUES.grade, { submissionId: first.id }, { key: first.id, startAfterSeconds: 2 }),
    );
    assert.equal(
      await resyncGrade(tool.tool.database.db, tool.tool.jobs, first.id),
      null,
      'the resync is dropped in favour of the waiting job',
    );
    await eventually(() => posts() > before, 'the score was not sent again', 20_000, 200);
    assert.equal((await settled(first.id)).grade_state, 'posted');
  });
});

describe("the gradebook's comment in the course's language", () => {
  test("a German teacher's course reads the result's comment in German; another course's stays English", async () => {
    const german = await startTestPlatform(tool, { rules: 'moodle', clientId: 'comment-de', productFamily: 'moodle' });
    platforms.push(german);
    // Moodle states each user's language in the launch (launch_presentation.locale).
    german.platform.addUser({
      id: 'instructor-1',
      name: 'Iris Instructor',
      email: 'iris.instructor@example.edu',
      roles: ROLES.instructor,
      locale: 'de-DE',
    });
    const inGerman = await openCourse(tool, { clientId: 'comment-de', title: 'Aufsatz', lms: german });
    const inEnglish = await course('moodle', 'comment-en');
    await setGradeColumn(tool, inEnglish.path, 'comment');
    const [de, en] = await Promise.all([
      inGerman.submit('student-1', essay('Flüsse und ihre Ufer')),
      inEnglish.submit('student-1', essay('rivers and their banks')),
    ]);
    await Promise.all([settled(de), settled(en)]);
    const commentIn = (lms: TestPlatform) =>
      lms.platform.gradebook().find((cell) => cell.userId === 'student-1' && cell.gradingProgress === 'PendingManual')
        ?.comment;
    // The default visibility shows students their result once checked, so the comment names the similarity.
    assert.match(commentIn(german) ?? '', /^Ähnlichkeit \d+(,\d+)? %\. Der vollständige Bericht ist in der Aufgabe\.$/);
    assert.match(commentIn(inEnglish.lms) ?? '', /^Similarity \d+(\.\d+)?%\. The full report is in the assignment\.$/);
  });
});
