// The access matrix: every route of the tool against every kind of caller, each cell with the answer it must get.
// Callers: nobody, the student who owns the paper, a classmate, a student and an instructor of another course of the
// same LMS, an instructor of another LMS (whose course has the same id), the ADMIN_TOKEN, and the LMS's own
// administrator. A refused cell changes nothing and shows nothing of the student's paper.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES } from '../../src/devplatform/index.js';
import type { AssignmentSettings } from '../../src/assignments/settings.js';
import { settingsForm } from '../support/forms.js';
import { allowResubmission, essay, recordFigures, settle } from '../support/hardening.js';
import { payloadOf } from '../support/id-token.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { startTestTool, type TestTool } from '../support/tool.js';

const ADMIN_TOKEN = 'hardening-access-admin-token-0123456789';
const CALLERS = [
  'anonymous',
  'owner',
  'classmate',
  'otherCourseStudent',
  'instructor',
  'otherCourseInstructor',
  'otherPlatform',
  'adminToken',
  'lmsAdmin',
] as const;
type Caller = (typeof CALLERS)[number];
/** Those who may see the owner's paper. */
const ENTITLED: Caller[] = ['owner', 'instructor', 'adminToken', 'lmsAdmin'];

let tool: TestTool;
let home: TestPlatform;
let other: TestPlatform;
const ltiks = new Map<Caller, string>();
let assignmentPath = '';
let paper = '';
let platformId = '';
let victims = 0;
const db = () => tool.tool.database.db;

/** A launch of the home platform into another of its courses (same LMS, another context and link). */
const intoOtherCourse = async (idToken: string) =>
  home.platform.sign({
    ...payloadOf(idToken),
    'https://purl.imsglobal.org/spec/lti/claim/context': {
      id: 'course-202',
      title: 'Biology 202',
      type: ['http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering'],
    },
    'https://purl.imsglobal.org/spec/lti/claim/resource_link': { id: 'lab-1', title: 'Lab report' },
  });

async function launched(
  lms: TestPlatform,
  userId: string,
  options: { otherCourse?: boolean } = {},
): Promise<{ ltik: string; url: string }> {
  const result = await launch(lms.platform, {
    userId,
    resourceLinkId: 'essay-1',
    ...(options.otherCourse ? { replaceIdToken: intoOtherCourse } : {}),
  });
  assert.equal(result.status, 200, result.body);
  return { ltik: result.ltik!, url: result.url };
}

/** A student submits a paper; gives its id. */
async function submitted(ltik: string, userText: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([essay(userText)]), `${userText}.txt`);
  const response = await fetch(`${tool.url}${assignmentPath}/submissions?ltik=${encodeURIComponent(ltik)}`, {
    method: 'POST',
    body: form,
    headers: { accept: 'application/json' },
  });
  assert.equal(response.status, 201, await response.clone().text());
  return String(((await response.json()) as { submissionId: string }).submissionId);
}

before(async () => {
  tool = await startTestTool({
    SANDBOX_DELAY_MS: '300',
    JOB_POLLING_SECONDS: '0.5',
    POLL_SCHEDULE_SECONDS: '1,2',
    ADMIN_TOKEN,
  });
  home = await startTestPlatform(tool, { clientId: 'home-client' });
  other = await startTestPlatform(tool, { clientId: 'other-client' });
  for (const lms of [home, other])
    lms.platform.addResourceLink({
      id: 'essay-1',
      title: 'Essay 1',
      lineItem: { label: 'Essay 1', scoreMaximum: 100 },
    });
  home.platform.addUser({ id: 'instructor-9', name: 'Bea Biology', email: 'bea@example.edu', roles: ROLES.instructor });
  home.platform.addUser({ id: 'student-9', name: 'Kim Biology', email: 'kim@example.edu', roles: ROLES.learner });
  const instructor = await launched(home, 'instructor-1');
  assignmentPath = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');
  ltiks.set('instructor', instructor.ltik);
  ltiks.set('owner', (await launched(home, 'student-1')).ltik);
  ltiks.set('classmate', (await launched(home, 'student-2')).ltik);
  ltiks.set('otherCourseInstructor', (await launched(home, 'instructor-9', { otherCourse: true })).ltik);
  ltiks.set('otherCourseStudent', (await launched(home, 'student-9', { otherCourse: true })).ltik);
  ltiks.set('otherPlatform', (await launched(other, 'instructor-1')).ltik);
  ltiks.set('lmsAdmin', (await launched(home, 'admin-1')).ltik);
  await allowResubmission(db(), assignmentPath);
  paper = await submitted(ltiks.get('owner')!, 'rivers');
  assert.deepEqual(await settle(db(), [paper], 60_000), []);
  platformId = (
    await db().selectFrom('platform').select('id').where('client_id', '=', 'home-client').executeTakeFirstOrThrow()
  ).id;
});
after(async () => {
  await other?.close();
  await home?.close();
  await tool?.stop();
});

