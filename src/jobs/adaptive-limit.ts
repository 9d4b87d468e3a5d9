// How many jobs of a queue a process runs at once when each one calls a service that says how much it takes:
// one more with every run the service accepts, a quarter fewer when it answers "slow down" (429 or 503 with
// Retry-After), at most once per the wait it names, so that a burst of refusals from one overload counts once.
// The service's own answers set the pace: a deadline's uploads go out as fast as it takes them, and a service
// that refuses more gets fewer at once. Each refused run still waits the Retry-After before it tries again.

export class AdaptiveLimit {
  #limit: number;
  #running = 0;
  #waiting: Array<() => void> = [];
  #cutUntil = 0;

  /** From `min` (the queue's usual concurrency) up to `max` runs at once. */
  constructor(
    readonly min: number,
    readonly max: number,
  ) {
    this.#limit = min;
  }

  get limit(): number {
    return this.#limit;
  }

  /** Whether another run would start at once. */
  hasRoom(): boolean {
    return this.#running < this.#limit;
  }

  /** Waits for a place; the function it gives back frees it (once). */
  async acquire(): Promise<() => void> {
    while (this.#running >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#running += 1;
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      this.#running -= 1;
      this.#wake();
    };
  }

  /** The service took a run: one more at once, up to the maximum. */
  accepted(): void {
    this.#limit = Math.min(this.max, this.#limit + 1);
    this.#wake();
  }

  /** The service asked to wait: a quarter fewer at once, unless it was cut within its last named wait. */
  refused(retryAfterMs: number): void {
    const now = Date.now();
    if (now < this.#cutUntil) return;
    this.#cutUntil = now + Math.max(retryAfterMs, 1000);
    this.#limit = Math.max(this.min, Math.floor(this.#limit * 0.75));
  }

  #wake(): void {
    for (let room = this.#limit - this.#running; room > 0 && this.#waiting.length > 0; room -= 1)
      this.#waiting.shift()!();
  }
}
