// Job routes: create, list, read, preview, live feed, download, cancel,
// restart, clear. Declared in job_routes.ts.
import type { Context } from "hono";
import { unlink } from "node:fs/promises";
import { join } from "node:path";
import { canSee, canUseUpload, listingOwner } from "../access/ownership.ts";
import type { AppDeps } from "../deps.ts";
import {
  ApiError,
  badRequest,
  conflict,
  intParam,
  notFound,
  parseJobId,
} from "../http_error.ts";
import { REGISTRATION_OFF } from "./registration_option.ts";
import { parseKeepList } from "../classification/overrides.ts";
import { csvDownload } from "../jobs/download.ts";
import { xlsxDownload, xlsxRefusal } from "../jobs/download_xlsx.ts";
import { toWireJob } from "../storage/job_rows.ts";
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
  summaryRoute,
} from "./job_routes.ts";
import { previewPage } from "./job_summary.ts";
import { toResultRow } from "./result_views.ts";

// Server-made upload names only: no path parts, no client names.
const SERVER_MADE_UPLOAD_NAME = /^[0-9a-f-]{36}\.csv$/;

const UPLOAD_NOT_FOUND =
  "That upload was not found; it may have expired. Upload the file again";

export function jobRoutes(
  { config, store, runner, blobs, results, access, engine }: Pick<
    AppDeps,
    "config" | "store" | "runner" | "blobs" | "results" | "access" | "engine"
  >,
) {
  const app = apiRouter();
  const uploadsDir = join(config.dataDir, "uploads");
  const { visibility } = access;

  /**
   * The job of the path's id, for every job route: a job the caller's
   * session may not see is answered exactly like one that does not exist.
   */
  const jobOr404 = async (c: Context) => {
    const id = parseJobId(c.req.param("id") ?? "");
    const job = await store.getJob(id);
    if (!job || !canSee(job.owner, c.get("sessionId"), visibility)) {
      throw notFound(`Job ${id} not found`);
    }
    return job;
  };

  app.openapi(enrichRoute, async (c) => {
    const body = c.req.valid("json");
    if (!SERVER_MADE_UPLOAD_NAME.test(body.fileName)) {
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
    if (body.includeRegistration && !config.rdap.enabled) {
      throw badRequest(REGISTRATION_OFF);
    }
    const upload = await store.getUpload(body.fileName);
    const sessionId = c.get("sessionId");
    if (!upload || !canUseUpload(upload.owner, sessionId, visibility)) {
      throw notFound(UPLOAD_NOT_FOUND);
    }
    const ipColumnIndex = upload.headers.indexOf(body.ipColumnName);
    if (ipColumnIndex < 0) {
      throw badRequest(
        `The column "${body.ipColumnName}" is not in the file's header row`,
        "Configuration error",
      );
    }
    const job = await store.createJob({
      fileName: upload.fileName,
      originalFileName: upload.originalFileName,
      ipColumnName: body.ipColumnName,
      ipColumnIndex,
      headers: upload.headers,
      dialect: upload.dialect,
      totalIPs: upload.rowCount,
      options: {
        geolocation: body.includeGeolocation,
        domain: body.includeDomain,
        company: body.includeCompany,
        network: body.includeNetwork,
        resolveHostnames: body.resolveHostnames,
        registration: body.includeRegistration,
        lowConfidence: body.lowConfidence,
      },
      alwaysKeep,
      owner: sessionId,
      dataVersion: engine.data.version,
    });
    await runner.enqueue(job.id);
    return c.json(toWireJob(job), 201);
  });

  app.openapi(listJobsRoute, async (c) => {
    const owner = listingOwner(c.get("sessionId"), visibility);
    return c.json((await store.listJobs(owner)).map(toWireJob), 200);
  });

  app.openapi(clearCompletedRoute, async (c) => {
    const owner = listingOwner(c.get("sessionId"), visibility);
    const jobs = await store.deleteJobs("completed", owner);
    for (const job of jobs) await results.deleteJob(job.id);
    for (const fileName of new Set(jobs.map((j) => j.fileName))) {
      if (!(await store.uploadInUse(fileName))) {
        await store.deleteUpload(fileName);
        await unlink(join(uploadsDir, fileName)).catch(() => {});
        await blobs?.delete(fileName);
      }
    }
    return c.json({ cleared: jobs.length }, 200);
  });

  app.openapi(
    readJobRoute,
    async (c) => c.json(toWireJob(await jobOr404(c)), 200),
  );

  app.openapi(previewRoute, async (c) => {
    const job = await jobOr404(c);
    const limit = intParam(c.req.query("limit"), "limit", 10, 1, 100);
    const page = intParam(c.req.query("page"), "page", 1, -1e15, 1e15);
    const query = new URL(c.req.url).searchParams;
    return c.json(await previewPage(results, job, query, page, limit), 200);
  });

  app.openapi(
    summaryRoute,
    async (c) => c.json(await results.summary(await jobOr404(c)), 200),
  );

  app.openapi(recentResultsRoute, async (c) => {
    const job = await jobOr404(c);
    const limit = intParam(c.req.query("limit"), "limit", 50, 1, 1000);
    const since = intParam(c.req.query("since"), "since", 0, 0, 1e15);
    const latest = c.req.query("getLatest") === "true";
    const end = await results.storedEnd(job);
    const from = latest ? Math.max(0, end - limit) : Math.min(since, end);
    const rows = await results.between(job, from, Math.min(from + limit, end));
    return c.json({
      results: rows.map((row) => toResultRow(row, job.headers)),
      nextIndex: rows.length > 0 ? rows[rows.length - 1].rowIndex + 1 : from,
    }, 200);
  });

  app.openapi(downloadRoute, async (c) => {
    const job = await jobOr404(c);
    const format = c.req.query("format") ?? "csv";
    if (format === "xlsx") {
      const refusal = xlsxRefusal(job);
      if (refusal) throw new ApiError(422, refusal, "Too many columns");
      return xlsxDownload(results, job, await results.summary(job));
    }
    if (format !== "csv") {
      throw badRequest(`Unknown download format "${format}": use csv or xlsx`);
    }
    return await csvDownload(results, job);
  });

  app.openapi(cancelRoute, async (c) => {
    const job = await jobOr404(c);
    if (!(await runner.cancel(job.id))) {
      throw conflict(
        `Only pending or processing jobs can be cancelled; this job is ${job.status}`,
      );
    }
    return c.json({ message: "The job has been canceled successfully." }, 200);
  });

  app.openapi(restartRoute, async (c) => {
    const job = await jobOr404(c);
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
