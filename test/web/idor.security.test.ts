// IDOR: one person asking for another's report, file, receipt, status JSON or CSV by changing an id in the URL.
// test/web/access-matrix.hardening.test.ts already checks every route against nine callers (the owner, a classmate, a student
// and an instructor of another course, an instructor of another platform whose course has the same id, ...) by
// status and by "nothing of the paper in the body". This file adds what that matrix lacks:
// - the deployment dimension: a student and an instructor launched from a second deployment of the same platform
//   (same issuer and client id, another deployment_id) whose course and resource link have the same ids as the
//   victim's. LTI 1.3 §5.4.1 makes a context id unique only within its deployment_id, so these are other courses;
// - the sentence a refused person reads, for the routes that show a paper (the matrix checks statuses only);
// - routes and links the matrix lacks: the grammar report, and a signed report link whose submission id or report
//   kind was changed (the signature covers both).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import { saveRegistration } from '../../src/lti/registrations.js';
import { allowResubmission, essay, settle } from '../support/hardening.js';
import { payloadOf } from '../support/id-token.js';
import { pageText } from '../support/page-text.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';
const SECOND_DEPLOYMENT = 'deployment-2';

let tool: TestTool;
let home: TestPlatform;
let assignmentPath = '';
let paper = '';
let classmatePaper = '';
let score = '';
const ltiks = new Map<string, string>();
const db = () => tool.tool.database.db;

/** The same launch, signed by the same platform, from its second deployment (the course and link ids unchanged). */
const fromSecondDeployment = async (idToken: string) =>
  home.platform.sign({ ...payloadOf(idToken), [`${CLAIM}/deployment_id`]: SECOND_DEPLOYMENT });

async function launched(
  userId: string,
  options: { secondDeployment?: boolean } = {},
): Promise<{ ltik: string; url: string; body: string }> {
  const result = await launch(home.platform, {
    userId,
    resourceLinkId: 'essay-1',
    ...(options.secondDeployment ? { replaceIdToken: fromSecondDeployment } : {}),
  });
  assert.equal(result.status, 200, result.body);
  return { ltik: result.ltik!, url: result.url, body: result.body };
}

async function submitted(ltik: string, text: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([essay(text)]), `${text}.txt`);
  const response = await fetch(`${tool.url}${assignmentPath}/submissions`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${ltik}`, accept: 'application/json' },
  });
  assert.equal(response.status, 201, await response.clone().text());
  return String(((await response.json()) as { submissionId: string }).submissionId);
}

before(async () => {
  tool = await startTestTool({ SANDBOX_DELAY_MS: '200', JOB_POLLING_SECONDS: '0.5', POLL_SCHEDULE_SECONDS: '1,2' });
  home = await startTestPlatform(tool, { clientId: 'idor-home' });
  // The platform's second deployment of the tool, registered as an administrator would (the CLI's path).
  const registration = home.platform.registration();
  await saveRegistration(
    { db: db(), provider: tool.tool.platforms },
    { ...registration, deploymentId: SECOND_DEPLOYMENT },
    'cli',
  );
  home.platform.addResourceLink({ id: 'essay-1', title: 'Essay 1', lineItem: { label: 'Essay 1', scoreMaximum: 100 } });
  home.platform.addUser({
    id: 'intruder-teacher',
    name: 'Ivo Intruder',
    email: 'ivo@example.edu',
    roles: ROLES.instructor,
  });
  home.platform.addUser({
    id: 'intruder-student',
    name: 'Isa Intruder',
    email: 'isa@example.edu',
    roles: ROLES.learner,
  });
  const instructor = await launched('instructor-1');
  assignmentPath = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');
  ltiks.set('instructor', instructor.ltik);
  ltiks.set('owner', (await launched('student-1')).ltik);
  ltiks.set('classmate', (await launched('student-2')).ltik);
  await allowResubmission(db(), assignmentPath);
  paper = await submitted(ltiks.get('owner')!, 'rivers');
  classmatePaper = await submitted(ltiks.get('classmate')!, 'lakes');
  assert.deepEqual(await settle(db(), [paper, classmatePaper], 60_000), []);
  score = String(
    (await db().selectFrom('submission').select('similarity').where('id', '=', paper).executeTakeFirstOrThrow())
      .similarity,
  );
});
after(async () => {
  await home?.close();
  await tool?.stop();
});

/**
 * Nothing of the victim's paper: its id, its words, its score, the student's name or e-mail. `rosterShown`: a page
 * whose roster comes from the LMS (NRPS), which may name the student but nothing of the paper.
 */
function showsNothingOf(where: string, body: string, options: { rosterShown?: boolean } = {}): void {
  assert.ok(!body.includes(paper), `${where}: the body names the paper`);
  assert.doesNotMatch(
    body,
    options.rosterShown ? /rivers/ : /rivers|Sam Student|sam\.student@example\.edu/,
    `${where}: the body shows the paper or its author`,
  );
  assert.ok(
    !new RegExp(`\\b${score.replace('.', '\\.')}\\s*%`).test(pageText(body)),
    `${where}: the body shows the paper's score (${score}%)`,
  );
}

async function get(
  ltik: string | undefined,
  path: string,
): Promise<{ status: number; body: string; location: string | null }> {
  const response = await fetch(new URL(path, tool.url), {
    redirect: 'manual',
    headers: ltik ? { authorization: `Bearer ${ltik}` } : {},
  });
  return { status: response.status, body: await response.text(), location: response.headers.get('location') };
}

