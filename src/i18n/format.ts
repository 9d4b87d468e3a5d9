// Dates and numbers as the person's language writes them. Every time a person reads comes from one clock,
// public/clock.js (the browser loads the same file): here in UTC, named as such, because a launch says which
// language its person reads (launch_presentation.locale), not which time zone they are in; in the browser,
// public/times.js writes each <time data-clock> again on the reader's own clock, naming their zone.
import { clockFor, fieldValue, type ClockKind } from '../../public/clock.js';
import { perLocale } from './language.js';

export { fromFieldValue, isTimeZone } from '../../public/clock.js';

export interface Formats {
  /** A moment to the second, as in a history: "Nov 25, 2026, 6:35:09 AM UTC" ("25.11.2026, 06:35:09 UTC"). */
  moment(value: Date | string): string;
  /** A moment to the minute, as every other time on a page: "Nov 25, 2026, 6:35 AM UTC" ("25.11.2026, 06:35 UTC"). */
  minute(value: Date | string): string;
  /**
   * A time as a page shows it, as markup: `<time datetime="…" data-clock="minute">Nov 25, 2026, 6:35 AM UTC</time>`,
   * which the page's script writes again on the reader's clock.
   */
  time(value: Date | string, kind?: ClockKind): string;
  /** A moment as a date field shows it on UTC's clock, for the page's script to set on the reader's: "2026-11-30T23:59". */
  dateField(value: Date | string): string;
  /** A count or a measure: "1,234" in English, "1.234" in German. */
  number(value: number, fractionDigits?: number): string;
  /** A percentage of 0 to 100: "42%" in English, "42 %" in German. */
  percent(value: number): string;
}

/**
 * A time on the clock of `timeZone` (a zone the reader's browser named, checked by isTimeZone), for a file the
 * server writes for one reader, as a receipt: "Nov 25, 2026, 7:35:09 AM Berlin". Made for each use: such files are rare.
 */
export function momentIn(language: string, timeZone: string, value: Date | string): string {
  return clockFor(language, timeZone).format('second', value);
}

/** The zone of times written without the reader's clock (a page without scripts, a CSV, a log). */
export const SERVER_ZONE = 'UTC';

/**
 * Intl's formatters cost more to make than to use (a page made them for each request: a sixth of a launch's CPU,
 * bench/profile-summary.ts), and they hold no state: each language's are made once.
 */
export const formatsFor = perLocale(makeFormats);

/** The formats of a locale: a language, or a language with the reader's region ("en-GB"). */
function makeFormats(language: string): Formats {
  const clock = clockFor(language, SERVER_ZONE);
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  const numbers = new Map<number | undefined, Intl.NumberFormat>();
  const numberFormat = (fractionDigits: number | undefined) => {
    let format = numbers.get(fractionDigits);
    if (!format) {
      format = new Intl.NumberFormat(
        language,
        fractionDigits === undefined
          ? {}
          : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits },
      );
      numbers.set(fractionDigits, format);
    }
    return format;
  };
  return {
    moment: (value) => clock.format('second', value),
    minute: (value) => clock.format('minute', value),
    time: (value, kind = 'minute') => {
      const at = value instanceof Date ? value : new Date(value);
      // Both parts are the clock's own output (digits, month names, the zone's place): nothing to escape.
      return `<time datetime="${at.toISOString()}" data-clock="${kind}">${clock.format(kind, at)}</time>`;
    },
    dateField: (value) => fieldValue(value, SERVER_ZONE),
    number: (value, fractionDigits) => numberFormat(fractionDigits).format(value),
    percent: (value) => percent.format(value / 100),
  };
}