interface Request {
  method: 'GET' | 'POST';
  path: string;
  /** A form (the session key goes in it), or a file upload (the session key goes in the query). */
  form?: URLSearchParams;
  upload?: string;
}

async function send(caller: Caller, request: Request): Promise<{ status: number; body: string }> {
  const url = new URL(request.path, tool.url);
  const ltik = ltiks.get(caller);
  const headers: Record<string, string> = caller === 'adminToken' ? { authorization: `AdminToken ${ADMIN_TOKEN}` } : {};
  let body: URLSearchParams | FormData | undefined;
  if (request.form) {
    body = new URLSearchParams(request.form);
    if (ltik) body.set('ltik', ltik);
  } else if (ltik) url.searchParams.set('ltik', ltik);
  if (request.upload !== undefined) {
    body = new FormData();
    body.append('file', new Blob([essay(request.upload)]), 'essay.txt');
    headers.accept = 'application/json';
  }
  const response = await fetch(url, { method: request.method, redirect: 'manual', headers, ...(body ? { body } : {}) });
  return { status: response.status, body: await response.text() };
}

/** What a refused request must leave as it was. */
async function fingerprint(): Promise<string> {
  const [assignments, submissions, platforms, accounts] = await Promise.all([
    db().selectFrom('assignment').select(['id', 'settings', 'title']).orderBy('id').execute(),
    db().selectFrom('submission').select('id').orderBy('id').execute(),
    db().selectFrom('platform').select(['id', 'active', 'checker_account_id']).orderBy('id').execute(),
    db().selectFrom('checker_account').select('id').orderBy('id').execute(),
  ]);
  return JSON.stringify({ assignments, submissions, platforms, accounts });
}

const currentSettings = async () =>
  (
    await db()
      .selectFrom('assignment')
      .select('settings')
      .where('id', '=', assignmentPath.split('/').pop()!)
      .executeTakeFirstOrThrow()
  ).settings as AssignmentSettings;

/** A paper of a student of the course made for one cell to delete (a refused cell must leave it). */
async function victim(): Promise<string> {
  victims += 1;
  home.platform.addUser({
    id: `victim-${victims}`,
    name: `Victim ${victims}`,
    email: `victim-${victims}@example.edu`,
    roles: ROLES.learner,
  });
  return submitted((await launched(home, `victim-${victims}`)).ltik, `victim ${victims}`);
}

interface Row {
  route: string;
  request(caller: Caller): Request | Promise<Request>;
  /** The status each caller gets, in the order of CALLERS. */
  expect: number[];
}

const A = () => assignmentPath;
const INSTRUCTORS_ONLY = [401, 403, 403, 403, 200, 403, 403, 401, 200];
const INSTRUCTOR_ACTION = [401, 403, 403, 403, 303, 403, 403, 401, 303];
const ADMINS_ONLY = [401, 401, 401, 401, 401, 401, 401, 200, 200];

