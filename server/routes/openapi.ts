// GET /api/openapi.json: an OpenAPI 3.1 document of every /api route. The
// public lookup routes bring their own definitions (the schemas that validate
// them); the web app's job routes are plain Hono and are described here.
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { RouteConfig } from "@hono/zod-openapi";
import { Hono } from "hono";
import type {
  ClearResponse,
  EnrichmentData,
  Job,
  MessageResponse,
  PreviewResponse,
  PublicConfig,
  RecentResultsResponse,
  UploadResult,
} from "../../shared/wire.ts";
import { BATCH_MAX_IPS } from "../../shared/wire.ts";
import { lookupCors } from "../middleware/cors.ts";
import { ErrorResponse, NETWORK_TYPES, RATE_LIMIT_HEADERS } from "./schemas.ts";

// --- wire types of the job routes (shared/wire.ts) ---

const JobStatus = z.enum([
  "pending",
  "processing",
  "completed",
  "failed",
  "cancelled",
]);

const Job = z.object({
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
}).openapi("Job");

const UploadResult = z.object({
  fileName: z.string().openapi({ description: "Name to pass to /api/enrich" }),
  originalFileName: z.string(),
  size: z.number().int(),
  headers: z.array(z.string()),
  rowCount: z.number().int(),
}).openapi("UploadResult");

const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).optional()
  .openapi({ description: "1/0 or true/false; default true" });

const EnrichRequest = z.object({
  fileName: z.string(),
  originalFileName: z.string().optional(),
  totalIPs: z.number().optional(),
  status: z.string().optional(),
  ipColumnName: z.string(),
  includeGeolocation: flag,
  includeDomain: flag,
  includeCompany: flag,
  includeNetwork: flag,
  alwaysKeep: z.string().optional().openapi({
    description: "AS numbers or CIDRs, one per line, whose addresses are " +
      "kept even when their network would be filtered",
    example: "AS64500\n203.0.113.0/24",
  }),
}).openapi("EnrichRequest");

const nullable = z.string().nullable();
const EnrichmentData = z.object({
  ip: z.string(),
  country: nullable,
  country_code: nullable,
  region: nullable,
  city: nullable,
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  hostname: nullable,
  domain: nullable,
  company: nullable,
  network_type: z.string().nullable().openapi({
    enum: [...NETWORK_TYPES, null],
  }),
  classification_reason: nullable,
  isp: nullable,
  asn: nullable,
}).openapi("EnrichmentData");

const ResultRow = z.object({
  id: z.number().int(),
  rowIndex: z.number().int(),
  success: z.boolean(),
  error: z.string().nullable(),
  originalData: z.record(z.string(), z.string()),
  enrichmentData: EnrichmentData,
}).openapi("ResultRow");

const RecentResults = z.object({
  results: z.array(ResultRow),
  nextIndex: z.number().int(),
}).openapi("RecentResultsResponse");

const PreviewRow = z.object({
  ip: z.string(),
  domain: nullable,
  company: nullable,
  city: nullable,
  country: nullable,
  isp: nullable,
  ispFiltered: z.boolean(),
  asn: nullable,
  networkType: nullable,
  classificationReason: nullable,
}).openapi("PreviewRow");

const Preview = z.object({
  job: Job,
  preview: z.array(PreviewRow),
  totalResults: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
}).openapi("PreviewResponse");

const Message = z.object({ message: z.string() }).openapi("Message");
const Clear = z.object({ cleared: z.number().int() }).openapi("ClearResponse");

const PublicConfigSchema = z.object({
  maxUploadMb: z.number(),
  rateLimitPerMinute: z.number().int().openapi({
    description: "Public lookups per minute per client address; 0: no limit",
  }),
  rateLimitBurst: z.number().int(),
  batchMaxIps: z.number().int().openapi({ example: BATCH_MAX_IPS }),
}).openapi("PublicConfig");

