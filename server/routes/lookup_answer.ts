// An engine result as the single-lookup answer.
import type { LookupResponse } from "../../shared/wire.ts";
import type { Enrichment } from "../enrichment/types.ts";
import { lookupErrorText } from "./failure_text.ts";

/** The single-lookup answer for one engine result. */
export function toLookupResponse(
  e: Enrichment,
  registration = false,
): LookupResponse {
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
    classification_reason: e.classification_reason,
    classification_confidence: e.classification_confidence,
    isp: e.isp,
    asn: e.asn,
    ispFiltered: e.ispFiltered,
    ...(e.hostname_lookup && { hostname_lookup: e.hostname_lookup }),
    ...(registration && {
      registered_org: e.registered_org,
      registered_network: e.registered_network,
      registered_country: e.registered_country,
      abuse_email: e.abuse_email,
    }),
  };
}
