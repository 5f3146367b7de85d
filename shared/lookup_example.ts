// The example answer of GET /api/lookup?ip=8.8.8.8 that the API page, the
// OpenAPI document and docs/API.md show: what this server answers with the
// bundled databases and a resolver that names 8.8.8.8 (a test keeps it so).
import type { LookupResponse } from "./wire.ts";

export const EXAMPLE_LOOKUP_IP = "8.8.8.8";

export const EXAMPLE_LOOKUP: Extract<LookupResponse, { success: true }> = {
  ip: EXAMPLE_LOOKUP_IP,
  success: true,
  country: "United States",
  country_code: "US",
  region: "California",
  city: "Mountain View",
  latitude: 37.422,
  longitude: -122.085,
  hostname: "dns.google",
  domain: "dns.google",
  company: "Google LLC",
  network_type: "hosting",
  classification_reason: "curated hosting AS",
  classification_confidence: 0.99,
  isp: "Google LLC",
  asn: "AS15169 Google LLC",
  ispFiltered: false,
  hostname_lookup: "answered",
};
