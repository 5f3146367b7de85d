// The rules that turn an address's lookup pieces (place, organisation, host
// name) into its Enrichment. The engine (lookups) and a job's chunk reader
// both build records here, so a lookup and a job row of the same address
// agree.
import type { Decision } from "../classification/decide.ts";
import type { Place } from "./geo_provider.ts";
import {
  emptyEnrichment,
  type Enrichment,
  type EnrichOptions,
} from "./types.ts";

/** An organisation as the enrichment shows it, built once per organisation. */
export interface Network {
  org: string;
  /** "AS15169 Google LLC". */
  asnText: string;
  /** The AS number (null where only the text travelled, on the writer). */
  asn: number | null;
  /** Its network type, whether it is filtered, and why. */
  kind: Decision | null;
  /** The block's registrant, when it is a customer of the AS (RDAP). */
  company?: string | null;
  /** The block's registration columns (RDAP), when looked up. */
  registration?: RegistrationColumns | null;
}

/** A row's registration data (RDAP), as registrationColumns() gives it. */
export interface RegistrationColumns {
  registered_org: string | null;
  registered_network: string | null;
  registered_country: string | null;
  abuse_email: string | null;
}

/** The place fields an enrichment takes (a Place, less its key). */
export type PlaceFields = Omit<Place, "key">;

/** An address's place and organisation, before its host name. */
export interface Located {
  place: PlaceFields | null;
  network: Network | null;
}

/** A host name from reverse DNS and its registrable domain. */
export interface HostName {
  hostname: string | null;
  domain: string | null;
}

/** The enrichment of a public address from its place and organisation. */
export function composeEnrichment(
  ip: string,
  { place, network }: Located,
  options: EnrichOptions,
): Enrichment {
  const result = emptyEnrichment(ip);
  result.success = true;
  if (place?.error) {
    // A record the database reader could not decode: say so, show nothing.
    result.success = false;
    result.failure = { kind: "corrupt_record", detail: place.error };
    return result;
  }
  if (place) {
    result.country_code = place.country_code;
    result.country = place.country;
    result.region = place.region;
    result.city = place.city;
    result.latitude = place.latitude;
    result.longitude = place.longitude;
  }
  // With no organisation known there is no classification either.
  const kind = network ? network.kind : null;
  // Filtering applies whatever the options: consumer rows never reach a
  // download.
  result.ispFiltered = kind?.filtered ?? false;
  if (options.company && kind) {
    result.network_type = kind.type;
    result.classification_reason = kind.reason;
    result.classification_confidence = kind.confidence;
    // An access network's name says nothing of who the visitor is.
    result.company = kind.filtered
      ? null
      : network!.company || network!.org || null;
  }
  const registration = network?.registration;
  if (options.registration && registration) {
    result.registered_org = registration.registered_org;
    result.registered_network = registration.registered_network;
    result.registered_country = registration.registered_country;
    result.abuse_email = registration.abuse_email;
  }
  if (options.network && network) {
    result.isp = network.org || null;
    result.asn = network.asnText;
  }
  return result;
}

/** Adds a host name and its domain to a composed enrichment. */
export function addHostName(result: Enrichment, name: HostName): Enrichment {
  if (!result.success) return result;
  result.hostname = name.hostname;
  result.domain = name.domain;
  return result;
}

/** Marks a valid address for which no requested field had any value. */
export function markNoData(result: Enrichment): Enrichment {
  if (!result.success) return result;
  const found = result.country_code || result.city || result.hostname ||
    result.company || result.network_type || result.isp || result.asn;
  if (!found) {
    result.success = false;
    result.failure = { kind: "no_data" };
  }
  return result;
}

/** The finished enrichment of a public address: every rule above, in order. */
export function composeFinished(
  ip: string,
  located: Located,
  name: HostName | null,
  options: EnrichOptions,
): Enrichment {
  const result = composeEnrichment(ip, located, options);
  if (name) addHostName(result, name);
  return markNoData(result);
}

/** The enrichment of an address that failed before any lookup. */
export function failedEnrichment(ip: string, failure: Enrichment["failure"]) {
  const result = emptyEnrichment(ip);
  result.failure = failure;
  return result;
}
