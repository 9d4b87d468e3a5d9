// The instructor's overview of an assignment: one row per student (their latest attempt, or "not-submitted" for
// the roster's active learners who have not submitted), and the filtering and sorting the overview offers.
import type { Kysely } from 'kysely';
import type { PlatformLookup } from '../lti/platform.js';
import type { Assignment } from '../assignments/store.js';
import { BAND_TEXT, bandOf, type Band } from '../assignments/settings.js';
import type { DatabaseSchema } from '../db/index.js';
import type { Launch } from '../lti/launch.js';
import type { RosterMember } from '../lti/roster.js';
import { audienceOf } from '../lti/roles.js';
import { classRoster } from './class-roster.js';
import { classRows, type ClassRow } from './read-models.js';
import { stateWord, statesOfWord } from './state.js';

export interface DashboardRow {
  name: string;
  email: string | null;
  state: string;
  similarity: number | null;
  band: Band | null;
  bandText: string | null;
  aiScore: number | null;
  grammarScore: number | null;
  submittedAt: string | null;
  late: boolean;
  /** When the latest attempt's result arrived (ISO); null before it has one. */
  resultAt: string | null;
  attempts: number;
  gradeState: string;
  gradeError: string | null;
  submissionId: string | null;
  hasReport: boolean;
  failureReason: string | null;
}

/** A row's state: its latest paper's, or "not-submitted" for a student on the roster who has sent nothing. */
export const ROW_STATES = [
  'not-submitted',
  'received',
  'uploading',
  'processing',
  'scored',
  'graded',
  'rejected',
  'failed',
] as const;

/** The dashboard's filter: one state for each word (a filter on "Checked" shows scored and graded papers alike). */
export const FILTER_STATES = ROW_STATES.filter(
  (state, i) => ROW_STATES.findIndex((other) => stateWord(other) === stateWord(state)) === i,
);

export const SORT_KEYS = ['name', 'similarity', 'ai', 'submitted', 'state'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const BANDS = ['green', 'yellow', 'orange', 'red'] as const satisfies readonly Band[];

/** The sorts that read best highest first (the biggest score, the latest paper); the others read A to Z. */
export const DESCENDING_FIRST: readonly SortKey[] = ['similarity', 'ai', 'submitted'];

export interface DashboardQuery {
  sort: SortKey;
  descending: boolean;
  state: string | null;
  band: Band | null;
}

/** Whether the row's result arrived after `since` (an instructor's last visit; null: no visit before, nothing new). */
export const arrivedSince = (row: Pick<DashboardRow, 'resultAt'>, since: Date | null): boolean =>
  since !== null && row.resultAt !== null && new Date(row.resultAt) > since;

export function dashboardRows(assignment: Assignment, submitted: ClassRow[], roster: RosterMember[]): DashboardRow[] {
  const bands = assignment.settings.similarityBands;
  const rows: DashboardRow[] = submitted.map(({ latest, name, email, subject, attempts }) => {
    const band = latest.similarity === null ? null : bandOf(latest.similarity, bands);
    return {
      name: name ?? email ?? subject,
      email,
      state: latest.state,
      similarity: latest.similarity,
      band,
      bandText: band ? BAND_TEXT[band] : null,
      aiScore: latest.aiScore,
      grammarScore: latest.grammarScore,
      submittedAt: latest.submittedAt.toISOString(),
      late: latest.late,
      resultAt: latest.scoredAt?.toISOString() ?? null,
      attempts,
      gradeState: latest.gradeState,
      gradeError: latest.gradeError,
      submissionId: latest.id,
      hasReport: latest.reportKey !== null,
      failureReason: latest.failureReason,
    };
  });
  const seen = new Set(submitted.map((row) => row.subject));
  for (const member of roster) {
    if (!member.active || seen.has(member.subject) || audienceOf(member.roles) !== 'learner') continue;
    rows.push({
      name: member.name ?? member.email ?? member.subject,
      email: member.email,
      state: 'not-submitted',
      similarity: null,
      band: null,
      bandText: null,
      aiScore: null,
      grammarScore: null,
      submittedAt: null,
      late: false,
      resultAt: null,
      attempts: 0,
      gradeState: 'none',
      gradeError: null,
      submissionId: null,
      hasReport: false,
      failureReason: null,
    });
  }
  return rows;
}

/** The class in one line: who has submitted, who has not, and how many papers are in the top (red) band. */
export interface ClassSummary {
  total: number;
  submitted: number;
  missing: number;
  /** Where the red band starts (the assignment's setting), and how many latest papers score that or more. */
  redFrom: number;
  inRed: number;
}

export function classSummary(assignment: Assignment, rows: DashboardRow[]): ClassSummary {
  const submitted = rows.filter((row) => row.submissionId !== null).length;
  return {
    total: rows.length,
    submitted,
    missing: rows.length - submitted,
    redFrom: assignment.settings.similarityBands[2],
    inRed: rows.filter((row) => row.band === 'red').length,
  };
}

export interface ClassOverviewDeps {
  db: Kysely<DatabaseSchema>;
  provider: PlatformLookup;
  logger: { warn(details: object, message: string): void };
}

/** Every student's row of the assignment, with why roster students may be missing (null: none are). */
export async function classOverview(
  deps: ClassOverviewDeps,
  assignment: Assignment,
  launch: Pick<Launch, 'issuer' | 'clientId' | 'membershipsUrl'>,
): Promise<{ rows: DashboardRow[]; rosterProblem: string | null }> {
  const roster = await classRoster(deps, assignment, launch);
  return {
    rows: dashboardRows(assignment, await classRows(deps.db, assignment.id), roster.members),
    rosterProblem: roster.problem,
  };
}

/** The rows the query keeps, in its order: a missing score or date comes after every other in either direction, ties by name. */
export function filterAndSort(rows: DashboardRow[], query: DashboardQuery): DashboardRow[] {
  const kept = rows.filter(
    (row) =>
      (query.state === null || statesOfWord(query.state).includes(row.state)) &&
      (query.band === null || row.band === query.band),
  );
  const value = (row: DashboardRow): string | number | null => {
    switch (query.sort) {
      case 'similarity':
        return row.similarity;
      case 'ai':
        return row.aiScore;
      case 'submitted':
        return row.submittedAt;
      case 'state':
        return row.state;
      default:
        return row.name.toLocaleLowerCase();
    }
  };
  const direction = query.descending ? -1 : 1;
  return [...kept].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * direction;
    }
    return a.name.localeCompare(b.name);
  });
}
