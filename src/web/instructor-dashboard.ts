// The instructor's overview of an assignment: one row per student (with the roster's students who have not
// submitted), sorting and filtering in the query string so it works without script, a histogram, and CSV.
import type { Assignment } from '../assignments/store.js';
import { BAND_TEXT, bandOf, type Band } from '../assignments/settings.js';
import type { RosterMember } from '../lti/roster.js';
import { audienceOf } from '../lti/roles.js';
import type { ClassRow } from '../submissions/read-models.js';

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
  attempts: number;
  gradeState: string;
  gradeError: string | null;
  submissionId: string | null;
  hasReport: boolean;
  failureReason: string | null;
}

export const SORT_KEYS = ['name', 'similarity', 'ai', 'submitted', 'state'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface DashboardQuery {
  sort: SortKey;
  descending: boolean;
  state: string | null;
  band: Band | null;
}

export function readDashboardQuery(query: Record<string, unknown>): DashboardQuery {
  const sort = SORT_KEYS.includes(query.sort as SortKey) ? (query.sort as SortKey) : 'name';
  const bands: Band[] = ['green', 'yellow', 'orange', 'red'];
  return {
    sort,
    descending: query.dir === 'desc',
    state: typeof query.state === 'string' && /^[a-z-]{1,20}$/.test(query.state) ? query.state : null,
    band: bands.includes(query.band as Band) ? (query.band as Band) : null,
  };
}

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

export function filterAndSort(rows: DashboardRow[], query: DashboardQuery): DashboardRow[] {
  const kept = rows.filter((row) => (query.state === null || row.state === query.state) && (query.band === null || row.band === query.band));
  const value = (row: DashboardRow): string | number => {
    switch (query.sort) {
      case 'similarity':
        return row.similarity ?? -1;
      case 'ai':
        return row.aiScore ?? -1;
      case 'submitted':
        return row.submittedAt ?? '';
      case 'state':
        return row.state;
      default:
        return row.name.toLocaleLowerCase();
    }
  };
  const sorted = [...kept].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    return x < y ? -1 : x > y ? 1 : a.name.localeCompare(b.name);
  });
  return query.descending ? sorted.reverse() : sorted;
}

/** Ten bars of 10 points each, as inline SVG markup with a text alternative. */
export function histogramSvg(rows: DashboardRow[]): { svg: string; summary: string } {
  const counts = Array.from({ length: 10 }, () => 0);
  for (const row of rows) if (row.similarity !== null) counts[Math.min(9, Math.floor(row.similarity / 10))]! += 1;
  const max = Math.max(1, ...counts);
  const bars = counts
    .map((count, i) => {
      const height = Math.round((count / max) * 100);
      return `<rect x="${i * 30 + 5}" y="${110 - height}" width="24" height="${height}" fill="#3d6fb6"><title>${i * 10}-${i * 10 + 9} %: ${count}</title></rect>` +
        `<text x="${i * 30 + 17}" y="125" font-size="9" text-anchor="middle">${i * 10}</text>`;
    })
    .join('');
  const total = counts.reduce((a, b) => a + b, 0);
  const summary = total === 0 ? 'No scored submissions yet.' : counts.map((c, i) => (c > 0 ? `${c} between ${i * 10} and ${i * 10 + 9} %` : '')).filter(Boolean).join('; ');
  return { svg: `<svg viewBox="0 0 305 130" width="305" height="130" role="img" aria-label="Similarity of the class, ${total} scored">${bars}</svg>`, summary };
}

function csvCell(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
  // A cell that starts like a formula is prefixed so that a spreadsheet shows it instead of running it.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(rows: DashboardRow[]): string {
  const header = ['name', 'email', 'status', 'similarity', 'band', 'ai', 'grammar', 'submitted_at', 'late', 'attempts', 'grade_sync'];
  const lines = rows.map((row) =>
    [row.name, row.email, row.state, row.similarity, row.bandText, row.aiScore, row.grammarScore, row.submittedAt, row.late, row.attempts, row.gradeState].map(csvCell).join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
