// Wiring for a job or the HTTP side: the settings, the cache and the pacer
// in, a RegistrationLookup out. The cache is the store's kind (SQLite or
// PostgreSQL, see storage/rdap_cache.ts); the pacer is shared by everything
// in one process (in a job worker thread: a PortPacer, see shared_pacer.ts).
import type { RdapCache, RdapCacheOptions } from "../storage/rdap_cache.ts";
import { type Pacer, RateLimiter } from "./rate_limiter.ts";
import { RdapClient } from "./rdap_client.ts";
import type { RdapConfig } from "./rdap_config.ts";
import { RegistrationLookup } from "./registration_lookup.ts";

/** A lookup for one job (its outcomes are that job's), or null when off. */
export function registrationLookupFor(
  config: RdapConfig,
  cache: RdapCache,
  pacer: Pacer,
  { timeoutMs }: { timeoutMs?: number } = {},
): RegistrationLookup | null {
  if (!config.enabled) return null;
  return new RegistrationLookup({
    client: new RdapClient({
      baseUrl: config.url,
      limiter: pacer,
      timeoutMs,
    }),
    cache,
  });
}

/**
 * The process's one RDAP rate limit (lookups here, jobs through ports) and
 * its cache of the store's kind; both null while RDAP is off.
 */
export function rdapProcessParts<C extends RdapCache>(
  config: RdapConfig,
  openCache: (options: RdapCacheOptions) => C,
): { rdapPacer: RateLimiter | null; rdapCache: C | null } {
  if (!config.enabled) return { rdapPacer: null, rdapCache: null };
  return {
    rdapPacer: new RateLimiter(config.rate),
    rdapCache: openCache({ maxAgeDays: config.cacheDays }),
  };
}
