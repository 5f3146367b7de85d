// Zod schemas of the job routes' bodies and answers (the wire types of
// shared/wire.ts). Handlers declared with them must answer these shapes.
import { z } from "@hono/zod-openapi";
import {
  BATCH_MAX_IPS,
  LOW_CONFIDENCE_BELOW,
  LOW_CONFIDENCE_CHOICES,
} from "../../shared/wire.ts";
import { enrichmentFieldSchemas } from "./enrichment_schemas.ts";

const JobStatus = z.enum([
  "pending",
  "processing",
  "completed",
  "failed",
  "cancelled",
]);

export const Job = z.object({
  id: z.number().int(),
  fileName: z.string(),
  originalFileName: z.string(),
  status: JobStatus,
  totalIPs: z.number().int(),
  processedIPs: z.number().int(),
  successfulIPs: z.number().int(),
  failedIPs: z.number().int(),
  filteredIPs: z.number().int(),
  ipColumnName: z.string(),
  createdAt: z.string().openapi({ format: "date-time" }),
  completedAt: z.string().nullable().openapi({ format: "date-time" }),
  error: z.string().nullable(),
  partialSaveAvailable: z.boolean(),
  includeGeolocation: z.boolean(),
  includeDomain: z.boolean(),
  includeCompany: z.boolean(),
  includeNetwork: z.boolean(),
  includeRegistration: z.boolean(),
  lowConfidence: z.enum(LOW_CONFIDENCE_CHOICES).openapi({
    description: "What the job does with rows whose " +
      `classification_confidence is below ${LOW_CONFIDENCE_BELOW}: keep ` +
      "them or filter them out",
  }),
  registrationLookups: z.object({
    answered: z.number().int(),
    cached: z.number().int(),
    failed: z.number().int(),
  }).openapi({
    description: "Registration (RDAP) lookups by outcome: answered by a " +
      "registry, from the cache, failed (those rows keep the AS answer)",
  }),
  hostnameLookups: z.object({
    answered: z.number().int(),
    noName: z.number().int(),
    timedOut: z.number().int(),
    skipped: z.number().int(),
  }).openapi({
    description: "Host-name lookups by outcome: a name, none exists, " +
      "no answer (timed out or server failure), not asked (server resting)",
  }),
  dataVersion: z.string().nullable().openapi({
    description: "The databases the job runs on, every version in one line " +
      "(as /api/config's data.version said when it was made); null for " +
      "jobs from before versions were recorded",
  }),
}).openapi("Job");

export const UploadResult = z.object({
  fileName: z.string().openapi({ description: "Name to pass to /api/enrich" }),
  originalFileName: z.string(),
  size: z.number().int(),
  headers: z.array(z.string()),
  rowCount: z.number().int(),
  sampleRows: z.array(z.array(z.string())).openapi({
    description: "The first data rows (five at most), as parsed",
  }),
  notice: z.string().optional().openapi({
    description: "What to tell the user about the file: that it has more " +
      "columns than the .xlsx download can hold",
  }),
}).openapi("UploadResult");

/** A "Data to Include" choice: 1/0 (what the web app sends) or a boolean. */
const includeFlag = z.union([z.boolean(), z.literal(0), z.literal(1)])
  .transform(Boolean).default(true)
  .openapi({ description: "1/0 or true/false; default true" });

const CHOOSE_IP_COLUMN = "Please select the column containing IP addresses";

/** Body of POST /api/enrich; other fields the web app sends are ignored. */
export const EnrichRequest = z.object({
  fileName: z.string().min(1).max(200),
  originalFileName: z.string().max(255).optional(),
  // Sent by the web app and ignored: the server knows the upload's rows.
  totalIPs: z.any().openapi({ type: "number", description: "Ignored" }),
  status: z.any().openapi({ type: "string", description: "Ignored" }),
  ipColumnName: z.string({ required_error: CHOOSE_IP_COLUMN })
    .min(1, CHOOSE_IP_COLUMN),
  includeGeolocation: includeFlag,
  includeDomain: includeFlag,
  includeCompany: includeFlag,
  includeNetwork: includeFlag,
  resolveHostnames: z.union([z.boolean(), z.literal(0), z.literal(1)])
    .transform(Boolean).default(false).openapi({
      description: "Resolve host names in the IP column forward (A, then " +
        "AAAA) through DNS_SERVERS; 1/0 or true/false, default false (a " +
        "host name cell then fails)",
    }),
  includeRegistration: z.union([z.boolean(), z.literal(0), z.literal(1)])
    .transform(Boolean).default(false).openapi({
      description: "Registration data over RDAP (online): registered_org, " +
        "registered_network, registered_country, abuse_email, and the " +
        "registrant as company for a customer block inside a carrier; 1/0, " +
        "default 0; refused when the server has RDAP off",
    }),
  lowConfidence: z.enum(LOW_CONFIDENCE_CHOICES, {
    errorMap: () => ({
      message: 'lowConfidence must be "keep" or "filter"',
    }),
  }).default("keep").openapi({
    description: "Rows whose classification_confidence is below " +
      `${LOW_CONFIDENCE_BELOW} (the ` +
      'classifier more likely wrong than right): "keep" them in the ' +
      "download (default: losing a business is worse than keeping a " +
      'household) or "filter" them out, whatever their type',
  }),
  alwaysKeep: z.string().max(100_000).optional().openapi({
    description: "AS numbers or CIDRs, one per line, whose addresses are " +
      "kept even when their network would be filtered",
    example: "AS64500\n203.0.113.0/24",
  }),
}).passthrough().openapi("EnrichRequest");

