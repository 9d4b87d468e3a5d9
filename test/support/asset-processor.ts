// Attaching the tool to a dev platform's assignment as its Asset Processor, as an instructor does: the deep-linking
// launch, the settings form as it comes, and the answer posted back to the platform.
import assert from 'node:assert/strict';
import { defaultSettings } from '../../src/assignments/settings.js';
import { launch, submitForm } from '../../src/devplatform/agent.js';
import { settingsForm } from './forms.js';
import { runToExit } from './process.js';
import type { TestPlatform } from './platform.js';
import type { TestTool } from './tool.js';

export const ltikOf = (html: string) => html.match(/name="ltik" value="([^"]+)"/)?.[1] ?? '';

/** Posts the attach form of a processor's deep-linking page, with its defaults and `edit` applied. */
export function postAttach(tool: Pick<TestTool, 'url'>, page: string, edit: (form: URLSearchParams) => void = () => {}) {
  const form = settingsForm(defaultSettings(), ltikOf(page));
  form.set('title', 'Originality check');
  edit(form);
  return fetch(`${tool.url}/asset-processor/attach`, { method: 'POST', body: form, redirect: 'manual' });
}

/** Attaches the tool to the platform's assignment `activity`; returns the tool's assignment id. */
export async function attachToActivity(tool: TestTool, lms: TestPlatform, activity: { id: string; title: string }): Promise<string> {
  const page = await launch(lms.platform, { userId: 'instructor-1', messageType: 'LtiDeepLinkingRequest', activity });
  assert.equal(page.status, 200, page.body);
  const answer = await postAttach(tool, page.body);
  const body = await answer.text();
  assert.equal(answer.status, 200, body);
  const returned = await submitForm(body, tool.url);
  assert.equal(returned.status, 200, returned.body);
  const row = await tool.tool.database.db.selectFrom('assignment').select('id').where('activity_id', '=', activity.id).executeTakeFirstOrThrow();
  return row.id;
}

/** `npm run cli -- platform add` for a Canvas made by hand, against the tool's database, with `env` added. */
export function addCanvasByHand(tool: TestTool, clientId: string, env: Record<string, string> = {}) {
  return runToExit('cli/main.ts', [
    'platform', 'add', '--name', 'Canvas by hand', '--issuer', 'https://canvas.example.edu', '--client-id', clientId,
    '--deployment-id', '1', '--auth-url', 'https://canvas.example.edu/api/lti/authorize_redirect',
    '--token-url', 'https://canvas.example.edu/login/oauth2/token', '--jwks-url', 'https://canvas.example.edu/api/lti/security/jwks',
  ], { ...tool.database.env, ENCRYPTION_KEY: tool.config.encryptionKey, PUBLIC_URL: tool.url, ...env });
}
