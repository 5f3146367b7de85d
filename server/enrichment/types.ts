// The one record every provider fills part of: the lookup API, the job
// pipeline and the store all pass this same Enrichment around.
import {
  compileOverFields,
  ENRICHMENT_FIELDS,
} from "../../shared/enrichment_fields.ts";
import {
  type Failure,
  type FailureAudience,
  failureMessage,
} from "../../shared/failures.ts";
import type {
  EnrichmentData,
  HostnameLookup,
  LowConfidence,
} from "../../shared/wire.ts";

export type { EnrichmentData, Failure, FailureAudience };

export interface Enrichment extends EnrichmentData {
  success: boolean;
  /** Why the address has no enrichment; null on success. */
  failure: Failure | null;
  /** A consumer broadband or mobile access network: left out of downloads. */
  ispFiltered: boolean;
  /** How the host name was looked up (Engine.enrich, when it was asked). */
  hostname_lookup?: HostnameLookup;
}

/** Which groups of fields a caller asked for ("Data to Include"). */
export interface EnrichOptions {
  geolocation: boolean;
  domain: boolean;
  company: boolean;
  network: boolean;
  /** Registration data over RDAP (online; only when the server has RDAP on). */
  registration?: boolean;
  /** Jobs: resolve host-name cells forward (A, then AAAA); default off. */
  resolveHostnames?: boolean;
  /** Jobs: rows the classifier is unsure of (default "keep"). */
  lowConfidence?: LowConfidence;
}

export const ALL_OPTIONS: EnrichOptions = {
  geolocation: true,
  domain: true,
  company: true,
  network: true,
};

/** A record with every field null, compiled from the field table. */
const newEmptyEnrichment = compileOverFields<(ip: string) => Enrichment>(
  ENRICHMENT_FIELDS,
  ["ip"],
  (list) =>
    `return { ip, success: false, failure: null, ispFiltered: false, ${
      list((name) => `${name}: null`)
    } };`,
);

export function emptyEnrichment(ip: string): Enrichment {
  return newEmptyEnrichment(ip);
}

/**
 * The error text a user reads for a result: null on success. `audience`
 * picks the words (a lookup answer or a job's rows; see failureMessage).
 */
export function errorText(
  e: Enrichment,
  audience: FailureAudience,
): string | null {
  return e.failure ? failureMessage(e.failure, audience) : null;
}
