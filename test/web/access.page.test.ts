// Who may see and do what, over plain HTTP: another student's receipt or report, another course's assignment,
// an expired or altered signed report link, a row action by a student, and a form sent from another site are
// each refused, and nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { signedReportPath } from '../../src/reports/signed-link.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

let tool: TestTool;
let essayCourse: TestPlatform;
let biologyCourse: TestPlatform;
const ltiks = new Map<string, string>();
let assignmentPath = '';
let samPaper = '';

const essay = Array.from(
  { length: 40 },
  (_, i) => `Sentence ${i} of an essay on rivers and their deltas, with evidence number ${i * 3}.`,
).join(' ');
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');

async function get(path: string, who: string): Promise<{ status: number; body: string; location: string | null }> {
  const url = new URL(path, tool.url);
  url.searchParams.set('ltik', ltiks.get(who)!);
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, body: await response.text(), location: response.headers.get('location') };
}

async function post(
  path: string,
  who: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; location: string | null }> {
  const response = await fetch(new URL(path, tool.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ ltik: ltiks.get(who)! }).toString(),
  });
  return { status: response.status, body: await response.text(), location: response.headers.get('location') };
}

async function paperState(id: string): Promise<string | null> {
  const row = await tool.tool.database.db
    .selectFrom('submission')
    .select('state')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.state ?? null;
}

