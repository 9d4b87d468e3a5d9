// A course on a dev platform: one assignment, opened by its instructor (which creates it in the tool), and a
// way for its students to launch and submit, as the tests need it.
import assert from 'node:assert/strict';
import { launch } from '../../src/devplatform/agent.js';
import { ROLES, type PlatformRules } from '../../src/devplatform/index.js';
import { assignAccount, saveAccount } from '../../src/accounts/store.js';
import { listRegistrations } from '../../src/lti/registrations.js';
import { startTestPlatform, type TestPlatform } from './platform.js';
import type { TestTool } from './tool.js';

export interface TestCourse {
  lms: TestPlatform;
  /** The assignment's path in the tool, e.g. /assignments/<id>. */
  path: string;
  /** A student (added to the course when new) launches and submits a text file; gives the submission id. */
  submit(userId: string, text: string): Promise<string>;
  /** The same, giving the tool's answer whatever it is, and whether the launch or the upload gave it (a network failure: status 0). */
  trySubmit(
    userId: string,
    text: string,
  ): Promise<{ stage: 'launch' | 'upload'; status: number; submissionId: string | null; body: string }>;
}

/** On a new platform (registered with the tool), or on `lms` when given (then a tool elsewhere needs only its address). */
export async function openCourse(
  tool: TestTool | { url: string },
  options: {
    rules?: PlatformRules;
    clientId: string;
    title?: string;
    lms?: TestPlatform;
    /** The resource link of the assignment ("essay" unless told): another one on the same `lms` is another assignment. */
    linkId?: string;
  },
): Promise<TestCourse> {
  const lms =
    options.lms ??
    ('tool' in tool
      ? await startTestPlatform(tool, { rules: options.rules ?? 'spec', clientId: options.clientId })
      : assert.fail('a tool in another process needs a platform registered already'));
  const title = options.title ?? `Essay (${options.clientId})`;
  const linkId = options.linkId ?? 'essay';
  lms.platform.addResourceLink({ id: linkId, title, lineItem: { label: title, scoreMaximum: 100 } });
  const instructor = await launch(lms.platform, { userId: 'instructor-1', resourceLinkId: linkId });
  assert.equal(instructor.status, 200);
  const path = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');
  const trySubmit = async (userId: string, text: string): ReturnType<TestCourse['trySubmit']> => {
    if (!lms.platform.users().some((user) => user.id === userId)) {
      lms.platform.addUser({
        id: userId,
        name: `Student ${userId}`,
        email: `${userId}@example.edu`,
        roles: ROLES.learner,
      });
    }
    let stage: 'launch' | 'upload' = 'launch';
    try {
      const student = await launch(lms.platform, { userId, resourceLinkId: linkId });
      if (!student.ltik) return { stage, status: student.status, submissionId: null, body: student.body };
      stage = 'upload';
      const form = new FormData();
      form.append('file', new Blob([text]), `${userId}.txt`);
      const response = await fetch(`${tool.url}${path}/submissions`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${student.ltik}`, accept: 'application/json' },
      });
      const body = await response.text();
      const submissionId = response.ok ? String((JSON.parse(body) as { submissionId: string }).submissionId) : null;
      return { stage, status: response.status, submissionId, body };
    } catch (error) {
      return { stage, status: 0, submissionId: null, body: String(error) };
    }
  };
  const submit = async (userId: string, text: string) => {
    const answer = await trySubmit(userId, text);
    assert.equal(answer.status, 201, answer.body);
    return answer.submissionId!;
  };
  return { lms, path, submit, trySubmit };
}

/** A course on a new platform whose assignments use a service account of their own (a login at `serviceUrl`). */
export async function openCourseWithOwnAccount(
  tool: TestTool,
  options: { clientId: string; serviceUrl: string; login: { email: string; password: string; name: string } },
): Promise<TestCourse> {
  const db = tool.tool.database.db;
  const account = await saveAccount(db, tool.config.encryptionKey, {
    name: options.login.name,
    baseUrl: options.serviceUrl,
    username: options.login.email,
    password: options.login.password,
  });
  const lms = await startTestPlatform(tool, { clientId: options.clientId });
  const platform = (await listRegistrations(db)).find(
    (registration) => registration.issuer === lms.platform.registration().issuer,
  );
  assert.ok(platform && (await assignAccount(db, platform.id, account.id)));
  return openCourse(tool, { clientId: options.clientId, lms });
}

/** A student of the course (added when new) launched into its assignment: their session's ltik. */
export async function studentLtik(course: TestCourse, userId: string): Promise<string> {
  if (!course.lms.platform.users().some((user) => user.id === userId)) {
    course.lms.platform.addUser({
      id: userId,
      name: `Student ${userId}`,
      email: `${userId}@example.edu`,
      roles: ROLES.learner,
    });
  }
  const student = await launch(course.lms.platform, { userId, resourceLinkId: 'essay' });
  assert.ok(student.ltik, `the student's launch: ${student.status}`);
  return student.ltik;
}

const STREAM_BOUNDARY = '----streamed-upload';

/** The start of a multipart body whose one file (`filename`) follows in the bytes a test streams after it. */
export const streamedFileHead = (filename: string) =>
  new TextEncoder().encode(
    `--${STREAM_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
  );

/** Posts a streamed multipart body (begun with streamedFileHead) as a student's upload to the assignment at `url`. */
export function postStreamedUpload(url: string, ltik: string, body: ReadableStream<Uint8Array>): Promise<Response> {
  return fetch(`${url}/submissions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${ltik}`,
      accept: 'application/json',
      'content-type': `multipart/form-data; boundary=${STREAM_BOUNDARY}`,
    },
    body,
    duplex: 'half',
  } as RequestInit);
}
