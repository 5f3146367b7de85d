// Declarations of the job routes (/api/enrich, /api/jobs/...): paths,
// parameters, bodies and answers. The handlers are in jobs.ts.
import { z } from "@hono/zod-openapi";
import { NETWORK_TYPES } from "../../shared/network_types.ts";
import { PREVIEW_STATUSES } from "../../shared/wire.ts";
import {
  errorResponse,
  jobRoute,
  jsonBody,
  jsonResponse,
} from "./documented_responses.ts";
import {
  Clear,
  EnrichRequest,
  Job,
  JobIdParam,
  Message,
  Preview,
  RecentResults,
  wholeNumberQuery,
} from "./job_schemas.ts";
import { jsonBodyOfAnyType } from "./json_body.ts";
import { JobSummarySchema } from "./summary_schemas.ts";

/** A route of one job (/jobs/{id}...): the id parameter, its 400 and 404. */
function oneJobRoute<R extends Parameters<typeof jobRoute>[0]>(route: R) {
  return jobRoute({
    ...route,
    request: { params: JobIdParam, ...route.request },
    responses: {
      400: errorResponse("The id is not a positive whole number"),
      404: errorResponse("No job with that id"),
      ...route.responses,
    },
  });
}

export const enrichRoute = jobRoute({
  method: "post",
  path: "/enrich",
  operationId: "startJob",
  summary: "Start an enrichment job for an upload",
  middleware: [jsonBodyOfAnyType] as const,
  request: {
    body: jsonBody(EnrichRequest),
  },
  responses: {
    201: jsonResponse(Job, "The created job (pending)"),
    400: errorResponse("Invalid body or unknown column"),
    404: errorResponse("The upload was not found (it may have expired)"),
    413: errorResponse("The body is over 1 MiB"),
  },
});

export const listJobsRoute = jobRoute({
  method: "get",
  path: "/jobs",
  operationId: "listJobs",
  summary: "List jobs, newest first",
  responses: {
    200: jsonResponse(z.array(Job), "All jobs"),
  },
});

export const clearCompletedRoute = jobRoute({
  method: "delete",
  path: "/jobs/completed",
  operationId: "clearCompletedJobs",
  summary: "Delete all completed jobs and their results",
  responses: {
    200: jsonResponse(Clear, "How many jobs were deleted"),
  },
});

export const readJobRoute = oneJobRoute({
  method: "get",
  path: "/jobs/{id}",
  operationId: "getJob",
  summary: "One job",
  responses: {
    200: jsonResponse(Job, "The job"),
  },
});

export const previewRoute = oneJobRoute({
  method: "get",
  path: "/jobs/{id}/preview",
  operationId: "previewJob",
  summary: "A page of processed rows",
  request: {
    query: z.object({
      page: wholeNumberQuery("Page from 1 to totalPages (default 1)"),
      limit: wholeNumberQuery("Rows per page, 1 to 100 (default 10)"),
      network_type: z.any().openapi({
        type: "string",
        enum: [...NETWORK_TYPES, "unknown"],
        description: "Only rows of this network type",
      }),
      status: z.any().openapi({
        type: "string",
        enum: [...PREVIEW_STATUSES],
        description: "Only rows in the download (kept, failed rows " +
          "included), only rows left out (filtered), or only failed rows",
      }),
      q: z.any().openapi({
        type: "string",
        description: "Only rows whose company or ASN contains this text",
      }),
    }),
  },
  responses: {
    200: jsonResponse(Preview, "The page"),
    400: errorResponse("Bad id or filter, or a page outside 1..totalPages"),
  },
});

export const summaryRoute = oneJobRoute({
  method: "get",
  path: "/jobs/{id}/summary",
  operationId: "getJobSummary",
  summary: "Counts of a job's rows: network types, top companies, ...",
  description: "Over the rows stored so far: works while a job runs.",
  responses: {
    200: jsonResponse(JobSummarySchema, "The summary"),
  },
});

export const recentResultsRoute = oneJobRoute({
  method: "get",
  path: "/jobs/{id}/recent-results",
  operationId: "getRecentResults",
  summary: "Rows processed since an index (live feed)",
  request: {
    query: z.object({
      since: wholeNumberQuery("First row index (default 0)"),
      limit: wholeNumberQuery("At most this many rows, 1 to 1000 (default 50)"),
      getLatest: z.any().openapi({
        type: "string",
        enum: ["true", "false"],
        description: "true: the last `limit` rows instead",
      }),
    }),
  },
  responses: {
    200: jsonResponse(RecentResults, "Rows and the next index to ask for"),
    400: errorResponse("Bad id, since or limit"),
  },
});

export const downloadRoute = oneJobRoute({
  method: "get",
  path: "/jobs/{id}/download",
  operationId: "downloadJob",
  summary: "Download the enriched file (consumer ISP rows left out)",
  description: "Works while a job runs too (the rows processed so far).",
  request: {
    query: z.object({
      format: z.any().openapi({
        type: "string",
        enum: ["csv", "xlsx"],
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
    400: errorResponse("Bad id, or an unknown format"),
    422: errorResponse(
      "xlsx asked for results with more columns than a sheet holds (16,384)",
    ),
  },
});

export const cancelRoute = oneJobRoute({
  method: "post",
  path: "/jobs/{id}/cancel",
  operationId: "cancelJob",
  summary: "Cancel a pending or processing job",
  responses: {
    200: jsonResponse(Message, "Cancelled"),
    409: errorResponse("The job is not pending or processing"),
  },
});

export const restartRoute = oneJobRoute({
  method: "post",
  path: "/jobs/{id}/restart",
  operationId: "restartJob",
  summary:
    "Restart a failed job: its done chunks are kept, the others run again",
  responses: {
    200: jsonResponse(Message, "Restarted"),
    409: errorResponse("The job has not failed"),
  },
});
