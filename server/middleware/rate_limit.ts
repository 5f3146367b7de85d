// Token-bucket rate limit per client for the public lookup routes. Each
// client has a bucket of `burst` tokens refilled at `perMinute` a minute; a
// request takes one token, whatever it asks: a batch or a BigQuery call
// holds at most BATCH_MAX_IPS addresses, looked up from local databases in
// one pass, so what a client may ask is bounded per request, and a BigQuery
// query, which sends its rows in many such requests at once, fits.
import type { Context, MiddlewareHandler } from "hono";
import { clientAddress, clientKey } from "./client_address.ts";

export interface RateLimitSettings {
  /** Tokens added per minute; 0 turns the limit off. */
  perMinute: number;
  /** Bucket size: what a client may spend at once; 0 turns the limit off. */
  burst: number;
}

export interface RateDecision {
  allowed: boolean;
  /** The bucket size (RateLimit-Limit). */
  limit: number;
  /** Whole tokens left after this request (RateLimit-Remaining). */
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  resetSeconds: number;
  /** Seconds to wait before this request would be allowed (Retry-After). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updated: number;
}

/** Idle buckets are dropped when more than this many clients are tracked. */
const SWEEP_AT = 10_000;

export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #perMs: number;

  constructor(
    readonly settings: RateLimitSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.#perMs = settings.perMinute / 60_000;
  }

  get enabled(): boolean {
    return this.settings.perMinute > 0 && this.settings.burst > 0;
  }

  /** Clients currently tracked (for tests and housekeeping). */
  get size(): number {
    return this.#buckets.size;
  }

  /** Takes a token from the client's bucket if it has one. */
  take(key: string): RateDecision {
    const { burst } = this.settings;
    const now = this.now();
    if (this.#buckets.size >= SWEEP_AT) this.#sweep(now);
    const bucket = this.#buckets.get(key) ?? { tokens: burst, updated: now };
    bucket.tokens = this.#refilled(bucket, now);
    bucket.updated = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    const secondsFor = (tokens: number) =>
      Math.max(0, Math.ceil(tokens / this.#perMs / 1000));
    return {
      allowed,
      limit: burst,
      remaining: Math.max(0, Math.floor(bucket.tokens)),
      resetSeconds: secondsFor(burst - bucket.tokens),
      retryAfterSeconds: allowed ? 0 : secondsFor(1 - bucket.tokens),
    };
  }

  /** Gives back what take() took for a request that turned out not to count. */
  refund(key: string): void {
    const bucket = this.#buckets.get(key);
    if (!bucket) return;
    bucket.tokens = Math.min(this.settings.burst, bucket.tokens + 1);
  }

  #refilled(bucket: Bucket, now: number): number {
    const elapsed = Math.max(0, now - bucket.updated);
    return Math.min(this.settings.burst, bucket.tokens + elapsed * this.#perMs);
  }

  #sweep(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (this.#refilled(bucket, now) >= this.settings.burst) {
        this.#buckets.delete(key);
      }
    }
  }
}

export interface RateLimitOptions {
  /** Proxy hops whose X-Forwarded-For is trusted (Config.trustProxy). */
  trustProxy: number;
  /**
   * The bucket a request draws from, e.g. its API key (apiKeyRateKey in
   * server/access/api_keys.ts); undefined falls back to the client address.
   */
  key?: (c: Context) => string | undefined;
  /** The body of a 429 answer (default { message }). */
  refusalBody?: (message: string) => Record<string, unknown>;
}

/** RateLimit-Policy: the bucket and the window in which it refills. */
export function policyHeader({ perMinute, burst }: RateLimitSettings): string {
  const window = Math.max(1, Math.ceil((burst * 60) / perMinute));
  return `${burst};w=${window}`;
}

export function rateLimit(
  limiter: RateLimiter,
  options: RateLimitOptions,
): MiddlewareHandler {
  if (!limiter.enabled) return async (_c, next) => await next();
  const policy = policyHeader(limiter.settings);
  const refusalBody = options.refusalBody ??
    ((message: string) => ({ message }));
  return async (c, next) => {
    const key = options.key?.(c) ??
      clientKey(clientAddress(c, options.trustProxy));
    const decision = limiter.take(key);
    const headers: Record<string, string> = {
      "RateLimit-Policy": policy,
      "RateLimit-Limit": String(decision.limit),
      "RateLimit-Remaining": String(decision.remaining),
      "RateLimit-Reset": String(decision.resetSeconds),
    };
    if (!decision.allowed) {
      const wait = decision.retryAfterSeconds;
      const { perMinute, burst } = limiter.settings;
      return c.json(
        refusalBody(
          `Rate limit exceeded: ${perMinute} requests per minute per ` +
            `client (bursts of up to ${burst}). ` +
            `Retry after ${wait} second${wait === 1 ? "" : "s"}.`,
        ),
        429,
        { ...headers, "Retry-After": String(wait) },
      );
    }
    await next();
    for (const [name, value] of Object.entries(headers)) {
      c.res.headers.set(name, value);
    }
  };
}
