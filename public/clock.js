// The tool's one clock: every time a person reads is written by this file, on the server (src/i18n/format.ts,
// in UTC, for a page read without scripts) and in the browser (public/times.js, in the reader's own zone), in one
// format per language, with the zone named after it: "Nov 25, 2026, 7:35 AM Berlin", "25.11.2026, 07:35 Berlin",
// "Nov 25, 2026, 6:35 AM UTC". A history, where two events may share a minute, adds the seconds.
// Plain JavaScript that both the server and the browser load as it is (public/clock.d.ts gives its types).

/** The shapes of a time: `minute` for every time on a page, `second` for a history's events. */
const STYLES = {
  minute: { dateStyle: 'medium', timeStyle: 'short' },
  second: { dateStyle: 'medium', timeStyle: 'medium' },
};

/** The zone as a person names it: "UTC", or the place of its IANA name ("Europe/Berlin" is "Berlin"). */
export function zoneName(timeZone) {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC' || timeZone === 'Etc/GMT') return 'UTC';
  return (timeZone.split('/').pop() || timeZone).replace(/_/g, ' ');
}

/** Whether the runtime knows a zone by this name. */
export function isTimeZone(timeZone) {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const toDate = (value) => (value instanceof Date ? value : new Date(value));

/** The clock of one language in one zone: `format(kind, time)`, and the zone's name. */
export function clockFor(language, timeZone) {
  const formats = {};
  for (const kind of Object.keys(STYLES))
    formats[kind] = new Intl.DateTimeFormat(language, { ...STYLES[kind], timeZone });
  const zone = zoneName(timeZone);
  return {
    zone,
    timeZone,
    format(kind, value) {
      const format = formats[kind] || formats.minute;
      return `${format.format(toDate(value))} ${zone}`;
    },
  };
}

/** The wall clock's parts of a zone at an instant. */
function wallParts(instant, timeZone) {
  const clock = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return Object.fromEntries(clock.formatToParts(instant).map(({ type, value }) => [type, Number(value)]));
}

/** A moment as a date field (input type="datetime-local") shows it on the clocks of a zone: "2026-11-30T23:59". */
export function fieldValue(value, timeZone) {
  const p = wallParts(toDate(value).getTime(), timeZone);
  const two = (n) => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

/** How far the clocks of a zone are ahead of UTC at an instant, in milliseconds. */
function offsetAt(instant, timeZone) {
  const p = wallParts(instant, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
}

/**
 * A date field's value ("2026-11-30T23:59", seconds optional) read on the clocks of a zone, as an ISO time;
 * undefined when it is no time that exists.
 */
export function fromFieldValue(value, timeZone) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const wall = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 31 April over to 1 May: a date that does not come back as written does not exist.
  const exists =
    wall.getUTCFullYear() === year &&
    wall.getUTCMonth() === month - 1 &&
    wall.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  if (!exists) return undefined;
  // The zone's offset at the instant itself, not at the wall time read as UTC: the two differ near a clock change.
  const guess = wall.getTime() - offsetAt(wall.getTime(), timeZone);
  return new Date(wall.getTime() - offsetAt(guess, timeZone)).toISOString();
}

/** The zone of the browser this runs in (the reader's), or UTC where the browser does not say. */
export function readerZone() {
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : 'UTC';
}

/** The reader's clock in the page's language (<html lang>). */
export function readerClock() {
  return clockFor(document.documentElement.lang || 'en', readerZone());
}
