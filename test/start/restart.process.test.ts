// `npm start` stopped in the middle of a submission and started again on the same DATA_DIR: the built tool on its
// embedded database, with the checking-service sandbox in-process and the dev platform at /dev, driven as a
// person does from /dev. The paper at the service when the tool stopped gets its score after the restart (the
// sandbox kept it, and analyses it then), and a paper submitted after the restart is scored too (the sandbox kept
// its folders and its paper ids).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { launch } from '../../src/devplatform/agent.js';
import { decodeHtml } from '../../src/devplatform/html.js';
import { startToolProcess, type ToolProcess } from '../support/process.js';
import { freePort } from '../support/tool.js';
import { en } from '../../src/i18n/en.js';

const home = mkdtempSync(join(tmpdir(), 'olti-restart-'));
const running: ToolProcess[] = [];
after(async () => {
  await Promise.all(running.map((tool) => tool.stop()));
  rmSync(home, { recursive: true, force: true });
});

/** `npm start` in `home` (the tool built into dist/), on a fixed port: the dev platform's address stays the same. */
async function npmStart(port: number, sandboxDelayMs: number): Promise<ToolProcess> {
  const tool = await startToolProcess(
    { PORT: String(port), SANDBOX_DELAY_MS: String(sandboxDelayMs) },
    { cwd: home, entry: 'built', timeoutMs: 120_000 },
  );
  running.push(tool);
  return tool;
}
async function stop(tool: ToolProcess): Promise<void> {
  running.splice(running.indexOf(tool), 1);
  assert.equal(await tool.stop(), 0, tool.output());
}

/** What a person clicks on /dev: "open as <name>" on the demo essay. */
async function openAs(tool: ToolProcess, userId: string, name: string) {
  const page = await (await fetch(`${tool.url}/dev/`)).text();
  const href = new RegExp(`<a href="([^"]+)">open as ${name}</a>`).exec(page)?.[1];
  assert.ok(href, `/dev has no link to open the demo essay as ${name}`);
  const result = await launch({ loginInitiationUrl: () => decodeHtml(href) }, { userId });
  assert.equal(result.status, 200, result.body.slice(0, 500));
  return result;
}

async function submit(
  tool: ToolProcess,
  assignment: string,
  userId: string,
  name: string,
  text: string,
): Promise<string> {
  const student = await openAs(tool, userId, name);
  const form = new FormData();
  form.append('file', new Blob([text]), 'essay.txt');
  const response = await fetch(`${tool.url}${assignment}/submissions`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${student.ltik}`, accept: 'application/json' },
  });
  const body = (await response.json()) as { submissionId?: string; error?: string };
  assert.equal(response.status, 201, body.error);
  return body.submissionId!;
}

/** The student's submission's state, as their page asks for it. */
async function stateOf(
  tool: ToolProcess,
  assignment: string,
  userId: string,
  name: string,
  submissionId: string,
): Promise<string> {
  const { ltik } = await openAs(tool, userId, name);
  const answer = await fetch(`${tool.url}${assignment}/my-submissions`, {
    headers: { authorization: `Bearer ${ltik}` },
  });
  const { submissions } = (await answer.json()) as { submissions: Array<{ submissionId: string; state: string }> };
  return submissions.find((s) => s.submissionId === submissionId)?.state ?? 'missing';
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A student's cell in the /dev gradebook: its grade and its comment, as the page shows them (null: no cell). */
function gradebookCell(page: string, name: string): { grade: string; comment: string } | null {
  const cells = new RegExp(`<td>${name}</td><td>([^<]*)</td><td>[^<]*</td><td>[^<]*</td><td>([^<]*)</td>`).exec(page);
  return cells ? { grade: decodeHtml(cells[1]!), comment: decodeHtml(cells[2]!) } : null;
}

const essay = (topic: string) =>
  Array.from(
    { length: 30 },
    (_, i) => `This essay about ${topic} makes point ${i} with its own example number ${i * 7}.`,
  ).join(' ');

test('npm start stopped while a paper is at the checking service, and started again: the paper gets its score, and new papers are scored', async () => {
  const port = await freePort();
  // The analysis takes ten minutes, as the real service's can: the tool is stopped long before.
  const first = await npmStart(port, 600_000);
  const instructor = await openAs(first, 'instructor-1', 'Iris Instructor');
  const assignment = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');
  const before = await submit(first, assignment, 'student-1', 'Sam Student', essay('rivers'));
  await until(
    'the paper at the checking service',
    async () => (await stateOf(first, assignment, 'student-1', 'Sam Student', before)) === 'processing',
    60_000,
  );
  await stop(first);

  // Started again with the analysis due at once: the paper's analysis was due long ago by then.
  const second = await npmStart(port, 1000);
  assert.match(second.output(), /The sandbox found its data in .*: 1 folders, 1 papers/);
  await until(
    'the score of the paper sent before the restart',
    async () => (await stateOf(second, assignment, 'student-1', 'Sam Student', before)) === 'graded',
    60_000,
  );
  const after = await submit(second, assignment, 'student-2', 'Noor Student', essay('glaciers'));
  await until(
    'the score of a paper sent after the restart',
    async () => (await stateOf(second, assignment, 'student-2', 'Noor Student', after)) === 'graded',
    60_000,
  );
  // Both similarities are in the dev platform's gradebook, where a person looks for them: beside the submission,
  // no grade (the default).
  const gradebook = await (await fetch(`${second.url}/dev/`)).text();
  for (const name of ['Sam Student', 'Noor Student'])
    assert.ok(gradebookCell(gradebook, name)?.comment.match(/^Similarity \d+%/), `${name}'s similarity on /dev`);
  assert.doesNotMatch(second.output(), /not found|duplicate key/i);
  await stop(second);
});

test('npm start stopped after the gradebook got a similarity, and started again: /dev still shows it, and the dashboard agrees', async () => {
  const port = await freePort();
  const first = await npmStart(port, 500);
  const instructor = await openAs(first, 'instructor-1', 'Iris Instructor');
  const assignment = new URL(instructor.url).pathname.replace(/\/dashboard$/, '');
  const paper = await submit(first, assignment, 'student-3', 'Lee Student', essay('deltas'));
  await until(
    'the similarity in the gradebook',
    async () => (await stateOf(first, assignment, 'student-3', 'Lee Student', paper)) === 'graded',
    60_000,
  );
  const posted = gradebookCell(await (await fetch(`${first.url}/dev/`)).text(), 'Lee Student');
  assert.ok(posted, 'the cell on /dev before the restart');
  await stop(first);

  const second = await npmStart(port, 500);
  const page = await (await fetch(`${second.url}/dev/`)).text();
  assert.deepEqual(gradebookCell(page, 'Lee Student'), posted, "the LMS's gradebook after the restart");
  assert.equal(page.match(/<strong>Demo essay<\/strong>/g)?.length, 1, 'the demo essay once');
  const dashboard = await openAs(second, 'instructor-1', 'Iris Instructor');
  const row =
    decodeHtml(dashboard.body)
      .split('<tr')
      .find((tr) => tr.includes('Lee Student')) ?? '';
  assert.ok(row.includes(en['state.checked']), `the dashboard's row says ${en['state.checked']}`);
  assert.ok(
    row.includes(en['dashboard.gradebook.posted']),
    `the dashboard's row says ${en['dashboard.gradebook.posted']}`,
  );
  await stop(second);
});
