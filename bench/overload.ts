// Overload: 200 launches a second and 200 submissions a second, well past what two cores sustain, against the
// tool with its default admission limits (ROLE=web on PostgreSQL). Counted: how many were admitted and their p99,
// how many were answered 503 (with Retry-After), how many JSON clients got an HTML body (must be 0), and how
// many answers were 5xx other than 503 (must be 0). The figures are per run, not per goal: a faster machine admits
// more.
import { FormData, request } from 'undici';
import { launch } from '../src/devplatform/agent.js';
import { fixedRate, ms, percentile, scaled, type Row } from './lib.js';
import { startStack } from './stack.js';

const RATE = 200;
const FILE_BYTES = 100 * 1024;

interface Tally {
  admitted: number[];
  busy: number;
  busyWithoutRetryAfter: number;
  htmlToJson: number;
  otherServerErrors: number;
  otherStatuses: Map<number, number>;
  networkErrors: number;
  firstSurprise: string | null;
  firstServerError: string | null;
}

const tally = (): Tally => ({
  admitted: [],
  busy: 0,
  busyWithoutRetryAfter: 0,
  htmlToJson: 0,
  otherServerErrors: 0,
  otherStatuses: new Map(),
  networkErrors: 0,
  firstSurprise: null,
  firstServerError: null,
});

function count(
  t: Tally,
  status: number,
  started: number,
  headers: Record<string, unknown>,
  body: string,
  json: boolean,
): void {
  if (json && /^\s*</.test(body)) t.htmlToJson += 1;
  if (status === 503) {
    t.busy += 1;
    if (!headers['retry-after']) t.busyWithoutRetryAfter += 1;
    return;
  }
  if (status >= 500) {
    t.otherServerErrors += 1;
    t.firstServerError ??= `${status}: ${body
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .slice(0, 160)}`;
    return;
  }
  if (status >= 200 && status < 400) t.admitted.push(performance.now() - started);
  else {
    t.otherStatuses.set(status, (t.otherStatuses.get(status) ?? 0) + 1);
    t.firstSurprise ??= `${status}: ${body
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .slice(0, 160)}`;
  }
}

function rows(what: string, t: Tally, total: number, goal: string): Row[] {
  const others = [...t.otherStatuses].map(([status, n]) => `${n} × ${status}`).join(', ');
  return [
    {
      what: `${what}: admitted, p50 / p99`,
      figure: `${t.admitted.length} of ${total}, ${ms(percentile(t.admitted, 50))} / ${ms(percentile(t.admitted, 99))}`,
      goal,
    },
    { what: `${what}: answered 503 at once (without Retry-After)`, figure: `${t.busy} (${t.busyWithoutRetryAfter})` },
    {
      what: `${what}: HTML bodies to JSON clients; other 5xx; other answers; network errors`,
      figure: `${t.htmlToJson}; ${t.otherServerErrors}; ${others || 0}; ${t.networkErrors}${t.firstServerError ? ` (first 5xx: ${t.firstServerError})` : ''}${t.firstSurprise ? ` (first other: ${t.firstSurprise})` : ''}`,
      goal: '0; 0',
    },
  ];
}

export async function overloadBench(): Promise<Row[]> {
  const count2000 = scaled(2000, 200);
  const students = Math.max(100, Math.ceil(count2000 / 45));
  const stack = await startStack({ backend: 'postgres', role: 'web', students });
  try {
    // Launches: whole browser flows (login, the platform, the id_token post, the first page).
    const launches = tally();
    await fixedRate(count2000, RATE, async (i) => {
      const started = performance.now();
      try {
        const result = await launch(stack.platform, { userId: `student-${(i % students) + 1}` });
        count(launches, result.status, started, result.headers, result.body, false);
      } catch (error) {
        launches.networkErrors += 1;
        launches.firstSurprise ??= `${(error as Error).message} (${(error as { code?: string }).code ?? ''})`;
      }
    });

    // Submissions: the upload page's script (Accept: application/json), 100 KB each.
    const ltiks = await stack.launchStudents(1, students, 10);
    const uploads = tally();
    const head = 'A sentence about rivers, mountains and the people who live between them. '.repeat(
      Math.ceil(FILE_BYTES / 74),
    );
    await fixedRate(count2000, RATE, async (i) => {
      const started = performance.now();
      const body = new FormData();
      const text = `Paper ${i}: ${Math.random()}\n`;
      body.append('file', new Blob([text + head.slice(0, FILE_BYTES - text.length)]), `paper-${i}.txt`);
      try {
        const response = await request(`${stack.url}${stack.assignmentPath}/submissions`, {
          method: 'POST',
          body,
          headers: { authorization: `Bearer ${ltiks[i % students]}`, accept: 'application/json' },
        });
        count(uploads, response.statusCode, started, response.headers, await response.body.text(), true);
      } catch (error) {
        uploads.networkErrors += 1;
        uploads.firstSurprise ??= (error as Error).message;
      }
    });
    return [
      ...rows(`${RATE} launches/s for ${(count2000 / RATE).toFixed(0)} s`, launches, count2000, 'p99 bounded'),
      ...rows(
        `${RATE} submissions/s (100 KB) for ${(count2000 / RATE).toFixed(0)} s`,
        uploads,
        count2000,
        'p99 bounded',
      ),
    ];
  } finally {
    await stack.close();
  }
}
