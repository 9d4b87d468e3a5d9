// What the reliability and security suite shares: its figures (each test appends what it measured, as a JSON
// line, to the file HARDENING_FIGURES names; `npm run test:hardening` sums them into one table), and the
// end-of-run tally of a batch of submissions: lost, duplicated at the service, wrong in the gradebook.
import { appendFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../src/db/index.js';
import type { DevPlatform } from '../../src/devplatform/index.js';
import { isResult, shownSimilarity } from './gradebook-cell.js';
import { essay as essayOf } from './papers.js';

export interface Figures {
  /** A fault injected (its name) and whether every submission came through it. */
  fault?: string;
  survived?: boolean;
  submissions?: number;
  lost?: number;
  duplicated?: number;
  gradesWrong?: number;
  /** Final scores sent again with the same value (the platform took one, the worker died or lost its database before recording it). */
  repeatedFinalPosts?: number;
  badInputs?: number;
  badInputsAsExpected?: number;
  accessCells?: number;
  accessCellsAsExpected?: number;
  leaks?: number;
  /** Secret values searched for, and the log lines and page bodies searched. */
  secretsSearched?: number;
  logLinesSearched?: number;
  pagesSearched?: number;
}

export function recordFigures(figures: Figures): void {
  const file = process.env.HARDENING_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify(figures)}\n`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A paper of its own for each seed, long enough for the sandbox to score it. */
export const essay = (seed: string) =>
  essayOf(seed, {
    heading: '',
    sentences: 45,
    sentence: (i) => `${seed} paragraph ${i} weighs its own evidence ${i * 17} on the question of ${seed}.`,
  });

/**
 * Lets students submit as often as a test needs (no attempt limit, no due date in the way), every attempt kept at the
 * service, so that the papers there are counted one per submission.
 */
export async function allowResubmission(db: Kysely<DatabaseSchema>, assignmentPath: string): Promise<void> {
  const id = assignmentPath.split('/').pop()!;
  const current = await db.selectFrom('assignment').select('settings').where('id', '=', id).executeTakeFirstOrThrow();
  await db
    .updateTable('assignment')
    .set({
      settings: JSON.stringify({
        ...(current.settings as object),
        resubmission: 'any-time',
        maxAttempts: 50,
        earlierAttempts: 'keep',
      }),
    })
    .where('id', '=', id)
    .execute();
}

/** The submissions not done yet: every paper scored, and each student's latest attempt in the gradebook. */
async function unsettled(db: Kysely<DatabaseSchema>, ids: string[]): Promise<Array<{ id: string; state: string }>> {
  const rows = await db
    .selectFrom('submission')
    .select(['id', 'state', 'user_id', 'attempt'])
    .where('id', 'in', ids)
    .execute();
  const latest = new Map<string, number>();
  for (const row of rows) latest.set(row.user_id, Math.max(latest.get(row.user_id) ?? 0, row.attempt));
  const done = (row: (typeof rows)[number]) =>
    row.state === 'graded' || (row.state === 'scored' && row.attempt < latest.get(row.user_id)!);
  const missing = ids.filter((id) => !rows.some((row) => row.id === id)).map((id) => ({ id, state: 'gone' }));
  return [...missing, ...rows.filter((row) => !done(row)).map(({ id, state }) => ({ id, state }))];
}

/** Waits until every submission is settled, or the time is up; gives those that are not. */
export async function settle(
  db: Kysely<DatabaseSchema>,
  ids: string[],
  timeoutMs: number,
): Promise<Array<{ id: string; state: string }>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await unsettled(db, ids);
    if (open.length === 0 || Date.now() > deadline) return open;
    await sleep(250);
  }
}

export interface Tally {
  submissions: number;
  /** Receipts given whose paper did not end scored (a student's latest one: and graded), or whose row is gone. */
  lost: number;
  /** Papers at the service beyond one per submission. */
  duplicated: number;
  /** Students whose gradebook cell is not their latest paper's similarity, or who were ever sent another final score. */
  gradesWrong: number;
  repeatedFinalPosts: number;
}

/**
 * The outcome of a batch of submissions. `papersAdded` is how many papers the service gained meanwhile; every
 * student's latest attempt among `ids` must be the score in their cell.
 */
export async function tally(
  db: Kysely<DatabaseSchema>,
  lms: DevPlatform,
  ids: string[],
  papersAdded: number,
): Promise<Tally> {
  const rows = await db
    .selectFrom('submission as s')
    .innerJoin('lti_user as u', 'u.id', 's.user_id')
    .select(['s.id', 's.state', 's.paper_id', 's.similarity', 's.attempt', 'u.subject'])
    .where('s.id', 'in', ids)
    .execute();
  const papers = rows.map((row) => row.paper_id).filter((paper) => paper !== null);
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) if ((latest.get(row.subject)?.attempt ?? 0) < row.attempt) latest.set(row.subject, row);
  const finalPosts = lms
    .scoreLog()
    .filter((entry) => entry.status < 300 && isResult((entry.body as { gradingProgress?: string }).gradingProgress));
  let gradesWrong = 0;
  let repeatedFinalPosts = 0;
  for (const [subject, row] of latest) {
    const cell = lms.gradebook().find((grade) => grade.userId === subject);
    const posted = finalPosts
      .filter((entry) => entry.userId === subject)
      .map((entry) => shownSimilarity(entry.body as { scoreGiven?: number; comment?: string }));
    const right =
      row.similarity !== null && isResult(cell?.gradingProgress) && shownSimilarity(cell) === Number(row.similarity);
    if (!right || new Set(posted).size !== 1) gradesWrong += 1;
    repeatedFinalPosts += Math.max(0, posted.length - 1);
  }
  return {
    submissions: ids.length,
    lost: (await unsettled(db, ids)).length,
    duplicated: Math.max(0, papersAdded - ids.length) + (papers.length - new Set(papers).size),
    gradesWrong,
    repeatedFinalPosts,
  };
}
