// A summary whose figures the browser test checks on screen.
import type { JobSummary } from "../../../shared/summary.ts";

export const FIXTURE: JobSummary = {
  jobId: 7,
  rows: { total: 1000, successful: 940, failed: 60, filtered: 300, kept: 700 },
  networkTypes: [
    { network_type: "consumer_isp", count: 300, filtered: 300 },
    { network_type: "hosting", count: 350, filtered: 0 },
    { network_type: "business", count: 250, filtered: 0 },
    { network_type: null, count: 40, filtered: 0 },
  ],
  failedByReason: [
    { reason: "Invalid IP address format", count: 45 },
    {
      reason: "Private address (RFC 1918), not on the public internet",
      count: 15,
    },
  ],
  topCompanies: [
    { company: "Google LLC", count: 210 },
    { company: "Amazon.com, Inc.", count: 140 },
    {
      company: "International Business Machines Corporation Research Division",
      count: 90,
    },
    { company: "Acme GmbH", count: 60 },
  ],
  topAsns: [{ asn: "AS15169 Google LLC", count: 210 }],
  topCountries: [
    { country: "United States", country_code: "US", count: 520 },
    { country: "Germany", country_code: "DE", count: 200 },
    { country: "Japan", country_code: "JP", count: 120 },
    { country: "Brazil", country_code: "BR", count: 60 },
    { country: "Australia", country_code: "AU", count: 40 },
  ],
  topCities: [{ city: "Mountain View", country_code: "US", count: 200 }],
};
