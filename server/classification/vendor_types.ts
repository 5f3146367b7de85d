// The network type a user's own database states: MaxMind's user type
// (Enterprise) or connection type (Connection-Type, Enterprise), IPinfo's
// company type or AS type. A vendor's per-address answer is stronger
// evidence than the AS's features, so it decides, named in the reason
// ("MaxMind connection type: Cable/DSL"); an operator's override still
// comes first.
import type { VendorFields } from "../enrichment/asn_table.ts";
import type { Decision, NetworkKind } from "./decide.ts";

const MAXMIND_USER_TYPES: Record<string, NetworkKind> = {
  residential: "consumer_isp",
  cellular: "mobile",
  business: "business",
  cafe: "business",
  traveler: "business",
  router: "business",
  hosting: "hosting",
  content_delivery_network: "hosting",
  consumer_privacy_network: "hosting",
  search_engine_spider: "hosting",
  college: "education",
  school: "education",
  library: "education",
  government: "government",
  military: "government",
};

const MAXMIND_CONNECTION_TYPES: Record<string, NetworkKind> = {
  "cable/dsl": "consumer_isp",
  dialup: "consumer_isp",
  satellite: "consumer_isp",
  cellular: "mobile",
  corporate: "business",
};

const IPINFO_TYPES: Record<string, NetworkKind> = {
  isp: "consumer_isp",
  business: "business",
  hosting: "hosting",
  education: "education",
  government: "government",
};

const FILTERED = new Set<NetworkKind>(["consumer_isp", "mobile"]);

/** The decision the vendor's fields make, or null when they name no type. */
export function vendorDecision(vendor: VendorFields): Decision | null {
  const sources: [string | null, Record<string, NetworkKind>, string][] = [
    [vendor.userType, MAXMIND_USER_TYPES, "MaxMind user type"],
    [
      vendor.connectionType,
      MAXMIND_CONNECTION_TYPES,
      "MaxMind connection type",
    ],
    [vendor.companyType, IPINFO_TYPES, "IPinfo company type"],
    [vendor.asType, IPINFO_TYPES, "IPinfo AS type"],
  ];
  for (const [value, table, name] of sources) {
    if (!value) continue;
    const type = table[value.trim().toLowerCase()];
    if (!type) continue;
    return {
      type,
      filtered: FILTERED.has(type),
      reason: `${name}: ${value}`,
      confidence: null,
    };
  }
  return null;
}
