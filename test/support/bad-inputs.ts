// The bad-input catalogue's harness: the tool and the platform a catalogue of id_tokens, uploads, callbacks, forms
// or query strings is sent to, and the case runner that checks after each case that the tool is still up and nothing
// was written that the case should not write (rows counted before and after, no file left half-received, settings
// unchanged). Each catalogue is a test file of its part, named bad-<what>.hardening.test.ts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import type { AssignmentSettings } from '../../src/assignments/settings.js';
import { allowResubmission, recordFigures } from './hardening.js';
import { startTestPlatform, type TestPlatform } from './platform.js';
import { unclaimedChunks } from './stored-files.js';
import { startTestTool, type TestTool } from './tool.js';

export const ADMIN_TOKEN = 'hardening-inputs-admin-token-0123456789';
export const CALLBACK_SECRET = 'hardening-inputs-callback-secret-0123';
/** Breaks out of an attribute and a text node alike; it must come back escaped wherever it is shown. */
export const XSS = `"><img src=x onerror=alert(1)><script>alert(1)</script>`;
export const XSS_RAW = [/<img src=x onerror=alert\(1\)>/, /<script>alert\(1\)<\/script>/];
export const SQL = `Robert'); DROP TABLE submission; --`;

export let tool: TestTool;
export let lms: TestPlatform;
export let assignmentPath = '';
export const ltiks: Record<'instructor' | 'student' | 'deepLinking', string> = {
  instructor: '',
  student: '',
  deepLinking: '',
};
export const db = () => tool.tool.database.db;

/** Starts the tool and the platform the catalogue is sent to, before the file's tests, and stops them after. */
export function badInputTool(): void {
  before(async () => {
    // No poll falls due for ten minutes: a paper whose callback the sandbox dropped stays in processing until the test
    // sends a callback for it (see heldInProcessing).
    tool = await startTestTool({
      SANDBOX_DELAY_MS: '300',
      JOB_POLLING_SECONDS: '0.5',
      POLL_SCHEDULE_SECONDS: '600',
      ADMIN_TOKEN,
      CALLBACK_SECRET,
    });
    lms = await startTestPlatform(tool);
    lms.platform.addResourceLink({
      id: 'essay-1',
      title: 'Essay 1',
      lineItem: { label: 'Essay 1', scoreMaximum: 100 },
    });
    const instructor = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: 'essay-1' });
    assignmentPath = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');
    ltiks.instructor = instructor.ltik!;
    ltiks.student = (await launch(lms.platform, { userId: 'student-1', resourceLinkId: 'essay-1' })).ltik!;
    // The deep-linking page carries its session key in its form.
    ltiks.deepLinking = /name="ltik" value="([^"]+)"/.exec(
      (await launch(lms.platform, { userId: 'instructor-1', messageType: 'LtiDeepLinkingRequest' })).body,
    )![1]!;
    await allowResubmission(db(), assignmentPath);
    const settings = await currentSettings();
    await db()
      .updateTable('assignment')
      .set({ settings: JSON.stringify({ ...settings, maxFileMb: 1 }) })
      .where('id', '=', assignmentId())
      .execute();
  });
  after(async () => {
    await lms?.close();
    await tool?.stop();
  });
}

export const assignmentId = () => assignmentPath.split('/').pop()!;
export async function currentSettings(): Promise<AssignmentSettings> {
  const row = await db()
    .selectFrom('assignment')
    .select('settings')
    .where('id', '=', assignmentId())
    .executeTakeFirstOrThrow();
  return row.settings as AssignmentSettings;
}

export interface Answer {
  status: number;
  body: string;
}

export async function answerOf(response: Response): Promise<Answer> {
  return { status: response.status, body: await response.text() };
}

// ---- what "nothing half-written" is measured by ----

export const COUNTED = [
  'submission',
  'assignment',
  'lti_user',
  'course_member',
  'platform',
  'checker_account',
] as const;
export type Counted = (typeof COUNTED)[number] | 'session' | 'platformKeys';

export async function counts(): Promise<Record<Counted, number>> {
  const result = {} as Record<Counted, number>;
  for (const table of COUNTED)
    result[table] = Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const { rows } = await tool.tool.database.pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM lti_record WHERE collection = 'session'",
  );
  result.session = Number(rows[0]!.n);
  // The tool's key pairs, in the platform table (ltijs's records would hold a copy: counted too, and never one).
  const keys = await tool.tool.database.pool.query<{ n: string }>(
    `SELECT (SELECT count(*) FROM platform WHERE key_id IS NOT NULL)
          + (SELECT count(*) FROM lti_record WHERE collection IN ('platform', 'publickey', 'privatekey')) AS n`,
  );
  result.platformKeys = Number(keys.rows[0]!.n);
  return result;
}

/** What files still being received left in the database (a refused upload must leave nothing). */
export const halfReceived = () => unclaimedChunks(tool.tool.database.db);

