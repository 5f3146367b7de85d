// A token bucket shared by every RDAP request of the process: `rate`
// tokens a second, at most `burst` saved up. Waiters are served in order.
// A registry's 429 pauses the whole bucket (registries count per client,
// not per query), so every request waits out the Retry-After.

/**
 * What the client needs of a limiter. Jobs run in workers: a worker's
 * PortPacer (shared_pacer.ts) takes tokens from the process's one limiter.
 */
export interface Pacer {
  take(): Promise<void>;
  pauseUntil(until: number): void;
}

export class RateLimiter implements Pacer {
  #tokens: number;
  #refilledAt: number;
  #pausedUntil = 0;
  #waiters: (() => void)[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly rate: number,
    readonly burst = Math.max(1, Math.ceil(rate)),
    readonly now: () => number = Date.now,
  ) {
    if (!(rate > 0)) throw new Error("the rate must be above 0");
    this.#tokens = burst;
    this.#refilledAt = now();
  }

  /** Resolves when a request may be sent (one token taken). */
  take(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
      this.#serve();
    });
  }

  /** Holds every request until `until` (ms since the epoch). */
  pauseUntil(until: number): void {
    if (until <= this.#pausedUntil) return;
    this.#pausedUntil = until;
    // Nothing saved up survives a 429: one request (the retry) may go at
    // `until`, the rest follow at the rate.
    this.#tokens = 1;
    this.#refilledAt = until;
    this.#schedule();
  }

  #refill(now: number): void {
    if (now <= this.#refilledAt) return;
    const earned = ((now - this.#refilledAt) / 1000) * this.rate;
    this.#tokens = Math.min(this.burst, this.#tokens + earned);
    this.#refilledAt = now;
  }

  #serve(): void {
    const now = this.now();
    if (now >= this.#pausedUntil) {
      this.#refill(now);
      while (this.#waiters.length > 0 && this.#tokens >= 1) {
        this.#tokens -= 1;
        this.#waiters.shift()!();
      }
    }
    this.#schedule();
  }

  #schedule(): void {
    if (this.#waiters.length === 0 || this.#timer !== null) return;
    const now = this.now();
    const untilToken = Math.max(0, ((1 - this.#tokens) / this.rate) * 1000);
    const wait = Math.max(this.#pausedUntil - now, untilToken, 1);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#serve();
    }, Math.ceil(wait));
  }
}