const rows: Row[] = [
  {
    route: 'GET /assignments/:id',
    request: () => ({ method: 'GET', path: A() }),
    expect: [401, 200, 200, 403, 303, 403, 403, 401, 303],
  },
  {
    route: 'GET /assignments/:id/dashboard',
    request: () => ({ method: 'GET', path: `${A()}/dashboard` }),
    expect: INSTRUCTORS_ONLY,
  },
  {
    route: 'GET /assignments/:id/export.csv',
    request: () => ({ method: 'GET', path: `${A()}/export.csv` }),
    expect: INSTRUCTORS_ONLY,
  },
  {
    route: 'GET /assignments/:id/reports.zip',
    request: () => ({ method: 'GET', path: `${A()}/reports.zip` }),
    expect: INSTRUCTORS_ONLY,
  },
  {
    route: 'GET /assignments/:id/settings',
    request: () => ({ method: 'GET', path: `${A()}/settings` }),
    expect: INSTRUCTORS_ONLY,
  },
  {
    route: 'GET /assignments/:id/settings/status',
    request: () => ({ method: 'GET', path: `${A()}/settings/status` }),
    expect: INSTRUCTORS_ONLY,
  },
  {
    route: 'GET /assignments/:id/submissions/:sid/history',
    request: () => ({ method: 'GET', path: `${A()}/submissions/${paper}/history` }),
    expect: INSTRUCTORS_ONLY,
  },
  {
    route: 'GET /assignments/:id/my-submissions (status JSON)',
    request: () => ({ method: 'GET', path: `${A()}/my-submissions` }),
    expect: [401, 200, 200, 403, 200, 403, 403, 401, 200],
  },
  {
    route: 'GET /assignments/:id/submissions/:sid/receipt',
    request: () => ({ method: 'GET', path: `${A()}/submissions/${paper}/receipt` }),
    expect: [401, 200, 404, 403, 404, 403, 403, 401, 404],
  },
  {
    route: 'GET /reports/:sid/similarity',
    request: () => ({ method: 'GET', path: `/reports/${paper}/similarity` }),
    expect: [401, 303, 403, 403, 303, 403, 403, 401, 303],
  },
  // The AI report is the instructors' unless the assignment shows students their AI score (off by default).
  {
    route: 'GET /reports/:sid/ai',
    request: () => ({ method: 'GET', path: `/reports/${paper}/ai` }),
    expect: [401, 403, 403, 403, 303, 403, 403, 401, 303],
  },
  // The one-page summary states the AI score too: the same rule.
  {
    route: 'GET /reports/:sid/summary',
    request: () => ({ method: 'GET', path: `/reports/${paper}/summary` }),
    expect: [401, 403, 403, 403, 303, 403, 403, 401, 303],
  },
  // The same reports shown in place: the same rule, a page instead of a redirect.
  {
    route: 'GET /reports/:sid/similarity/view',
    request: () => ({ method: 'GET', path: `/reports/${paper}/similarity/view` }),
    expect: [401, 200, 403, 403, 200, 403, 403, 401, 200],
  },
  {
    route: 'GET /reports/:sid/ai/view',
    request: () => ({ method: 'GET', path: `/reports/${paper}/ai/view` }),
    expect: [401, 403, 403, 403, 200, 403, 403, 401, 200],
  },
  {
    route: 'GET /reports/:sid/similarity/file (unsigned)',
    request: () => ({ method: 'GET', path: `/reports/${paper}/similarity/file` }),
    expect: CALLERS.map(() => 404),
  },
  { route: 'GET /admin', request: () => ({ method: 'GET', path: '/admin' }), expect: ADMINS_ONLY },
  {
    route: 'GET /lti/keys (public)',
    request: () => ({ method: 'GET', path: '/lti/keys' }),
    expect: CALLERS.map(() => 200),
  },
  {
    route: 'POST /assignments/:id/submissions',
    request: (caller) => ({ method: 'POST', path: `${A()}/submissions`, upload: `matrix upload by ${caller}` }),
    expect: [401, 201, 201, 403, 403, 403, 403, 401, 403],
  },
  {
    route: 'POST /assignments/:id/settings',
    request: async () => ({ method: 'POST', path: `${A()}/settings`, form: settingsForm(await currentSettings(), '') }),
    expect: INSTRUCTOR_ACTION,
  },
  {
    route: 'POST /assignments/:id/resync-grades',
    request: () => ({ method: 'POST', path: `${A()}/resync-grades`, form: new URLSearchParams() }),
    expect: INSTRUCTOR_ACTION,
  },
  {
    route: 'POST /assignments/:id/submissions/:sid/resend',
    request: () => ({ method: 'POST', path: `${A()}/submissions/${paper}/resend`, form: new URLSearchParams() }),
    expect: INSTRUCTOR_ACTION,
  },
  {
    route: 'POST /assignments/:id/submissions/:sid/resync-grade',
    request: () => ({ method: 'POST', path: `${A()}/submissions/${paper}/resync-grade`, form: new URLSearchParams() }),
    expect: INSTRUCTOR_ACTION,
  },
  {
    route: 'POST /assignments/:id/submissions/:sid/delete',
    request: async () => ({
      method: 'POST',
      path: `${A()}/submissions/${await victim()}/delete`,
      form: new URLSearchParams(),
    }),
    expect: INSTRUCTOR_ACTION,
  },
  // Only an instructor's deep-linking launch may add an assignment; no resource-link session can.
  {
    route: 'POST /deep-linking',
    request: () => ({
      method: 'POST',
      path: '/deep-linking',
      form: new URLSearchParams({ title: 'Smuggled assignment' }),
    }),
    expect: [401, 403, 403, 403, 403, 403, 403, 401, 403],
  },
  {
    route: 'POST /admin',
    request: () => ({ method: 'POST', path: '/admin', form: new URLSearchParams() }),
    expect: ADMINS_ONLY,
  },
  {
    route: 'POST /admin/accounts (incomplete)',
    request: () => ({ method: 'POST', path: '/admin/accounts', form: new URLSearchParams({ name: 'x' }) }),
    expect: [401, 401, 401, 401, 401, 401, 401, 400, 400],
  },
  {
    route: 'POST /admin/accounts/default/test',
    request: () => ({ method: 'POST', path: '/admin/accounts/default/test', form: new URLSearchParams() }),
    expect: ADMINS_ONLY,
  },
  {
    route: 'POST /admin/registrations/:id/resync-grades',
    request: () => ({
      method: 'POST',
      path: `/admin/registrations/${platformId}/resync-grades`,
      form: new URLSearchParams(),
    }),
    expect: ADMINS_ONLY,
  },
  {
    route: 'POST /admin/jobs/retry (unknown job)',
    request: () => ({
      method: 'POST',
      path: '/admin/jobs/retry',
      form: new URLSearchParams({ queue: 'grade-post', id: 'not-a-job' }),
    }),
    expect: [401, 401, 401, 401, 401, 401, 401, 400, 400],
  },
];

for (const row of rows) {
  test(`access: ${row.route}`, async () => {
    const answered = {} as Record<Caller, number>;
    const problems: string[] = [];
    for (const caller of CALLERS) {
      const request = await row.request(caller);
      const before = await fingerprint();
      const answer = await send(caller, request);
      answered[caller] = answer.status;
      const allowed = answer.status < 400;
      if (!allowed && (await fingerprint()) !== before) problems.push(`${caller}: refused, yet something changed`);
      if (!ENTITLED.includes(caller) && (answer.body.includes(paper) || /rivers|Sam Student/.test(answer.body)))
        problems.push(`${caller}: the answer shows the owner's paper`);
    }
    const expected = Object.fromEntries(CALLERS.map((caller, i) => [caller, row.expect[i]]));
    const right = CALLERS.filter(
      (caller) =>
        answered[caller] === expected[caller] && !problems.some((problem) => problem.startsWith(`${caller}:`)),
    ).length;
    recordFigures({ accessCells: CALLERS.length, accessCellsAsExpected: right });
    assert.deepEqual(answered, expected);
    assert.deepEqual(problems, []);
  });
}
