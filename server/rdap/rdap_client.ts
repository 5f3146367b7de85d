// One RDAP `ip` query (RFC 9082: GET {base}/ip/{address}) with the manners
// registries ask for: a shared rate limit, redirects followed where
// redirect_policy.ts allows (rdap.org answers 302 to the registry holding
// the block), 429 Retry-After waited out, 5xx retried with growing pauses,
// and a time limit on every attempt. An answer whose network does not hold
// the address asked about is not used. It never throws for what the network
// does: every outcome is an answer.
import {
  type Address,
  contains,
  formatAddress,
  parseAddress,
} from "./ip_span.ts";
import { boundedText } from "../byte_limits.ts";
import type { Pacer } from "./rate_limiter.ts";
import {
  parseIpNetwork,
  type Registration,
  registrationSpan,
} from "./rdap_parser.ts";
import {
  dnsResolver,
  type HostResolver,
  MAX_REDIRECTS,
  redirectRefusal,
} from "./redirect_policy.ts";

export type RdapAnswer =
  | { kind: "found"; registration: Registration }
  /** 404: no registry holds a network for the address. */
  | { kind: "notFound" }
  | { kind: "timeout" }
  | { kind: "failed"; reason: string };

export interface RdapClientOptions {
  /** e.g. https://rdap.org or a registry's base such as https://rdap.arin.net/registry */
  baseUrl: string;
  limiter: Pacer;
  /** Per attempt, connection to last byte. */
  timeoutMs?: number;
  /** Further attempts after a 429, a 5xx or a refused connection. */
  retries?: number;
  /** The pause after the first 5xx; doubled after each further one. */
  backoffMs?: number;
  /** Resolves a redirect's host name (default: the system's resolver). */
  resolve?: HostResolver;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const ACCEPT = "application/rdap+json, application/json;q=0.9";

/** Retry-After as milliseconds: delay-seconds or an HTTP-date (RFC 9110). */
export function retryAfterMs(
  header: string | null,
  now = Date.now(),
): number | null {
  if (header === null) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

// Registries answer in tens of kilobytes; a larger answer is not one.
const MAX_ANSWER_BYTES = 1 << 20;

/** The longest Retry-After honoured as given; longer ones are cut to this. */
const MAX_RETRY_AFTER_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class RdapClient {
  readonly baseUrl: string;
  readonly #limiter: Pacer;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #backoffMs: number;
  readonly #origin: string;
  readonly #resolve: HostResolver;

  constructor(options: RdapClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#origin = new URL(this.baseUrl).origin;
    this.#resolve = options.resolve ?? dnsResolver();
    this.#limiter = options.limiter;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#retries = options.retries ?? 2;
    this.#backoffMs = options.backoffMs ?? 1_000;
  }

  /** Asks for the most specific network holding `ip`. */
  async query(ip: string): Promise<RdapAnswer> {
    const address = parseAddress(ip);
    if (!address) return { kind: "failed", reason: `not an address: ${ip}` };
    const url = `${this.baseUrl}/ip/${formatAddress(address)}`;
    let lastReason = "";
    for (let attempt = 0; attempt <= this.#retries; attempt++) {
      await this.#limiter.take();
      const outcome = await this.#attempt(url, address, attempt);
      if (outcome.kind !== "retry") return outcome;
      lastReason = outcome.reason;
      if (outcome.pauseMs > 0 && attempt < this.#retries) {
        await sleep(outcome.pauseMs);
      }
    }
    return {
      kind: "failed",
      reason: `${lastReason} (after ${this.#retries + 1} attempts)`,
    };
  }

  /** The first answer that is not a redirect, or why one was not followed. */
  async #fetchFollowing(
    url: string,
    signal: AbortSignal,
  ): Promise<Response | string> {
    let current = new URL(url);
    for (let hop = 0;; hop++) {
      const response = await fetch(current, {
        headers: { accept: ACCEPT },
        redirect: "manual",
        signal,
      });
      if (!REDIRECTS.has(response.status)) return response;
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS) {
        return `more than ${MAX_REDIRECTS} redirects`;
      }
      const location = response.headers.get("location");
      let next: URL;
      try {
        next = new URL(location ?? "", current);
      } catch {
        return `a redirect to an address that is not a URL`;
      }
      const refusal = await redirectRefusal(next, this.#origin, this.#resolve);
      if (refusal !== null) return refusal;
      current = next;
    }
  }

  async #attempt(
    url: string,
    address: Address,
    attempt: number,
  ): Promise<RdapAnswer | { kind: "retry"; reason: string; pauseMs: number }> {
    const signal = AbortSignal.timeout(this.#timeoutMs);
    try {
      const response = await this.#fetchFollowing(url, signal);
      if (typeof response === "string") {
        return { kind: "failed", reason: response };
      }
      if (response.status === 200) {
        const text = await boundedText(response.body, MAX_ANSWER_BYTES);
        if (text === null) {
          return { kind: "failed", reason: "the answer is too large" };
        }
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return { kind: "failed", reason: "the answer is not JSON" };
        }
        let registration: Registration;
        try {
          registration = parseIpNetwork(body);
        } catch (error) {
          return { kind: "failed", reason: (error as Error).message };
        }
        if (!contains(registrationSpan(registration), address)) {
          return {
            kind: "failed",
            reason: `the answer's network ${registration.network} does not ` +
              `hold ${formatAddress(address)}`,
          };
        }
        return { kind: "found", registration };
      }
      await response.body?.cancel();
      if (response.status === 404) return { kind: "notFound" };
      if (response.status === 429) {
        const wait = retryAfterMs(response.headers.get("retry-after")) ??
          this.#backoffMs;
        // The limiter holds every request, not only this one.
        this.#limiter.pauseUntil(
          Date.now() + Math.min(wait, MAX_RETRY_AFTER_MS),
        );
        return { kind: "retry", reason: "rate limited (429)", pauseMs: 0 };
      }
      if (response.status >= 500) {
        return {
          kind: "retry",
          reason: `server error ${response.status}`,
          pauseMs: this.#backoffMs * 2 ** Math.min(attempt, 6),
        };
      }
      return { kind: "failed", reason: `HTTP ${response.status}` };
    } catch (error) {
      if (signal.aborted) return { kind: "timeout" };
      return {
        kind: "retry",
        reason: `cannot connect: ${(error as Error).message}`,
        pauseMs: this.#backoffMs,
      };
    }
  }
}
