// The service's two timestamp shapes. It sends wall-clock times with no zone (reference/checker-facts.md: India
// Standard Time, an inference), so the sandbox formats in a configurable fixed offset rather than in UTC.
const pad = (n: number) => String(n).padStart(2, '0');

export class Clock {
  constructor(readonly utcOffsetMinutes: number) {}

  #parts(date: Date) {
    const shifted = new Date(date.getTime() + this.utcOffsetMinutes * 60_000);
    return {
      y: shifted.getUTCFullYear(),
      mo: pad(shifted.getUTCMonth() + 1),
      d: pad(shifted.getUTCDate()),
      t: `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`,
    };
  }

  /** `YYYY-MM-DD HH:mm:ss`, the shape of record fields (date_up, creation_date). */
  record(date = new Date()): string {
    const p = this.#parts(date);
    return `${p.y}-${p.mo}-${p.d} ${p.t}`;
  }

  /**
   * A time for a person reading a report, who may be in any zone: on UTC's clock, named, whatever the clock of the
   * service's records (`2026-11-25 06:35 UTC`).
   */
  forReader(date = new Date()): string {
    return `${new Clock(0).record(date).slice(0, 16)} UTC`;
  }

  /** `DD-MM-YYYY HH:mm:ss`, the shape of an envelope's timeStamp (spec 2.6: `NN-NN-YYYY HH:mm:ss`). */
  envelope(date = new Date()): string {
    const p = this.#parts(date);
    return `${p.d}-${p.mo}-${p.y} ${p.t}`;
  }
}
