// Zod schema of GET /api/jobs/{id}/summary's answer (shared/summary.ts).
import { z } from "@hono/zod-openapi";

const count = z.number().int();
const countryCode = z.string().nullable().openapi({
  description: "ISO 3166-1 alpha-2; null when only a name is known",
});

export const JobSummarySchema = z.object({
  jobId: count,
  rows: z.object({
    total: count.openapi({ description: "Rows stored (processed) so far" }),
    successful: count,
    failed: count,
    filtered: count.openapi({
      description: "Consumer access networks, left out of the download",
    }),
    kept: count.openapi({ description: "Rows in the download" }),
  }),
  distinctAddresses: count.optional().openapi({
    description: "Distinct addresses among the rows, once the job is " +
      "completed (an address may repeat in a file)",
  }),
  networkTypes: z.array(z.object({
    network_type: z.string().nullable().openapi({
      description: "consumer_isp, mobile, hosting, business, education, " +
        "government; null when not known",
    }),
    count,
    filtered: count,
  })).openapi({ description: "Successful rows by network type" }),
  failedByReason: z.array(z.object({ reason: z.string(), count })),
  topCompanies: z.array(z.object({ company: z.string(), count }))
    .openapi({ description: "Top 20 companies among kept rows" }),
  topAsns: z.array(z.object({ asn: z.string(), count })),
  topCountries: z.array(
    z.object({ country: z.string(), country_code: countryCode, count }),
  ),
  topCities: z.array(
    z.object({ city: z.string(), country_code: countryCode, count }),
  ),
  hostnames: z.object({
    answered: count,
    no_name: count,
    timed_out: count,
    skipped: count,
  }).optional(),
}).openapi("JobSummary");
