// A job's summary for GET /api/jobs/{id}/summary, and the filtered pages of
// GET /api/jobs/{id}/preview, through whichever store runs: SQLite reads
// the counts each chunk's commits keep, PostgreSQL counts the job's rows.
import type { PreviewResponse } from "../../shared/wire.ts";
import type { JobSummary } from "../../shared/summary.ts";
import { badRequest } from "../http_error.ts";
import { parsePreviewFilter } from "../storage/preview_filters.ts";
import { type JobRecord, toWireJob } from "../storage/job_rows.ts";
import { type StoredResult } from "../storage/result_rows.ts";
import type { JobStore } from "../storage/store_interface.ts";
import { toPreviewRow } from "./result_views.ts";

/** The summary over the rows stored so far. */
export async function jobSummary(
  store: JobStore,
  job: JobRecord,
): Promise<JobSummary> {
  return await store.jobSummary(job);
}

/** One page of the preview, filtered by the query's network_type, status
 * and q; 400 for a value the filter does not know or a page past the end. */
export async function previewPage(
  store: JobStore,
  job: JobRecord,
  query: URLSearchParams,
  page: number,
  limit: number,
): Promise<PreviewResponse> {
  const parsed = parsePreviewFilter(query);
  if ("error" in parsed) throw badRequest(parsed.error);
  const filtered = Object.keys(parsed.filter).length > 0;
  const count = filtered ? null : job.processedIPs;
  const result = filtered
    ? await store.previewRows(job.id, parsed.filter, page, limit)
    : null;
  const totalResults = count ?? result!.total;
  const totalPages = Math.max(1, Math.ceil(totalResults / limit));
  if (page < 1 || page > totalPages) {
    throw badRequest(
      `Page ${page} does not exist: choose a page from 1 to ${totalPages}`,
    );
  }
  const from = (page - 1) * limit;
  const rows: StoredResult[] = result
    ? result.rows
    : await store.resultsBetween(job.id, from, from + limit);
  return {
    job: toWireJob(job),
    preview: rows.map(toPreviewRow),
    totalResults,
    totalPages,
    currentPage: page,
    totalAtLeast: result?.totalAtLeast ?? false,
  };
}
