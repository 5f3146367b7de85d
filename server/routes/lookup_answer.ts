// An engine result as a lookup answer. The only place the HTTP edge reads
// why an enrichment failed: lookupErrorText and isRefusedAsNotAnAddress.
import type { LookupResponse } from "../../shared/wire.ts";
import { INVALID_IP } from "../enrichment/ip_input.ts";
import type { Enrichment } from "../enrichment/types.ts";

/** What a lookup answers for text that is not an IP address. */
export const NOT_AN_IP_ADDRESS = "Invalid IP address format";

/** Whether the engine refused the text as not being an IP address. */
export function isRefusedAsNotAnAddress(e: Enrichment): boolean {
  return !e.success && (!e.error || e.error === INVALID_IP);
}

/** The words a lookup answers in `error` for a failed enrichment. */
export function lookupErrorText(e: Enrichment): string {
  return isRefusedAsNotAnAddress(e) ? NOT_AN_IP_ADDRESS : e.error ?? "";
}

/** The single-lookup answer for one engine result. */
export function toLookupResponse(e: Enrichment): LookupResponse {
  if (!e.success) {
    return { ip: e.ip, success: false, error: lookupErrorText(e) };
  }
  return {
    ip: e.ip,
    success: true,
    country: e.country,
    country_code: e.country_code,
    region: e.region,
    city: e.city,
    latitude: e.latitude,
    longitude: e.longitude,
    hostname: e.hostname,
    domain: e.domain,
    company: e.company,
    network_type: e.network_type,
    isp: e.isp,
    asn: e.asn,
    ispFiltered: e.ispFiltered,
  };
}