// Compile-time checks that these schemas and shared/wire.ts agree.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(_: T) => {};
agree<Same<z.infer<typeof Job>, Job>>(true);
agree<Same<z.infer<typeof UploadResult>, UploadResult>>(true);
agree<Same<z.infer<typeof EnrichmentData>, EnrichmentData>>(true);
agree<Same<z.infer<typeof Preview>, PreviewResponse>>(true);
agree<Same<z.infer<typeof RecentResults>, RecentResultsResponse>>(true);
agree<Same<z.infer<typeof Message>, MessageResponse>>(true);
agree<Same<z.infer<typeof Clear>, ClearResponse>>(true);
agree<Same<z.infer<typeof PublicConfigSchema>, PublicConfig>>(true);

// --- the job routes (server/routes/jobs.ts, upload.ts) and app routes ---

const json = (schema: z.ZodTypeAny, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
const error = (description: string) => json(ErrorResponse, description);

const JobId = z.object({
  id: z.string().regex(/^\d+$/).openapi({
    param: { name: "id", in: "path" },
    example: "1",
  }),
});
const int = (description: string) =>
  z.string().regex(/^\d+$/).optional().openapi({ description });

const jobNotFound = error("No job with that id");
const badId = error("The id is not a positive whole number");

const OTHER_ROUTES: RouteConfig[] = [
  createRoute({
    method: "post",
    path: "/upload",
    tags: ["Jobs"],
    summary: "Upload a CSV file",
    description: "Streams the file to the server, reads its header row and " +
      "counts its rows. Only .csv names are accepted.",
    request: {
      body: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: z.object({
              file: z.any().openapi({ type: "string", format: "binary" }),
            }),
          },
        },
      },
    },
    responses: {
      201: json(UploadResult, "The stored upload"),
      400: error("Not a .csv file, not multipart, or no header row"),
      413: error("Over MAX_UPLOAD_MB"),
    },
  }),
  createRoute({
    method: "post",
    path: "/enrich",
    tags: ["Jobs"],
    summary: "Start an enrichment job for an upload",
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: EnrichRequest } },
      },
    },
    responses: {
      201: json(Job, "The created job (pending)"),
      400: error("Invalid body or unknown column"),
      404: error("The upload was not found (it may have expired)"),
    },
  }),
  createRoute({
    method: "get",
    path: "/jobs",
    tags: ["Jobs"],
    summary: "List jobs, newest first",
    responses: { 200: json(z.array(Job), "All jobs") },
  }),
  createRoute({
    method: "delete",
    path: "/jobs/completed",
    tags: ["Jobs"],
    summary: "Delete all completed jobs and their results",
    responses: { 200: json(Clear, "How many jobs were deleted") },
  }),
  createRoute({
    method: "get",
    path: "/jobs/{id}",
    tags: ["Jobs"],
    summary: "One job",
    request: { params: JobId },
    responses: { 200: json(Job, "The job"), 400: badId, 404: jobNotFound },
  }),
  createRoute({
    method: "get",
    path: "/jobs/{id}/preview",
    tags: ["Jobs"],
    summary: "A page of processed rows",
    request: {
      params: JobId,
      query: z.object({
        page: int("Page from 1 to totalPages (default 1)"),
        limit: int("Rows per page, 1 to 100 (default 10)"),
      }),
    },
    responses: {
      200: json(Preview, "The page"),
      400: error("Bad id, or a page outside 1..totalPages"),
      404: jobNotFound,
    },
  }),
  createRoute({
    method: "get",
    path: "/jobs/{id}/recent-results",
    tags: ["Jobs"],
    summary: "Rows processed since an index (live feed)",
    request: {
      params: JobId,
      query: z.object({
        since: int("First row index (default 0)"),
        limit: int("At most this many rows, 1 to 1000 (default 50)"),
        getLatest: z.enum(["true", "false"]).optional().openapi({
          description: "true: the last `limit` rows instead",
        }),
      }),
    },
    responses: {
      200: json(RecentResults, "Rows and the next index to ask for"),
      400: badId,
      404: jobNotFound,
    },
  }),
  createRoute({
    method: "get",
    path: "/jobs/{id}/download",
    tags: ["Jobs"],
    summary: "Download the enriched file (consumer ISP rows left out)",
    description: "Works while a job runs too (the rows processed so far).",
    request: {
      params: JobId,
      query: z.object({
        format: z.enum(["csv", "xlsx"]).optional().openapi({
          description: "csv (default) or xlsx",
        }),
      }),
    },
    responses: {
      200: {
        description: "The file",
        content: {
          "text/csv": { schema: z.string() },
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {
            schema: z.string().openapi({ format: "binary" }),
          },
        },
      },
      400: error("Unknown format"),
      404: jobNotFound,
    },
  }),
  createRoute({
    method: "post",
    path: "/jobs/{id}/cancel",
    tags: ["Jobs"],
    summary: "Cancel a pending or processing job",
    request: { params: JobId },
    responses: {
      200: json(Message, "Cancelled"),
      404: jobNotFound,
      409: error("The job is not pending or processing"),
    },
  }),
  createRoute({
    method: "post",
    path: "/jobs/{id}/restart",
    tags: ["Jobs"],
    summary: "Restart a failed job from its last checkpoint",
    request: { params: JobId },
    responses: {
      200: json(Message, "Restarted"),
      404: jobNotFound,
      409: error("The job has not failed"),
    },
  }),
  createRoute({
    method: "get",
    path: "/config",
    tags: ["Server"],
    summary: "Settings the web app follows",
    responses: { 200: json(PublicConfigSchema, "The settings") },
  }),
  createRoute({
    method: "get",
    path: "/openapi.json",
    tags: ["Server"],
    summary: "This document",
    responses: {
      200: json(
        z.record(z.string(), z.unknown()).openapi({
          description: "OpenAPI 3.1",
        }),
        "The OpenAPI document",
      ),
    },
  }),
];

