// Job routes: create, list, read, preview, live feed, download, cancel,
// restart, clear. Declared in job_routes.ts.
import { unlink } from "node:fs/promises";
import { join } from "node:path";
import type { AppDeps } from "../deps.ts";
import {
  badRequest,
  conflict,
  intParam,
  notFound,
  parseJobId,
} from "../http_error.ts";
import { csvDownload } from "../jobs/download.ts";
import { xlsxDownload } from "../jobs/download_xlsx.ts";
import { toWireJob } from "../storage/store.ts";
import { apiRouter } from "./api_router.ts";
import {
  cancelRoute,
  clearCompletedRoute,
  downloadRoute,
  enrichRoute,
  listJobsRoute,
  previewRoute,
  readJobRoute,
  recentResultsRoute,
  restartRoute,
} from "./job_routes.ts";
import { toPreviewRow, toResultRow } from "./result_views.ts";

// Server-made upload names only: no path parts, no client names.
const SERVER_MADE_UPLOAD_NAME = /^[0-9a-f-]{36}\.csv$/;

export function jobRoutes(
  { config, store, runner }: Pick<AppDeps, "config" | "store" | "runner">,
) {
  const app = apiRouter();
  const uploadsDir = join(config.dataDir, "uploads");

  const jobOr404 = (raw: string) => {
    const id = parseJobId(raw);
    const job = store.getJob(id);
    if (!job) throw notFound(`Job ${id} not found`);
    return job;
  };

  app.openapi(enrichRoute, async (c) => {
    const body = c.req.valid("json");
    if (!SERVER_MADE_UPLOAD_NAME.test(body.fileName)) {
      throw badRequest(
        "fileName must be the name returned by /api/upload, without any path",
      );
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
        resolveHostnames: body.resolveHostnames,
      },
    });
    await runner.enqueue();
    return c.json(toWireJob(job), 201);
  });

  app.openapi(
    listJobsRoute,
    (c) => c.json(store.listJobs().map(toWireJob), 200),
  );

  app.openapi(clearCompletedRoute, async (c) => {
    const jobs = store.deleteJobs("completed");
    for (const fileName of new Set(jobs.map((j) => j.fileName))) {
      if (!store.uploadInUse(fileName)) {
        store.deleteUpload(fileName);
        await unlink(join(uploadsDir, fileName)).catch(() => {});
      }
    }
    return c.json({ cleared: jobs.length }, 200);
  });

  app.openapi(
    readJobRoute,
    (c) => c.json(toWireJob(jobOr404(c.req.param("id"))), 200),
  );

  app.openapi(previewRoute, (c) => {
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
    return c.json({
      job: toWireJob(job),
      preview: rows.map(toPreviewRow),
      totalResults,
      totalPages,
      currentPage: page,
    }, 200);
  });

  app.openapi(recentResultsRoute, (c) => {
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
    return c.json({
      results: rows.map((row) => toResultRow(row, job.headers)),
      nextIndex: rows.length > 0 ? rows[rows.length - 1].rowIndex + 1 : from,
    }, 200);
  });

  app.openapi(downloadRoute, (c) => {
    const job = jobOr404(c.req.param("id"));
    const format = c.req.query("format") ?? "csv";
    if (format === "xlsx") return xlsxDownload(store, job);
    if (format !== "csv") {
      throw badRequest(`Unknown download format "${format}": use csv or xlsx`);
    }
    return csvDownload(store, job);
  });

  app.openapi(cancelRoute, (c) => {
    const job = jobOr404(c.req.param("id"));
    if (!runner.cancel(job.id)) {
      throw conflict(
        `Only pending or processing jobs can be cancelled; this job is ${job.status}`,
      );
    }
    return c.json({ message: "The job has been canceled successfully." }, 200);
  });

  app.openapi(restartRoute, async (c) => {
    const job = jobOr404(c.req.param("id"));
    if (!(await runner.restart(job.id))) {
      throw conflict(
        `Only failed jobs can be restarted; this job is ${job.status}`,
      );
    }
    return c.json(
      { message: `Job restarted; it resumes from row ${job.processedIPs}.` },
      200,
    );
  });

  return app;
}