export interface Case {
  name: string;
  /** Sets up what the case needs, before the rows are counted. */
  prepare?(): Promise<void>;
  send(): Promise<Answer>;
  status: number;
  /** Rows the case writes when it is answered as expected (by default none). */
  adds?: Partial<Record<Counted, number>>;
  /** The case may change the assignment's settings (they are put back afterwards). */
  changesSettings?: boolean;
  /** More of what the answer must be (shown escaped, a clean label, ...). */
  check?(answer: Answer): void | Promise<void>;
}

/** Runs a group of cases, one test each, and records how many were answered exactly as expected. */
export function catalogue(group: string, cases: Case[]): void {
  for (const c of cases) {
    test(`${group}: ${c.name}`, async () => {
      await c.prepare?.();
      const before = await counts();
      const settingsBefore = JSON.stringify(await currentSettings());
      const answer = await c.send();
      const after = await counts();
      const written = Object.fromEntries(
        Object.keys(after)
          .map((key) => [key, after[key as Counted] - before[key as Counted]])
          .filter(([, n]) => n !== 0),
      );
      const expectedWrites = Object.fromEntries(Object.entries(c.adds ?? {}).filter(([, n]) => n !== 0));
      const settingsAfter = JSON.stringify(await currentSettings());
      const alive = (await fetch(`${tool.url}/healthz`).catch(() => null))?.status === 200;
      let failedCheck: unknown = null;
      try {
        await c.check?.(answer);
      } catch (error) {
        failedCheck = error;
      }
      const settingsKept = c.changesSettings || settingsAfter === settingsBefore;
      if (settingsAfter !== settingsBefore)
        await db()
          .updateTable('assignment')
          .set({ settings: settingsBefore })
          .where('id', '=', assignmentId())
          .execute();
      const rowsAsExpected = Object.keys({ ...written, ...expectedWrites }).every(
        (key) => written[key] === expectedWrites[key],
      );
      const asExpected =
        answer.status === c.status &&
        rowsAsExpected &&
        settingsKept &&
        alive &&
        (await halfReceived()) === 0 &&
        !failedCheck;
      recordFigures({ badInputs: 1, badInputsAsExpected: asExpected ? 1 : 0 });
      assert.equal(
        answer.status,
        c.status,
        answer.body
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .slice(0, 400),
      );
      assert.deepEqual(written, expectedWrites, 'rows written');
      assert.ok(settingsKept, 'the settings changed');
      assert.ok(alive, 'the tool does not answer /healthz');
      assert.equal(await halfReceived(), 0, 'a half-received file was left behind');
      if (failedCheck) throw failedCheck;
    });
  }
}

export const refusesEscaped = (answer: Answer) => {
  for (const raw of XSS_RAW) assert.doesNotMatch(answer.body, raw, 'a payload came back unescaped');
};
export async function showsEscaped(path: string, who: keyof typeof ltiks): Promise<void> {
  const page = await fetch(`${tool.url}${path}${path.includes('?') ? '&' : '?'}ltik=${encodeURIComponent(ltiks[who])}`);
  const body = await page.text();
  assert.equal(page.status, 200, `${path} answered ${page.status}`);
  refusesEscaped({ status: page.status, body });
  assert.ok(body.includes('&lt;img src=x onerror=alert(1)&gt;'), `${path} does not show the payload escaped`);
}

/** The bootstrap token's header, for the admin pages. */
export const ADMIN = { authorization: `AdminToken ${ADMIN_TOKEN}` };
/** The answer shows the payload, escaped and only escaped. */
export const shownEscaped = (answer: Answer) => {
  refusesEscaped(answer);
  assert.ok(answer.body.includes('&lt;img src=x onerror=alert(1)&gt;'), 'the payload is not shown escaped');
};

/** A part of a token or key, as JWTs write them. */
export const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

// ---- uploads ----

/** A multipart body written by hand, so that its part headers can be anything. */
export function multipart(
  parts: Array<{ disposition: string; content: Buffer | string }>,
  options: { close?: boolean } = {},
): { body: Buffer; type: string } {
  const boundary = `hardening${Math.random().toString(16).slice(2)}`;
  const chunks = parts.flatMap((part) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: ${part.disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`,
      'utf8',
    ),
    Buffer.from(part.content),
    Buffer.from('\r\n'),
  ]);
  if (options.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}
export const filePart = (fileName: string, content: Buffer | string) => ({
  disposition: `form-data; name="file"; filename="${fileName}"`,
  content,
});

export async function upload(
  body: Buffer | string,
  type: string,
  options: { path?: string; ltik?: string } = {},
): Promise<Answer> {
  return answerOf(
    await fetch(`${tool.url}${options.path ?? assignmentPath}/submissions`, {
      method: 'POST',
      body,
      headers: {
        'content-type': type,
        accept: 'application/json',
        authorization: `Bearer ${options.ltik ?? ltiks.student}`,
      },
    }),
  );
}
export function uploadParts(
  parts: Parameters<typeof multipart>[0],
  options: { path?: string; ltik?: string; close?: boolean } = {},
): Promise<Answer> {
  const { body, type } = multipart(parts, options);
  return upload(body, type, options);
}
export const uploadFile = (fileName: string, content: Buffer | string) => uploadParts([filePart(fileName, content)]);