before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '300', POLL_SCHEDULE_SECONDS: '1,1,2', JOB_POLLING_SECONDS: '0.5' });
  essayCourse = await startTestPlatform(tool);
  essayCourse.platform.addResourceLink({
    id: 'essay-1',
    title: 'Essay 1',
    lineItem: { label: 'Essay 1', scoreMaximum: 100 },
  });
  biologyCourse = await startTestPlatform(tool, {
    clientId: 'biology-client',
    course: { id: 'bio-200', title: 'Biology 200', label: 'BIO200' },
  });
  biologyCourse.platform.addResourceLink({
    id: 'lab-1',
    title: 'Lab report',
    lineItem: { label: 'Lab report', scoreMaximum: 100 },
  });
  for (const [who, lms, userId, link] of [
    ['teacher', essayCourse, 'instructor-1', 'essay-1'],
    ['sam', essayCourse, 'student-1', 'essay-1'],
    ['noor', essayCourse, 'student-2', 'essay-1'],
    ['biology-teacher', biologyCourse, 'instructor-1', 'lab-1'],
    ['biology-student', biologyCourse, 'student-1', 'lab-1'],
  ] as const) {
    const opened = await launch(lms.platform, { userId, resourceLinkId: link });
    assert.equal(opened.status, 200, opened.body);
    ltiks.set(who, opened.ltik!);
    if (who === 'teacher') assignmentPath = new URL(opened.url).pathname.replace(/\/dashboard$/, '');
  }
  const form = new FormData();
  form.append('file', new Blob([essay]), 'rivers.txt');
  const submitted = await fetch(`${tool.url}${assignmentPath}/submissions`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${ltiks.get('sam')}`, accept: 'application/json' },
  });
  assert.equal(submitted.status, 201);
  samPaper = String(((await submitted.json()) as { submissionId: string }).submissionId);
  for (const deadline = Date.now() + 30_000; (await paperState(samPaper)) !== 'graded';) {
    if (Date.now() > deadline) throw new Error(`Sam's paper stayed ${await paperState(samPaper)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

after(async () => {
  await biologyCourse?.close();
  await essayCourse?.close();
  await tool?.stop();
});

describe('another student', () => {
  test("a student cannot download another student's receipt", async () => {
    const own = await get(`${assignmentPath}/submissions/${samPaper}/receipt`, 'sam');
    assert.equal(own.status, 200);
    const other = await get(`${assignmentPath}/submissions/${samPaper}/receipt`, 'noor');
    assert.equal(other.status, 404);
    assert.equal(other.body, 'There is no such submission of yours.\n');
  });

  test("a student cannot open another student's report", async () => {
    const own = await get(`/reports/${samPaper}/similarity`, 'sam');
    assert.equal(own.status, 303);
    const other = await get(`/reports/${samPaper}/similarity`, 'noor');
    assert.equal(other.status, 403);
    assert.equal(other.location, null);
    assert.match(text(other.body), /This report is of another student's paper\./);
  });

  test("a student cannot delete a paper or resend a grade from the instructor's actions", async () => {
    for (const action of ['delete', 'resync-grade']) {
      const answer = await post(`${assignmentPath}/submissions/${samPaper}/${action}`, 'sam');
      assert.equal(answer.status, 403);
      assert.match(text(answer.body), /Only instructors of the course can do this\./);
    }
    assert.equal(await paperState(samPaper), 'graded');
  });
});

describe('the AI score, hidden from students by default', () => {
  test('the AI report and the summary (which states the AI score) are neither offered nor opened until the instructor shows the AI score', async () => {
    const offered = async () => {
      const status = JSON.parse((await get(`${assignmentPath}/my-submissions`, 'sam')).body) as {
        submissions: Array<{ aiScore: unknown; reports: Array<{ kind: string }> }>;
      };
      return {
        aiScore: status.submissions[0]!.aiScore,
        kinds: status.submissions[0]!.reports.map((report) => report.kind).sort(),
      };
    };
    assert.deepEqual(await offered(), { aiScore: null, kinds: ['similarity'] });
    for (const kind of ['ai', 'summary']) {
      const refused = await get(`/reports/${samPaper}/${kind}`, 'sam');
      assert.equal(refused.status, 403, kind);
      assert.match(text(refused.body), /Your instructor has not made this report available to you\./);
      assert.equal(
        (await get(`/reports/${samPaper}/${kind}`, 'teacher')).status,
        303,
        `the instructor opens the ${kind} report`,
      );
    }
    const assignmentId = assignmentPath.split('/').pop()!;
    const db = tool.tool.database.db;
    const saved = (
      await db.selectFrom('assignment').select('settings').where('id', '=', assignmentId).executeTakeFirstOrThrow()
    ).settings as Record<string, unknown>;
    await db
      .updateTable('assignment')
      .set({ settings: JSON.stringify({ ...saved, showAiScoreToStudents: true }) })
      .where('id', '=', assignmentId)
      .execute();
    try {
      const shown = await offered();
      assert.notEqual(shown.aiScore, null);
      assert.deepEqual(shown.kinds, ['ai', 'similarity', 'summary']);
      for (const kind of ['ai', 'summary'])
        assert.equal((await get(`/reports/${samPaper}/${kind}`, 'sam')).status, 303, kind);
    } finally {
      await db
        .updateTable('assignment')
        .set({ settings: JSON.stringify(saved) })
        .where('id', '=', assignmentId)
        .execute();
    }
  });
});

describe('another course', () => {
  test('an instructor of another course cannot open the assignment, its dashboard, its reports, or act on its papers', async () => {
    for (const path of [
      assignmentPath,
      `${assignmentPath}/dashboard`,
      `${assignmentPath}/settings`,
      `${assignmentPath}/export.csv`,
    ]) {
      const answer = await get(path, 'biology-teacher');
      assert.equal(answer.status, 403, path);
      assert.doesNotMatch(answer.body, /rivers\.txt|Sam Student/, path);
    }
    const report = await get(`/reports/${samPaper}/similarity`, 'biology-teacher');
    assert.equal(report.status, 403);
    assert.match(text(report.body), /This report belongs to another course\./);
    const removal = await post(`${assignmentPath}/submissions/${samPaper}/delete`, 'biology-teacher');
    assert.equal(removal.status, 403);
    assert.equal(await paperState(samPaper), 'graded');
  });

  test('a student of another course cannot open the assignment or submit to it', async () => {
    const page = await get(assignmentPath, 'biology-student');
    assert.equal(page.status, 403);
    assert.match(text(page.body), /This assignment belongs to another course/);
    const form = new FormData();
    form.append('file', new Blob([essay]), 'stray.txt');
    const answer = await fetch(`${tool.url}${assignmentPath}/submissions`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${ltiks.get('biology-student')}`, accept: 'application/json' },
    });
    assert.equal(answer.status, 403);
    const count = await tool.tool.database.db
      .selectFrom('submission')
      .select('id')
      .where('file_label', '=', 'stray.txt')
      .execute();
    assert.deepEqual(count, []);
  });
});

describe('signed report links', () => {
  test('an expired link is refused, though its signature is right', async () => {
    const expired = signedReportPath(
      tool.config.encryptionKey,
      samPaper,
      'similarity',
      Math.floor(Date.now() / 1000) - 1,
    );
    const answer = await fetch(new URL(expired, tool.url));
    assert.equal(answer.status, 403);
    assert.match(
      text(await answer.text()),
      /This report link has expired\. Open the report again from the assignment\./,
    );
  });

  test('a fresh link streams the PDF with no cookie and no ltik; the same link with a later expiry is refused', async () => {
    const issued = await get(`/reports/${samPaper}/similarity`, 'teacher');
    assert.equal(issued.status, 303);
    const link = new URL(issued.location!, tool.url);
    const report = await fetch(link);
    assert.equal(report.status, 200);
    assert.equal(
      Buffer.from(await report.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
      '%PDF-',
    );
    link.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3600));
    const stretched = await fetch(link);
    assert.equal(stretched.status, 403);
  });
});

describe('forms from another site', () => {
  test('a row action sent from another site is refused, though it carries a valid ltik', async () => {
    const crossSite = await post(`${assignmentPath}/submissions/${samPaper}/delete`, 'teacher', {
      'sec-fetch-site': 'cross-site',
    });
    assert.equal(crossSite.status, 403);
    assert.match(text(crossSite.body), /This form was sent from another site, so the tool did not act on it\./);
    const foreignOrigin = await post(`${assignmentPath}/submissions/${samPaper}/delete`, 'teacher', {
      origin: 'https://attacker.example',
    });
    assert.equal(foreignOrigin.status, 403);
    assert.equal(await paperState(samPaper), 'graded');
    const sameOrigin = await post(`${assignmentPath}/submissions/${samPaper}/resync-grade`, 'teacher', {
      'sec-fetch-site': 'same-origin',
      origin: tool.url,
    });
    assert.equal(sameOrigin.status, 303);
    assert.equal(
      new URL(sameOrigin.location!, tool.url).searchParams.get('notice'),
      'The score is queued for the gradebook again (Sam Student).',
    );
  });

  test("the tool's own form from a browser that sends no Sec-Fetch-Site is accepted: its pages' no-referrer policy makes the Origin null", async () => {
    const answer = await post(`${assignmentPath}/submissions/${samPaper}/resend`, 'teacher', { origin: 'null' });
    assert.equal(answer.status, 303, text(answer.body).slice(0, 200));
    assert.match(
      new URL(answer.location!, tool.url).searchParams.get('notice') ?? '',
      /Nothing was sent for Sam Student/,
    );
  });
});

describe('row actions that do not apply', () => {
  test('"send again" on a paper that is already checked sends nothing and says why', async () => {
    const uploads = tool.tool.sandbox!.stats().uploads;
    const answer = await post(`${assignmentPath}/submissions/${samPaper}/resend`, 'teacher');
    assert.equal(answer.status, 303);
    const back = new URL(answer.location!, tool.url).searchParams;
    assert.equal(
      back.get('notice'),
      'Nothing was sent for Sam Student: only a paper still on its way to a result can be sent again, and this one is graded.',
    );
    assert.equal(back.get('tone'), 'error');
    assert.equal(tool.tool.sandbox!.stats().uploads, uploads);
  });
});