const DESCRIPTION = `Enriches IP addresses with geolocation (DB-IP Lite, \
CC BY 4.0, https://db-ip.com), network (AS number and name), company and \
reverse DNS, from local databases.

The public lookup routes (tag Lookup and BigQuery) allow any origin (CORS) \
and are rate limited per client address with a token bucket: the \
RateLimit-* headers of each answer show the state, a 429 answer carries \
Retry-After. A batch counts each address. The job routes (tag Jobs) drive \
the web app; job progress is also pushed over the WebSocket /ws \
(subscribe with {"type":"subscribe","jobId":N}).

Rate-limit headers: ${Object.keys(RATE_LIMIT_HEADERS).join(", ")}.`;

/** The document for the app whose public routes `publicApi` holds. */
export function openApiDocument(publicApi: OpenAPIHono) {
  const docs = new OpenAPIHono();
  docs.route("/api", publicApi);
  for (const route of OTHER_ROUTES) {
    docs.openAPIRegistry.registerPath({ ...route, path: `/api${route.path}` });
  }
  return docs.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "IP Enrichment API",
      version: "1.0.0",
      description: DESCRIPTION,
    },
    tags: [
      { name: "Lookup", description: "Single and batch lookups" },
      { name: "BigQuery", description: "BigQuery remote functions" },
      { name: "Jobs", description: "CSV uploads and background jobs" },
      { name: "Server", description: "Settings and this document" },
    ],
  });
}

/** GET /openapi.json, generated once on first request. */
export function openApiRoutes(publicApi: OpenAPIHono) {
  const app = new Hono();
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.use("/openapi.json", lookupCors());
  app.get("/openapi.json", (c) => {
    document ??= openApiDocument(publicApi);
    c.header("Cache-Control", "no-cache");
    return c.json(document);
  });
  return app;
}
