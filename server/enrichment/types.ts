// The one record every provider fills part of (STYLE.md: one Enrichment type).
import type { EnrichmentData } from "../../shared/wire.ts";

export type { EnrichmentData };

export interface Enrichment extends EnrichmentData {
  success: boolean;
  error: string | null;
  /** A consumer broadband or mobile access network: left out of downloads. */
  ispFiltered: boolean;
}

/** Which groups of fields a caller asked for (SPEC.md "Data to Include"). */
export interface EnrichOptions {
  geolocation: boolean;
  domain: boolean;
  company: boolean;
  network: boolean;
}

/** The error of a valid address for which no requested field had a value. */
export const NO_DATA = "No data found for this address";

export const ALL_OPTIONS: EnrichOptions = {
  geolocation: true,
  domain: true,
  company: true,
  network: true,
};

export function emptyEnrichment(ip: string): Enrichment {
  return {
    ip,
    success: false,
    error: null,
    ispFiltered: false,
    country: null,
    country_code: null,
    region: null,
    city: null,
    latitude: null,
    longitude: null,
    hostname: null,
    domain: null,
    company: null,
    network_type: null,
    isp: null,
    asn: null,
  };
}
