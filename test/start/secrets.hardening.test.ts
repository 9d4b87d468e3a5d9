// Secrets stay secret: a whole flow (launches, settings, a submission scored and graded through a failing gradebook,
// its report, the admin page with a service account added and tested, refused launches and callbacks) runs at
// LOG_LEVEL=trace with every log line kept, and no password, token, client assertion, key or session key appears
// in a log line, nor in a page served to anyone who should not have it. The tokens are read from the run: the
// id_tokens the platform signed, the client assertions its token endpoint received and the access tokens it
// issued, and the login tokens the checking service handed out. (An administrator's page shows the callback address, secret included, for the service operator; a page
// carries its own user's session key, or the admin token that opened it, in its links and forms.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { AGS_SCOPES, accessToken } from '../../src/grades/ags.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { essay, recordFigures, settle } from '../support/hardening.js';
import { settingsForm } from '../support/forms.js';
import { startTestPlatform, type TestPlatform } from '../support/platform.js';
import { FAST_JOBS, freePort, startTestTool, type TestTool } from '../support/tool.js';
import type { AssignmentSettings } from '../../src/assignments/settings.js';

const SERVICE_PASSWORD = 'ServicePassword7f3a9c2e51d84b06';
const ACCOUNT_PASSWORD = 'AccountPassword2b8e4d1f09c3a775';
const ADMIN_TOKEN = 'AdminToken5c1e7a9d3f2b8046e1d7';
const CALLBACK_SECRET = 'CallbackSecret9a4c2e7f1b3d5086';
const ENCRYPTION_KEY = 'EncryptionKey3e8a1c6f9d2b4071a5c8e3f6';

let sandbox: Sandbox;
let tool: TestTool;
let lms: TestPlatform;

before(async () => {
  const port = await freePort();
  sandbox = await startSandbox({
    delayMs: 300,
    callbackUrl: `http://127.0.0.1:${port}/checker/callback/${CALLBACK_SECRET}`,
    users: [
      { email: 'service@example.edu', password: SERVICE_PASSWORD },
      { email: 'institution@example.edu', password: ACCOUNT_PASSWORD },
    ],
  });
  tool = await startTestTool({
    PORT: String(port),
    CHECKER_URL: sandbox.url,
    CHECKER_USERNAME: 'service@example.edu',
    CHECKER_PASSWORD: SERVICE_PASSWORD,
    CALLBACK_SECRET,
    ADMIN_TOKEN,
    ENCRYPTION_KEY,
    ...FAST_JOBS,
    LOG_LEVEL: 'trace',
    POLL_SCHEDULE_SECONDS: '1,2',
  });
  lms = await startTestPlatform(tool);
  lms.platform.addResourceLink({ id: 'essay-1', title: 'Essay 1', lineItem: { label: 'Essay 1', scoreMaximum: 100 } });
});
after(async () => {
  await lms?.close();
  await tool?.stop();
  await sandbox?.close();
});

/** Every body the tool served, with whose session asked for it. */
const pages: Array<{ who: string; path: string; body: string }> = [];
const ltiks = new Map<string, string>();
const idTokens: string[] = [];

async function visit(who: string, path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(new URL(path, tool.url), { redirect: 'manual', ...init });
  pages.push({ who, path, body: Buffer.from(await response.clone().arrayBuffer()).toString('latin1') });
  return response;
}

async function launchAs(
  who: string,
  userId: string,
  options: { messageType?: 'LtiDeepLinkingRequest'; replaceIdToken?: (token: string) => string } = {},
): Promise<string> {
  const result = await launch(lms.platform, { userId, resourceLinkId: 'essay-1', ...options });
  pages.push({ who, path: result.url, body: result.body });
  idTokens.push(result.idToken);
  const ltik = result.ltik ?? /name="ltik" value="([^"]+)"/.exec(result.body)?.[1] ?? '';
  if (ltik) ltiks.set(who, ltik);
  return ltik;
}

const form = (fields: Record<string, string> | URLSearchParams) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const withLtik = (path: string, ltik: string) =>
  `${path}${path.includes('?') ? '&' : '?'}ltik=${encodeURIComponent(ltik)}`;

