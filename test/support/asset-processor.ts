// Attaching the tool to a dev platform's assignment as its Asset Processor, as an instructor does: the deep-linking
// launch, the settings form as it comes, and the answer posted back to the platform.
import assert from 'node:assert/strict';
import { defaultSettings } from '../../src/assignments/settings.js';
import { launch, submitForm } from '../../src/devplatform/agent.js';
import { settingsForm } from './forms.js';
import { runToExit } from './process.js';
import type { TestPlatform } from './platform.js';
import { FAST_JOBS, type TestTool } from './tool.js';

export const ltikOf = (html: string) => html.match(/name="ltik" value="([^"]+)"/)?.[1] ?? '';

/** A tool with the Asset Processor whose checks come back within seconds: the sandbox and the jobs quick. */
export const QUICK_ASSET_PROCESSOR = {
  ASSET_PROCESSOR: 'on',
  SANDBOX_DELAY_MS: '200',
  POLL_SCHEDULE_SECONDS: '1,1,2',
  ...FAST_JOBS,
  JOB_RETRY_LIMIT: '20',
} as const;

/** Posts notices to the tool's notice handler as an LMS's notification service does: {"notices":[{"jwt":…}]}. */
export const postNotices = (tool: Pick<TestTool, 'url'>, ...jwts: string[]) =>
  fetch(`${tool.url}/asset-processor/notices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ notices: jwts.map((jwt) => ({ jwt })) }),
  });

/** Posts the attach form of a processor's deep-linking page, with its defaults and `edit` applied. */
export function postAttach(
  tool: Pick<TestTool, 'url'>,
  page: string,
  edit: (form: URLSearchParams) => void = () => {},
) {
  const form = settingsForm(defaultSettings(), ltikOf(page));
  form.set('title', 'Originality check');
  edit(form);
  return fetch(`${tool.url}/asset-processor/attach`, { method: 'POST', body: form, redirect: 'manual' });
}

/** Attaches the tool to the platform's assignment `activity`; returns the tool's assignment id. */
export async function attachToActivity(
  tool: TestTool,
  lms: TestPlatform,
  activity: { id: string; title: string },
): Promise<string> {
  const page = await launch(lms.platform, { userId: 'instructor-1', messageType: 'LtiDeepLinkingRequest', activity });
  assert.equal(page.status, 200, page.body);
  const answer = await postAttach(tool, page.body);
  const body = await answer.text();
  assert.equal(answer.status, 200, body);
  const returned = await submitForm(body, tool.url);
  assert.equal(returned.status, 200, returned.body);
  const row = await tool.tool.database.db
    .selectFrom('assignment')
    .select('id')
    .where('activity_id', '=', activity.id)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** `npm run cli -- platform add` for a Canvas made by hand, against the tool's database, with `env` added. */
export function addCanvasByHand(tool: TestTool, clientId: string, env: Record<string, string> = {}) {
  return runToExit(
    'cli/main.ts',
    [
      'platform',
      'add',
      '--name',
      'Canvas by hand',
      '--issuer',
      'https://canvas.example.edu',
      '--client-id',
      clientId,
      '--deployment-id',
      '1',
      '--auth-url',
      'https://canvas.example.edu/api/lti/authorize_redirect',
      '--token-url',
      'https://canvas.example.edu/login/oauth2/token',
      '--jwks-url',
      'https://canvas.example.edu/api/lti/security/jwks',
    ],
    { ...tool.database.env, ENCRYPTION_KEY: tool.config.encryptionKey, PUBLIC_URL: tool.url, ...env },
  );
}

/**
 * What the asset fetch leaves once a student's file is checked: the student, their scored submission, and the LMS's
 * asset (`assetId` of LMS submission `lmsSubmissionId`) admitted as it. Returns the submission's id.
 */
export async function checkedAsset(
  tool: TestTool,
  lms: { url: string },
  assignmentId: string,
  file: { subject: string; name: string; lmsSubmissionId: string; assetId: string; fileLabel: string; paperId: number },
): Promise<string> {
  const db = tool.tool.database.db;
  const assignment = await db
    .selectFrom('assignment')
    .select('platform_id')
    .where('id', '=', assignmentId)
    .executeTakeFirstOrThrow();
  const student = await db
    .insertInto('lti_user')
    .values({ platform_id: assignment.platform_id, subject: file.subject, name: file.name, email: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const submission = await db
    .insertInto('submission')
    .values({
      assignment_id: assignmentId,
      user_id: student.id,
      attempt: 1,
      state: 'scored',
      file_label: file.fileLabel,
      file_type: 'pdf',
      file_size: 2048,
      sha256: 'c'.repeat(64),
      paper_id: file.paperId,
      similarity: 42,
      scored_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('lms_asset')
    .values({ ...lmsAsset(lms, assignmentId, file), state: 'admitted', submission_id: submission.id })
    .execute();
  return submission.id;
}

/** The columns every kept LMS asset has, as a notice names them. */
export function lmsAsset(
  lms: { url: string },
  assignmentId: string,
  file: { subject: string; lmsSubmissionId: string; assetId: string },
) {
  return {
    assignment_id: assignmentId,
    lms_submission_id: file.lmsSubmissionId,
    asset_id: file.assetId,
    lms_user_id: file.subject,
    notice_id: `notice-${file.lmsSubmissionId}`,
    url: `${lms.url}/assets/${file.assetId}`,
    report_url: `${lms.url}/asset-reports/${file.assetId}`,
  };
}
