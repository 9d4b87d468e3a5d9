// The instructor's overview as the page shows it (src/submissions/class-overview.ts makes the rows): sorting
// and filtering read from the query string so it works without script, each row's report links, a histogram,
// and CSV.
import { z } from 'zod';
import { BAND_COLOUR, type AssignmentSettings, type Band } from '../assignments/settings.js';
import { reportsOffered } from '../reports/kinds.js';
import type { Words } from '../i18n/index.js';
import type { SubmissionState } from '../db/index.js';
import { stateWord } from '../submissions/state.js';
import {
  BANDS,
  DESCENDING_FIRST,
  SORT_KEYS,
  type DashboardQuery,
  type DashboardRow,
} from '../submissions/class-overview.js';

/**
 * The query string's sort and filters; anything unreadable falls back to no filter, the highest similarity first
 * (the paper an instructor should look at before the others). A sort without a direction takes its natural one.
 */
const dashboardQuery = z.object({
  sort: z.enum(SORT_KEYS).catch('similarity'),
  dir: z.enum(['asc', 'desc']).optional().catch(undefined),
  state: z
    .string()
    .regex(/^[a-z-]{1,20}$/)
    .nullable()
    .catch(null)
    .default(null),
  band: z.enum(BANDS).nullable().catch(null).default(null),
});

export function readDashboardQuery(query: Record<string, unknown>): DashboardQuery {
  const { sort, dir, state, band } = dashboardQuery.parse(query);
  return { sort, descending: dir === undefined ? DESCENDING_FIRST.includes(sort) : dir === 'desc', state, band };
}

/** Each row with the reports its paper has, as the instructor's links name them. */
export function withReportLinks(rows: DashboardRow[], settings: AssignmentSettings) {
  return rows.map((row) => ({ ...row, reports: row.hasReport ? reportsOffered('instructor', settings, row) : [] }));
}

/** The histogram's bins: 0-9, 10-19, ... 80-89, and 90-100 (a paper at 100 % is in the last bin, not beyond it). */
const BINS = Array.from({ length: 10 }, (_, i) => ({ from: i * 10, to: i === 9 ? 100 : i * 10 + 9 }));
const binOf = (similarity: number) => Math.min(9, Math.floor(similarity / 10));

/**
 * The class's similarity in ten bars, as inline SVG with a text alternative. Each bar is stacked in the colours of
 * the bands its papers are in (the assignment's bands), a count axis on the left, 12 px labels. The width follows
 * the page (percentages), the height is fixed, so the labels keep their size on a phone.
 */
export function histogramSvg(rows: DashboardRow[], { t }: Words): { svg: string; summary: string } {
  const counts = BINS.map(() => new Map<Band, number>());
  for (const row of rows) {
    if (row.similarity === null || row.band === null) continue;
    const bin = counts[binOf(row.similarity)]!;
    bin.set(row.band, (bin.get(row.band) ?? 0) + 1);
  }
  const totals = counts.map((bin) => [...bin.values()].reduce((a, b) => a + b, 0));
  const max = Math.max(1, ...totals);
  const [top, bottom] = [12, 132];
  const y = (count: number) => bottom - ((bottom - top) * count) / max;
  const ticks = [...new Set([0, Math.round(max / 2), max])];
  const axis = ticks
    .map(
      (tick) =>
        `<line x1="9%" x2="100%" y1="${y(tick)}" y2="${y(tick)}" class="histogram-grid"/><text class="histogram-count" x="7%" y="${y(tick) + 4}" text-anchor="end">${tick}</text>`,
    )
    .join('');
  const bars = BINS.map(({ from, to }, i) => {
    let base = 0;
    const segments = BANDS.filter((band) => counts[i]!.has(band)).map((band) => {
      const count = counts[i]!.get(band)!;
      const segment = `<rect x="${i * 10 + 1.5}%" width="7%" y="${y(base + count)}" height="${y(base) - y(base + count)}" fill="${BAND_COLOUR[band]}"/>`;
      base += count;
      return segment;
    });
    return `<g><title>${t('dashboard.histogram.barTitle', { from, to, count: totals[i]! })}</title>${segments.join('')}</g>`;
  }).join('');
  const labels = Array.from(
    { length: 11 },
    (_, i) =>
      `<text x="${i * 10}%" y="${bottom + 18}" text-anchor="${i === 0 ? 'start' : i === 10 ? 'end' : 'middle'}">${i * 10}</text>`,
  ).join('');
  const total = totals.reduce((a, b) => a + b, 0);
  const summary =
    total === 0
      ? t('dashboard.histogram.none')
      : BINS.map(({ from, to }, i) =>
          totals[i]! > 0 ? t('dashboard.histogram.bar', { count: totals[i]!, from, to }) : '',
        )
          .filter(Boolean)
          .join('; ');
  const svg =
    `<svg class="histogram" width="100%" height="${bottom + 24}" role="img" aria-label="${t('dashboard.histogram.label', { count: total })}">` +
    `${axis}<svg x="9%" width="91%" overflow="visible">${bars}${labels}<line x1="0" x2="100%" y1="${bottom}" y2="${bottom}" class="histogram-axis"/></svg></svg>`;
  return { svg, summary };
}

/** An assignment's title as the start of a download's file name (what a header's quoted file name can carry). */
export function downloadStem(title: string): string {
  return (
    title
      .replace(/[^A-Za-z0-9 _-]/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 60) || 'assignment'
  );
}

function csvCell(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
  // A cell that starts like a formula is prefixed so that a spreadsheet shows it instead of running it.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The class as a spreadsheet: the state in the reader's word for it (as every page says it), the time as an ISO
 * time in UTC (its "Z" names the zone), what the gradebook received as its own column.
 */
export function toCsv(rows: DashboardRow[], words: Pick<Words, 't'>): string {
  const header = [
    'name',
    'email',
    'status',
    'similarity',
    'band',
    'ai',
    'grammar',
    'submitted_at',
    'late',
    'attempts',
    'grade_sync',
    'result_at',
  ];
  const lines = rows.map((row) =>
    [
      row.name,
      row.email,
      words.t(stateWord(row.state as SubmissionState | 'not-submitted')),
      row.similarity,
      row.bandText,
      row.aiScore,
      row.grammarScore,
      row.submittedAt,
      row.late,
      row.attempts,
      row.gradeState,
      row.resultAt,
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
