// Dates and numbers as the person's language writes them, by Intl. Times are shown in UTC with the zone named:
// a launch says which language its person reads (launch_presentation.locale), not which time zone they are in.
import { perLanguage, type Language } from './language.js';

export interface Formats {
  /** A moment to the second, as in a receipt or a history: "Nov 25, 2026, 6:35:09 AM UTC" ("25.11.2026, 06:35:09 UTC"). */
  moment(value: Date | string): string;
  /** A moment to the minute, as in a list: "Nov 25, 2026, 6:35 AM UTC" ("25.11.2026, 06:35 UTC"). */
  minute(value: Date | string): string;
  /** A moment in a crowded list, without the year: "Nov 25, 6:35 AM UTC" ("25. Nov., 06:35 UTC"). */
  brief(value: Date | string): string;
  /** A deadline, with its weekday: "Tuesday, December 1, 2099 at 5:00 PM UTC". */
  deadline(value: Date | string): string;
  /** A count or a measure: "1,234" in English, "1.234" in German. */
  number(value: number, fractionDigits?: number): string;
  /** A percentage of 0 to 100: "42%" in English, "42 %" in German. */
  percent(value: number): string;
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/**
 * Intl's formatters cost more to make than to use (a page made them for each request: a sixth of a launch's CPU,
 * bench/profile-summary.ts), and they hold no state: each language's are made once.
 */
export const formatsFor = perLanguage(makeFormats);

function makeFormats(language: Language): Formats {
  // The language's own styles; a style with the zone's name (timeStyle "long") has seconds too, so the shorter
  // ones are followed by the zone's name, which reads the same in every language the tool has.
  const moment = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'long', timeZone: 'UTC' });
  const minute = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  const brief = new Intl.DateTimeFormat(language, {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
  });
  const deadline = new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' });
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
    moment: (value) => moment.format(toDate(value)),
    minute: (value) => `${minute.format(toDate(value))} UTC`,
    brief: (value) => `${brief.format(toDate(value))} UTC`,
    deadline: (value) => `${deadline.format(toDate(value))} UTC`,
    number: (value, fractionDigits) => numberFormat(fractionDigits).format(value),
    percent: (value) => percent.format(value / 100),
  };
}
