// The instructor's overview as the page shows it (src/submissions/class-overview.ts makes the rows): sorting
// and filtering read from the query string so it works without script, each row's report links, a histogram,
// and CSV.
import { z } from 'zod';
import type { AssignmentSettings } from '../assignments/settings.js';
import { reportsOffered } from '../reports/kinds.js';
import type { Words } from '../messages/index.js';
import { BANDS, SORT_KEYS, type DashboardQuery, type DashboardRow } from '../submissions/class-overview.js';

/** The query string's sort and filters; anything unreadable falls back to no filter, sorted by name. */
const dashboardQuery = z.object({
  sort: z.enum(SORT_KEYS).catch('name'),
  dir: z.enum(['asc', 'desc']).catch('asc'),
  state: z.string().regex(/^[a-z-]{1,20}$/).nullable().catch(null).default(null),
  band: z.enum(BANDS).nullable().catch(null).default(null),
});

export function readDashboardQuery(query: Record<string, unknown>): DashboardQuery {
  const { sort, dir, state, band } = dashboardQuery.parse(query);
  return { sort, descending: dir === 'desc', state, band };
}

/** Each row with the reports its paper has, as the instructor's links name them. */
export function withReportLinks(rows: DashboardRow[], settings: AssignmentSettings) {
  return rows.map((row) => ({ ...row, reports: row.hasReport ? reportsOffered('instructor', settings, row) : [] }));
}

/** Ten bars of 10 points each, as inline SVG markup with a text alternative. */
export function histogramSvg(rows: DashboardRow[], { t }: Words): { svg: string; summary: string } {
  const counts = Array.from({ length: 10 }, () => 0);
  for (const row of rows) if (row.similarity !== null) counts[Math.min(9, Math.floor(row.similarity / 10))]! += 1;
  const max = Math.max(1, ...counts);
  const bars = counts
    .map((count, i) => {
      const height = Math.round((count / max) * 100);
      return `<rect x="${i * 30 + 5}" y="${110 - height}" width="24" height="${height}" fill="#3d6fb6"><title>${t('dashboard.histogram.barTitle', { from: i * 10, to: i * 10 + 9, count })}</title></rect>` +
        `<text x="${i * 30 + 17}" y="125" font-size="9" text-anchor="middle">${i * 10}</text>`;
    })
    .join('');
  const total = counts.reduce((a, b) => a + b, 0);
  const summary = total === 0 ? t('dashboard.histogram.none') : counts.map((c, i) => (c > 0 ? t('dashboard.histogram.bar', { count: c, from: i * 10, to: i * 10 + 9 }) : '')).filter(Boolean).join('; ');
  return { svg: `<svg viewBox="0 0 305 130" width="305" height="130" role="img" aria-label="${t('dashboard.histogram.label', { count: total })}">${bars}</svg>`, summary };
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
