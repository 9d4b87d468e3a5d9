// The bad-input catalogue's forms (test/support/bad-inputs.ts): markup in every text field of the settings, admin
// and deep-linking forms and in names from the LMS, shown escaped; SQL kept as text; NUL characters; due dates that
// do not exist; missing or cross-site CSRF proofs. Each with the answer it must get, nothing half-written and the
// tool still up.
import assert from 'node:assert/strict';
import { launch } from '../../src/devplatform/agent.js';
import type { AssignmentSettings } from '../../src/assignments/settings.js';
import { settingsForm } from '../support/forms.js';
import { payloadOf } from '../support/id-token.js';
import {
  ADMIN,
  ADMIN_TOKEN,
  type Answer,
  answerOf,
  assignmentPath,
  badInputTool,
  catalogue,
  currentSettings,
  lms,
  ltiks,
  refusesEscaped,
  shownEscaped,
  showsEscaped,
  SQL,
  tool,
  XSS,
} from '../support/bad-inputs.js';

badInputTool();

// ---- forms ----

async function post(path: string, form: URLSearchParams, headers: Record<string, string> = {}): Promise<Answer> {
  return answerOf(
    await fetch(`${tool.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: form.toString(),
    }),
  );
}
/** The settings form with some fields changed (null: left out), sent as the instructor unless told. */
async function postSettings(
  change: Record<string, string | null>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const form = settingsForm(await currentSettings(), ltiks.instructor);
  for (const [name, value] of Object.entries(change)) {
    if (value === null) form.delete(name);
    else form.set(name, value);
  }
  return post(`${assignmentPath}/settings`, form, headers);
}
const adminForm = (fields: Record<string, string>) =>
  post(fields.path!, new URLSearchParams(Object.entries(fields).filter(([name]) => name !== 'path')), ADMIN);
const storedSettings = async (check: (settings: AssignmentSettings) => void) => check(await currentSettings());

catalogue('form', [
  {
    name: 'markup in the excluded phrases',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ excludedPhrases: XSS }),
    check: () => showsEscaped(`${assignmentPath}/settings`, 'instructor'),
  },
  {
    name: 'markup in the language',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ language: XSS }),
    check: () => showsEscaped(`${assignmentPath}/settings`, 'instructor'),
  },
  {
    name: 'markup in the document type',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ documentType: XSS }),
    check: () => showsEscaped(`${assignmentPath}/settings`, 'instructor'),
  },
  {
    name: 'markup in the instructions (shown to students)',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ instructions: XSS }),
    check: () => showsEscaped(assignmentPath, 'student'),
  },
  {
    name: 'markup in the resubmission choice',
    status: 400,
    send: () => postSettings({ resubmission: XSS }),
    check: refusesEscaped,
  },
  {
    name: 'markup in the results visibility',
    status: 400,
    send: () => postSettings({ resultsVisibleTo: XSS }),
    check: refusesEscaped,
  },
  {
    name: 'markup in the gradebook column',
    status: 400,
    send: () => postSettings({ gradeColumn: XSS }),
    check: refusesEscaped,
  },
  {
    name: 'markup in the file types',
    status: 400,
    send: () => postSettings({ allowedFileTypes: XSS }),
    check: refusesEscaped,
  },
  {
    name: 'markup in a number field',
    status: 400,
    send: () => postSettings({ maxFileMb: XSS }),
    check: refusesEscaped,
  },
  {
    name: 'markup in the due date',
    status: 400,
    send: () => postSettings({ dueAt: XSS }),
    check: (answer) => {
      refusesEscaped(answer);
      assert.match(answer.body, /Enter the due date as a date and a time/);
    },
  },
  {
    name: 'a due date of 31 April',
    status: 400,
    send: () => postSettings({ dueAt: '2026-04-31T17:00' }),
    check: (answer) => assert.match(answer.body, /Enter the due date as a date and a time/),
  },
  {
    name: 'a due date at 24:30',
    status: 400,
    send: () => postSettings({ dueAt: '2026-12-01T24:30' }),
    check: (answer) => assert.match(answer.body, /Enter the due date as a date and a time/),
  },
  {
    name: 'SQL in the excluded phrases, kept as text',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ excludedPhrases: SQL }),
    check: () => storedSettings((settings) => assert.deepEqual(settings.excludedPhrases, [SQL])),
  },
  {
    name: 'SQL in the instructions, kept as text',
    status: 303,
    changesSettings: true,
    send: () => postSettings({ instructions: SQL }),
    check: () => storedSettings((settings) => assert.equal(settings.instructions, SQL)),
  },
  {
    name: 'a NUL character in the instructions',
    status: 400,
    send: () => postSettings({ instructions: 'Read this\u0000 twice' }),
  },
  {
    name: 'sixteen excluded phrases',
    status: 400,
    send: () => postSettings({ excludedPhrases: Array.from({ length: 16 }, (_, i) => `phrase ${i}`).join('\n') }),
  },
  {
    name: 'instructions of 10,001 characters',
    status: 400,
    send: () => postSettings({ instructions: 'x'.repeat(10_001) }),
  },
  { name: 'a negative attempt limit', status: 400, send: () => postSettings({ maxAttempts: '-1' }) },
  { name: 'an infinite file size (1e309)', status: 400, send: () => postSettings({ maxFileMb: '1e309' }) },
  { name: 'a form of 100 KB', status: 413, send: () => postSettings({ instructions: 'x'.repeat(100_000) }) },
  {
    name: 'CSRF: settings without the session key',
    status: 401,
    send: () => postSettings({ ltik: null, language: 'Latin' }),
  },
  {
    name: "CSRF: settings with a student's session key",
    status: 403,
    send: () => postSettings({ ltik: ltiks.student, language: 'Latin' }),
  },
  {
    name: 'CSRF: settings sent from another site',
    status: 403,
    send: () => postSettings({ language: 'Latin' }, { 'sec-fetch-site': 'cross-site' }),
  },
  {
    name: 'CSRF: settings from a foreign Origin',
    status: 403,
    send: () => postSettings({ language: 'Latin' }, { origin: 'https://attacker.example' }),
  },
  {
    name: 'CSRF: a row action without the session key',
    status: 401,
    send: () =>
      post(`${assignmentPath}/submissions/00000000-0000-4000-8000-000000000000/delete`, new URLSearchParams()),
  },
  {
    name: 'CSRF: an admin form without the token',
    status: 401,
    send: () =>
      post(
        '/admin/accounts',
        new URLSearchParams({ name: 'x', baseUrl: 'https://x.example', username: 'u', password: 'p' }),
      ),
  },
  {
    name: 'CSRF: an admin form with the token, from another site',
    status: 403,
    send: () =>
      post(
        '/admin/accounts',
        new URLSearchParams({
          adminToken: ADMIN_TOKEN,
          name: 'x',
          baseUrl: 'https://x.example',
          username: 'u',
          password: 'p',
        }),
        { 'sec-fetch-site': 'cross-site' },
      ),
  },
  {
    name: 'markup in a service account name',
    status: 200,
    adds: { checker_account: 1 },
    send: () =>
      adminForm({
        path: '/admin/accounts',
        name: XSS,
        baseUrl: 'http://127.0.0.1:9',
        username: 'xss@example.edu',
        password: 'pw',
      }),
    check: shownEscaped,
  },
  {
    name: 'a javascript: service address',
    status: 400,
    send: () =>
      adminForm({
        path: '/admin/accounts',
        name: 'js',
        baseUrl: 'javascript:alert(1)',
        username: 'js@example.edu',
        password: 'pw',
      }),
    check: refusesEscaped,
  },
  {
    name: 'markup in a registration name',
    status: 200,
    adds: { platform: 1, platformKeys: 1 },
    send: () =>
      adminForm({
        path: '/admin/registrations',
        name: XSS,
        issuer: 'https://lms.xss.example',
        clientId: 'xss',
        deploymentId: 'd1',
        authUrl: 'https://lms.xss.example/auth',
        tokenUrl: 'https://lms.xss.example/token',
        jwksUrl: 'https://lms.xss.example/jwks',
      }),
    check: shownEscaped,
  },
  {
    name: 'a javascript: registration URL',
    status: 400,
    send: () =>
      adminForm({
        path: '/admin/registrations',
        name: 'js',
        issuer: 'https://lms.js.example',
        clientId: 'js',
        deploymentId: 'd1',
        authUrl: 'javascript:alert(1)',
        tokenUrl: 'https://lms.js.example/token',
        jwksUrl: 'https://lms.js.example/jwks',
      }),
  },
  {
    name: 'markup in a deep-linked assignment title',
    status: 200,
    adds: { assignment: 1 },
    send: () => post('/deep-linking', new URLSearchParams({ ltik: ltiks.deepLinking, title: XSS })),
    check: shownEscaped,
  },
  {
    name: 'a NUL character in a deep-linked assignment title',
    status: 400,
    send: () => post('/deep-linking', new URLSearchParams({ ltik: ltiks.deepLinking, title: 'Essay\u0000 2' })),
  },
  {
    name: 'a NUL character in a service account name',
    status: 400,
    send: () =>
      adminForm({
        path: '/admin/accounts',
        name: 'Account\u0000',
        baseUrl: 'http://127.0.0.1:9',
        username: 'nul@example.edu',
        password: 'pw',
      }),
  },
  {
    name: 'a NUL character in a registration name',
    status: 400,
    send: () =>
      adminForm({
        path: '/admin/registrations',
        name: 'LMS\u0000',
        issuer: 'https://lms.nul.example',
        clientId: 'nul',
        deploymentId: 'd1',
        authUrl: 'https://lms.nul.example/auth',
        tokenUrl: 'https://lms.nul.example/token',
        jwksUrl: 'https://lms.nul.example/jwks',
      }),
  },
  {
    name: "a NUL character in a student's name from the LMS",
    status: 401,
    send: () =>
      launch(lms.platform, {
        userId: 'student-3',
        resourceLinkId: 'essay-1',
        replaceIdToken: (original) => lms.platform.sign({ ...payloadOf(original), name: 'Lee\u0000' }),
      }).then((result) => ({ status: result.status, body: result.body })),
  },
  {
    name: 'an empty deep-linked assignment title',
    status: 400,
    send: () => post('/deep-linking', new URLSearchParams({ ltik: ltiks.deepLinking, title: '   ' })),
  },
  {
    name: 'a deep-linked assignment title of 201 characters',
    status: 400,
    send: () => post('/deep-linking', new URLSearchParams({ ltik: ltiks.deepLinking, title: 't'.repeat(201) })),
  },
  {
    name: "markup in a student's name from the LMS",
    status: 200,
    adds: { lti_user: 1, course_member: 1, session: 1 },
    send: () =>
      launch(lms.platform, {
        userId: 'student-2',
        resourceLinkId: 'essay-1',
        replaceIdToken: (original) => lms.platform.sign({ ...payloadOf(original), name: XSS }),
      }).then((result) => ({ status: result.status, body: result.body })),
    check: shownEscaped,
  },
]);