const PAGE = /This assignment is not part of the course you opened\./;
const REPORT = /This report belongs to another course\./;
/** Every address that shows the owner's paper, or a list with it in, and what a person of another course reads there. */
const victimUrls = () => [
  { path: `${assignmentPath}/dashboard`, instructorOnly: true, refusal: PAGE },
  { path: `${assignmentPath}/export.csv`, instructorOnly: true, refusal: PAGE },
  { path: `${assignmentPath}/submissions/${paper}/history`, instructorOnly: true, refusal: PAGE },
  // The status JSON and the plain-text receipt answer in their own format, briefly.
  { path: `${assignmentPath}/my-submissions`, instructorOnly: false, refusal: /^\{"error":"Not available\."\}$/ },
  { path: `${assignmentPath}/submissions/${paper}/receipt`, instructorOnly: false, refusal: /^Not available\.$/ },
  { path: `/reports/${paper}/similarity`, instructorOnly: false, refusal: REPORT },
  { path: `/reports/${paper}/ai`, instructorOnly: false, refusal: REPORT },
  { path: `/reports/${paper}/summary`, instructorOnly: false, refusal: REPORT },
  { path: `/reports/${paper}/grammar`, instructorOnly: false, refusal: REPORT },
];

test('an instructor launched from a second deployment of the same platform, in a course and link with the same ids, gets a course of their own', async () => {
  const intruder = await launched('intruder-teacher', { secondDeployment: true });
  ltiks.set('secondDeploymentInstructor', intruder.ltik);
  const theirs = new URL(intruder.url).pathname.replace(/\/dashboard$/, '');
  // Same issuer, same context id "course-101", same resource link "essay-1": still another deployment's course.
  assert.notEqual(theirs, assignmentPath, "the second deployment opened the first deployment's assignment");
  // The dev platform has one roster for all its deployments, so the names its NRPS gives may be listed; no paper is.
  showsNothingOf('their own dashboard', intruder.body, { rosterShown: true });
  assert.match(pageText(intruder.body), /No scored submissions yet/);
  const course = await db()
    .selectFrom('course')
    .innerJoin('assignment', 'assignment.course_id', 'course.id')
    .select(['course.deployment_id'])
    .where('assignment.id', '=', theirs.split('/').pop()!)
    .executeTakeFirstOrThrow();
  assert.equal(course.deployment_id, SECOND_DEPLOYMENT);
});

test("the second deployment's instructor asks for the first deployment's dashboard, CSV, history, receipt, status JSON and reports", async () => {
  const ltik =
    ltiks.get('secondDeploymentInstructor') ?? (await launched('intruder-teacher', { secondDeployment: true })).ltik;
  for (const { path, refusal } of victimUrls()) {
    const answer = await get(ltik, path);
    assert.equal(answer.status, 403, `${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
    assert.match(pageText(answer.body).trim(), refusal, `${path}: says why`);
    showsNothingOf(path, answer.body);
  }
});

test("a student launched from the second deployment asks for the first deployment's paper by its ids", async () => {
  const ltik = (await launched('intruder-student', { secondDeployment: true })).ltik;
  for (const { path, instructorOnly, refusal } of victimUrls()) {
    const answer = await get(ltik, path);
    assert.equal(answer.status, 403, `${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
    // The instructors' pages refuse a student for the role before asking which course.
    assert.match(
      pageText(answer.body).trim(),
      instructorOnly ? /Only instructors of the course/ : refusal,
      `${path}: says why`,
    );
    showsNothingOf(path, answer.body);
  }
  // Nor can they put a paper into the first deployment's assignment.
  const form = new FormData();
  form.append('file', new Blob([essay('smuggled')]), 'smuggled.txt');
  const upload = await fetch(`${tool.url}${assignmentPath}/submissions`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${ltik}`, accept: 'application/json' },
  });
  assert.equal(upload.status, 403, await upload.clone().text());
  showsNothingOf('the upload', await upload.text());
});

test("a classmate asks for the owner's reports (grammar too) and receipt: refused with a sentence", async () => {
  const ltik = ltiks.get('classmate')!;
  for (const kind of ['similarity', 'ai', 'summary', 'grammar']) {
    const answer = await get(ltik, `/reports/${paper}/${kind}`);
    assert.equal(answer.status, 403, `${kind}: ${answer.status}`);
    assert.match(pageText(answer.body), /another student's paper|has not made this report available/, kind);
    showsNothingOf(kind, answer.body);
  }
  const receipt = await get(ltik, `${assignmentPath}/submissions/${paper}/receipt`);
  assert.equal(receipt.status, 404);
  assert.match(pageText(receipt.body), /no such|not found|cannot be found/i);
  showsNothingOf('receipt', receipt.body);
  // Their own status JSON lists their paper, never the owner's.
  const mine = await get(ltik, `${assignmentPath}/my-submissions`);
  assert.equal(mine.status, 200);
  assert.ok(mine.body.includes(classmatePaper), 'the classmate sees their own paper');
  showsNothingOf('my-submissions', mine.body);
});

test('a signed report link cannot be turned to another paper or another kind of report', async () => {
  // The classmate's own similarity report: a signed link to it.
  const own = await get(ltiks.get('classmate')!, `/reports/${classmatePaper}/similarity`);
  assert.equal(own.status, 303, own.body);
  const link = new URL(own.location!, tool.url);
  const original = await fetch(link);
  assert.equal(original.status, 200, "the untouched link opens the classmate's own report");
  await original.body?.cancel();
  for (const [what, path] of [
    ["the owner's paper", link.pathname.replace(classmatePaper, paper)],
    ['the AI report', link.pathname.replace('/similarity/', '/ai/')],
  ] as const) {
    const answer = await fetch(new URL(`${path}${link.search}`, tool.url));
    const body = await answer.text();
    assert.equal(answer.status, 403, `${what}: ${answer.status}`);
    assert.match(pageText(body), /link has expired/, what);
    showsNothingOf(what, body);
  }
});
