// Job routes of SPEC.md section 7: create, list, read, preview, live feed,
// download, cancel, restart, clear.
import { Hono } from "hono";
import { unlink } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type {
  ClearResponse,
  MessageResponse,
  PreviewResponse,
  RecentResultsResponse,
} from "../../shared/wire.ts";
import type { AppDeps } from "../app.ts";
import {
  badRequest,
  conflict,
  intParam,
  notFound,
  parseJobId,
} from "../http_error.ts";
import { parseKeepList } from "../classification/overrides.ts";
import { csvDownload } from "../jobs/download.ts";
import { xlsxDownload } from "../jobs/download_xlsx.ts";
import { toWireJob } from "../storage/store.ts";
import { toPreviewRow, toResultRow } from "./result_views.ts";
import { readJsonBody } from "./json_body.ts";

const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform(
  Boolean,
).default(true);

const EnrichBody = z.object({
  fileName: z.string().min(1).max(200),
  originalFileName: z.string().max(255).optional(),
  ipColumnName: z.string({
    required_error: "Please select the column containing IP addresses",
  }).min(1, "Please select the column containing IP addresses"),
  includeGeolocation: flag,
  includeDomain: flag,
  includeCompany: flag,
  includeNetwork: flag,
  alwaysKeep: z.string().max(100_000).optional(),
}).passthrough();

// Server-made upload names only: no path parts, no client names.
const UPLOAD_NAME = /^[0-9a-f-]{36}\.csv$/;

export function jobRoutes({ config, store, runner }: AppDeps) {
  const app = new Hono();
  const uploadsDir = join(config.dataDir, "uploads");

  const jobOr404 = (raw: string) => {
    const id = parseJobId(raw);
    const job = store.getJob(id);
    if (!job) throw notFound(`Job ${id} not found`);
    return job;
  };

  app.post("/enrich", async (c) => {
    const body = EnrichBody.parse(await readJsonBody(c.req.raw));
    if (!UPLOAD_NAME.test(body.fileName)) {
      throw badRequest(
        "fileName must be the name returned by /api/upload, without any path",
      );
    }
    const alwaysKeep = body.alwaysKeep?.trim() || null;
    try {
      if (alwaysKeep) parseKeepList(alwaysKeep);
    } catch (error) {
      throw badRequest(`Always keep: ${(error as Error).message}`);
    }
    const upload = store.getUpload(body.fileName);
    if (!upload) {
      throw notFound(
        "That upload was not found; it may have expired. Upload the file again",
      );
    }
    const ipColumnIndex = upload.headers.indexOf(body.ipColumnName);
    if (ipColumnIndex < 0) {
      throw badRequest(
        `The column "${body.ipColumnName}" is not in the file's header row`,
        "Configuration error",
      );
    }
    const job = store.createJob({
      fileName: upload.fileName,
      originalFileName: upload.originalFileName,
      ipColumnName: body.ipColumnName,
      ipColumnIndex,
      headers: upload.headers,
      delimiter: upload.delimiter,
      totalIPs: upload.rowCount,
      options: {
        geolocation: body.includeGeolocation,
        domain: body.includeDomain,
        company: body.includeCompany,
        network: body.includeNetwork,
      },
      alwaysKeep,
    });
    await runner.enqueue();
    return c.json(toWireJob(job), 201);
  });

  app.get("/jobs", (c) => c.json(store.listJobs().map(toWireJob)));

  app.delete("/jobs/completed", async (c) => {
    const jobs = store.deleteJobs("completed");
    for (const fileName of new Set(jobs.map((j) => j.fileName))) {
      if (!store.uploadInUse(fileName)) {
        store.deleteUpload(fileName);
        await unlink(join(uploadsDir, fileName)).catch(() => {});
      }
    }
    return c.json({ cleared: jobs.length } satisfies ClearResponse);
  });

  app.get("/jobs/:id", (c) => c.json(toWireJob(jobOr404(c.req.param("id")))));

  app.get("/jobs/:id/preview", (c) => {
    const job = jobOr404(c.req.param("id"));
    const limit = intParam(c.req.query("limit"), "limit", 10, 1, 100);
    const totalResults = job.processedIPs;
    const totalPages = Math.max(1, Math.ceil(totalResults / limit));
    const page = intParam(c.req.query("page"), "page", 1, -1e15, 1e15);
    if (page < 1 || page > totalPages) {
      throw badRequest(
        `Page ${page} does not exist: choose a page from 1 to ${totalPages}`,
      );
    }
    const from = (page - 1) * limit;
    const rows = store.resultsBetween(job.id, from, from + limit);
    return c.json(
      {
        job: toWireJob(job),
        preview: rows.map(toPreviewRow),
        totalResults,
        totalPages,
        currentPage: page,
      } satisfies PreviewResponse,
    );
  });

  app.get("/jobs/:id/recent-results", (c) => {
    const job = jobOr404(c.req.param("id"));
    const limit = intParam(c.req.query("limit"), "limit", 50, 1, 1000);
    const since = intParam(c.req.query("since"), "since", 0, 0, 1e15);
    const latest = c.req.query("getLatest") === "true";
    const end = job.processedIPs;
    const from = latest ? Math.max(0, end - limit) : Math.min(since, end);
    const rows = store.resultsBetween(
      job.id,
      from,
      Math.min(from + limit, end),
    );
    return c.json(
      {
        results: rows.map((row) => toResultRow(row, job.headers)),
        nextIndex: rows.length > 0 ? rows[rows.length - 1].rowIndex + 1 : from,
      } satisfies RecentResultsResponse,
    );
  });

  app.get("/jobs/:id/download", (c) => {
    const job = jobOr404(c.req.param("id"));
    const format = c.req.query("format") ?? "csv";
    if (format === "xlsx") return xlsxDownload(store, job);
    if (format !== "csv") {
      throw badRequest(`Unknown download format "${format}": use csv or xlsx`);
    }
    return csvDownload(store, job);
  });

  app.post("/jobs/:id/cancel", (c) => {
    const job = jobOr404(c.req.param("id"));
    if (!runner.cancel(job.id)) {
      throw conflict(
        `Only pending or processing jobs can be cancelled; this job is ${job.status}`,
      );
    }
    return c.json(
      {
        message: "The job has been canceled successfully.",
      } satisfies MessageResponse,
    );
  });

  app.post("/jobs/:id/restart", async (c) => {
    const job = jobOr404(c.req.param("id"));
    if (!(await runner.restart(job.id))) {
      throw conflict(
        `Only failed jobs can be restarted; this job is ${job.status}`,
      );
    }
    return c.json(
      {
        message: `Job restarted; it resumes from row ${job.processedIPs}.`,
      } satisfies MessageResponse,
    );
  });

  return app;
}
