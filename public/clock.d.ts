// The types of public/clock.js, the tool's one clock (loaded as it is by the server and the browser).
export type ClockKind = 'minute' | 'second';

export interface Clock {
  /** The zone as the page names it: "UTC", "Berlin". */
  readonly zone: string;
  readonly timeZone: string;
  format(kind: ClockKind, value: Date | string): string;
}

export function zoneName(timeZone: string): string;
export function isTimeZone(timeZone: string): boolean;
export function clockFor(language: string, timeZone: string): Clock;
export function fieldValue(value: Date | string, timeZone: string): string;
export function fromFieldValue(value: string, timeZone: string): string | undefined;
export function readerZone(): string;
export function readerClock(): Clock;