export const EnrichmentData = z.object({
  ip: z.string(),
  ...enrichmentFieldSchemas(),
}).openapi("EnrichmentData");

const ResultRow = z.object({
  id: z.number().int(),
  rowIndex: z.number().int(),
  success: z.boolean(),
  error: z.string().nullable(),
  originalData: z.record(z.string(), z.string()),
  enrichmentData: EnrichmentData,
}).openapi("ResultRow");

export const RecentResults = z.object({
  results: z.array(ResultRow),
  nextIndex: z.number().int(),
}).openapi("RecentResultsResponse");

const nullableText = z.string().nullable();
const PreviewRow = z.object({
  ip: z.string(),
  success: z.boolean(),
  error: nullableText.openapi({
    description: "Why the row's lookup failed (null when it succeeded)",
  }),
  domain: nullableText,
  company: nullableText,
  city: nullableText,
  country: nullableText,
  isp: nullableText,
  ispFiltered: z.boolean(),
  asn: nullableText,
  networkType: nullableText,
  classificationReason: nullableText,
  classificationConfidence: z.number().nullable(),
}).openapi("PreviewRow");

export const Preview = z.object({
  job: Job,
  preview: z.array(PreviewRow),
  totalResults: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
  totalAtLeast: z.boolean().optional().openapi({
    description: "True when a text filter stopped counting at 10,000",
  }),
}).openapi("PreviewResponse");

export const Message = z.object({ message: z.string() }).openapi("Message");
export const Clear = z.object({ cleared: z.number().int() }).openapi(
  "ClearResponse",
);

export const DatabaseInfo = z.object({
  kind: z.enum(["geolocation", "asn", "classifier"]),
  name: z.string().openapi({ example: "DB-IP Lite City" }),
  file: z.string().nullable().openapi({
    description: "The file read (a package's or the user's own)",
  }),
  source: z.string().openapi({
    description: "Who makes the data, and how it came here",
  }),
  licence: z.string().nullable().openapi({ example: "CC BY 4.0" }),
  url: z.string().nullable(),
  version: z.string().openapi({
    description: "Package version, file name, or (classifier) content hash",
    example: "2.3.2026060513",
  }),
  builtAt: z.string().nullable().openapi({
    description: "When the data was built (ISO 8601): the MMDB build_epoch, " +
      "the date a package version names; null when nothing says",
    example: "2026-06-05T13:42:02.000Z",
  }),
  origin: z.enum(["bundled", "updated", "own"]).openapi({
    description: "Bundled with the server, updated into DATA_DIR by " +
      "update-databases, or the user's own file (GEO_DB, ASN_DB, lists)",
  }),
}).openapi("DatabaseInfo");

export const DataStatus = z.object({
  version: z.string().openapi({
    description: "Every database's version in one line: what a job records",
  }),
  databases: z.array(DatabaseInfo),
  maxAgeDays: z.number().int().openapi({
    description: "Data built longer ago is called stale (DATA_MAX_AGE_DAYS)",
  }),
  lastUpdate: z.object({
    at: z.string(),
    ok: z.boolean(),
    message: z.string().openapi({
      description: "What the update did, or why the data in use stayed",
    }),
  }).nullable().openapi({
    description: "How the last update-databases run in this data " +
      "directory ended, or, with DATABASE_URL, this process's last taking " +
      "up of the deployment's data (null: none yet)",
  }),
}).openapi("DataStatus");

export const PublicConfig = z.object({
  maxUploadMb: z.number().openapi({ description: "Largest upload (MB sent)" }),
  maxUncompressedMb: z.number().openapi({
    description:
      "What a compressed (.csv.gz, .zip) or .xlsx upload may hold (MB of rows)",
  }),
  rateLimitPerMinute: z.number().int().openapi({
    description: "Public lookup requests per minute per client address (a " +
      "batch counts once); 0: no limit",
  }),
  rateLimitBurst: z.number().int(),
  batchMaxIps: z.number().int().openapi({ example: BATCH_MAX_IPS }),
  rdap: z.object({
    enabled: z.boolean(),
    rate: z.number().openapi({ description: "RDAP requests per second" }),
  }).openapi({
    description: "Registration data (RDAP, online): on or off, and its rate",
  }),
  jobsVisibility: z.enum(["private", "shared"]).openapi({
    description: "private: a visitor sees only the jobs of their own " +
      "session; shared: everyone sees every job (JOBS_VISIBILITY)",
  }),
  contact: z.object({
    email: z.string().nullable(),
    url: z.string().nullable(),
  }).openapi({
    description: "Who answers for this server (CONTACT_EMAIL, CONTACT_URL)",
  }),
  data: DataStatus,
}).openapi("PublicConfig");

/**
 * The job id in the path. The handler parses it (parseJobId) so a bad id
 * gets its own message; the schema only documents it.
 */
export const JobIdParam = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path" },
    pattern: "^\\d+$",
    example: "1",
  }),
});

/**
 * An optional whole-number query parameter. The handler reads and bounds it
 * (intParam) so a bad value gets its own message; the schema only
 * documents it, and accepts a repeated parameter as the handler does.
 */
export const wholeNumberQuery = (description: string) =>
  z.any().openapi({ type: "string", pattern: "^\\d+$", description });
