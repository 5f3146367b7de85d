import type { HostnameLookup } from "../../shared/wire.ts";

// What reverse DNS counts: per resolver the queries and their answers, and
// per lookup how it ended, so a caller (a job) can tell "no host name
// exists" from "we gave up".

export interface DnsStats {
  /** Queries sent (a resend is not another query). */
  queries: number;
  answered: number;
  notFound: number;
  timedOut: number;
  failed: number;
  /** Not asked: every server was resting after failing (circuit breaker). */
  skipped: number;
  /** Answered from the cache of recent answers, not asked. */
  cached: number;
}

/**
 * How one hostname lookup ended: a name; no name (NXDOMAIN or no PTR
 * record: none exists); timed out (no answer after the resend, or the
 * server failed: SERVFAIL, REFUSED, garbage); skipped (every server was
 * resting, so it was not asked). A missing hostname is "none exists" only
 * for no_name.
 */
export type LookupOutcome = HostnameLookup;
export type LookupOutcomes = Record<LookupOutcome, number>;

export function emptyOutcomes(): LookupOutcomes {
  return { answered: 0, no_name: 0, timed_out: 0, skipped: 0 };
}

export interface LookupResult {
  host: string | null;
  outcome: LookupOutcome;
}