test('no secret in any log line or page, through a whole flow', { timeout: 120_000 }, async (t) => {
  // The instructor: dashboard, settings saved, CSV; a deep-linking launch.
  const teacher = await launchAs('teacher', 'instructor-1');
  const assignment = pages.at(-1)!.path.match(/\/assignments\/[0-9a-f-]{36}/)![0];
  await visit('teacher', withLtik(`${assignment}/settings`, teacher));
  const settings = (await tool.tool.database.db.selectFrom('assignment').select('settings').executeTakeFirstOrThrow())
    .settings as AssignmentSettings;
  await visit(
    'teacher',
    `${assignment}/settings`,
    form(settingsForm({ ...settings, instructions: 'Cite your sources.' }, teacher)),
  );
  await launchAs('teacher-adding', 'instructor-1', { messageType: 'LtiDeepLinkingRequest' });

  // A student: the page, a paper, its receipt and status, scored and graded, the report.
  const student = await launchAs('student', 'student-1');
  // The gradebook fails until the grade job has logged its failure (with whatever the error carries).
  const gradeTrouble = (line: string) => /"level":(40|50)/.test(line) && /gradebook|grade/i.test(line);
  lms.platform.setFaults({ agsStatus: 500 });
  const healing = (async () => {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !tool.logs.some(gradeTrouble))
      await new Promise((resolve) => setTimeout(resolve, 200));
    lms.platform.setFaults({});
  })();
  const upload = new FormData();
  upload.append('file', new Blob([essay('secrets flow')]), 'essay.txt');
  const receipt = (await (
    await visit('student', withLtik(`${assignment}/submissions`, student), {
      method: 'POST',
      body: upload,
      headers: { accept: 'application/json' },
    })
  ).json()) as { submissionId: string };
  await healing;
  assert.deepEqual(await settle(tool.tool.database.db, [receipt.submissionId], 60_000), []);
  await visit('student', withLtik(`${assignment}/submissions/${receipt.submissionId}/receipt`, student));
  await visit('student', withLtik(`${assignment}/my-submissions`, student));
  await visit('student', withLtik(assignment, student));
  const report = await visit('student', withLtik(`/reports/${receipt.submissionId}/similarity`, student));
  const reportLink = report.headers.get('location')!;
  await visit('student', reportLink);
  for (const path of ['dashboard', 'export.csv', `submissions/${receipt.submissionId}/history`])
    await visit('teacher', withLtik(`${assignment}/${path}`, teacher));

  // Administrators: the token, a service account added and tested, and an LMS administrator's launch.
  const admin = { authorization: `AdminToken ${ADMIN_TOKEN}` };
  await visit('admin', '/admin', { headers: admin });
  await visit('admin', '/admin/accounts', {
    ...form({
      name: 'Institution',
      baseUrl: sandbox.url,
      username: 'institution@example.edu',
      password: ACCOUNT_PASSWORD,
    }),
    headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
  });
  const account = (await tool.tool.database.db.selectFrom('checker_account').select('id').executeTakeFirstOrThrow()).id;
  const tested = await visit('admin', `/admin/accounts/${account}/test`, {
    ...form({}),
    headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.match(await tested.text(), /The login works/);
  const lmsAdmin = await launchAs('lms-admin', 'admin-1');
  await visit('lms-admin', withLtik('/admin', lmsAdmin));

  // Refusals: a forged launch, a wrong callback secret, a wrong admin token, pages without a session.
  await launchAs('intruder', 'student-2', { replaceIdToken: (token) => `${token.slice(0, -8)}AAAAAAAA` });
  await visit('service', `/checker/callback/${CALLBACK_SECRET.replace(/.$/, 'X')}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: '{"paper_id": 1}',
  });
  await visit('intruder', '/admin', { headers: { authorization: 'AdminToken not-the-token-not-the-token' } });
  await visit('intruder', `${assignment}/dashboard`);

  const registration = lms.platform.registration();
  const tokens = await Promise.all(
    Object.values(AGS_SCOPES).map((scope) =>
      accessToken(tool.tool.platforms, { issuer: registration.issuer, clientId: registration.clientId }, scope),
    ),
  );
  const secrets: Array<{ name: string; value: string; mayShow?: (page: { who: string; path: string }) => boolean }> = [
    { name: 'service password', value: SERVICE_PASSWORD },
    { name: 'stored account password', value: ACCOUNT_PASSWORD },
    { name: 'ADMIN_TOKEN', value: ADMIN_TOKEN, mayShow: (page) => page.who === 'admin' },
    { name: 'ENCRYPTION_KEY', value: ENCRYPTION_KEY },
    {
      name: 'CALLBACK_SECRET',
      value: CALLBACK_SECRET,
      mayShow: (page) => ['admin', 'lms-admin'].includes(page.who) && page.path.includes('/admin'),
    },
    ...[...ltiks].map(([who, ltik]) => ({
      name: `${who}'s session key`,
      value: ltik,
      mayShow: (page: { who: string }) => page.who === who,
    })),
    ...idTokens.filter(Boolean).map((value, i) => ({ name: `id_token ${i + 1}`, value })),
    ...tokens.map((value, i) => ({ name: `AGS access token ${i + 1}`, value })),
    ...lms.platform
      .tokenExchanges()
      .flatMap((exchange, i) => [
        { name: `client assertion ${i + 1}`, value: exchange.clientAssertion },
        ...(exchange.accessToken
          ? [{ name: `access token ${i + 1} issued by the platform`, value: exchange.accessToken }]
          : []),
      ]),
    ...sandbox.issuedTokens().map((value, i) => ({ name: `checking-service login token ${i + 1}`, value })),
    // The report link's signature is the student's to follow (it came in a redirect), never the log's.
    {
      name: 'report link signature',
      value: new URL(reportLink, tool.url).searchParams.get('signature')!,
      mayShow: () => true,
    },
  ];
  assert.ok(
    lms.platform.tokenExchanges().length > 0 && sandbox.issuedTokens().length > 0,
    'the run exchanged no tokens to search for',
  );
  assert.ok(
    tool.logs.some((line) => line.includes('"level":20')),
    'no debug lines (the request log) were searched',
  );
  assert.ok(tool.logs.some(gradeTrouble), 'the failing gradebook left no warning or error to search');
  const leaks: string[] = [];
  for (const secret of secrets) {
    for (const line of tool.logs)
      if (line.includes(secret.value)) leaks.push(`${secret.name} in the log: ${line.slice(0, 300)}`);
    for (const page of pages)
      if (page.body.includes(secret.value) && !secret.mayShow?.(page))
        leaks.push(`${secret.name} in ${page.path} served to ${page.who}`);
  }
  recordFigures({
    leaks: leaks.length,
    secretsSearched: secrets.length,
    logLinesSearched: tool.logs.length,
    pagesSearched: pages.length,
  });
  t.diagnostic(
    `${secrets.length} secrets searched in ${tool.logs.length} log lines and ${pages.length} pages: ${leaks.length} found`,
  );
  assert.ok(
    pages.some((page) => page.who === 'teacher' && page.body.includes(teacher)),
    'the search would not find a session key in a page',
  );
  assert.deepEqual(leaks, []);
});
