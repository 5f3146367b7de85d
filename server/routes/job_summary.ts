// A job's summary for GET /api/jobs/{id}/summary, and the filtered pages of
// GET /api/jobs/{id}/preview: both read from the counts and rows the result
// writer stores.
import type { PreviewResponse } from "../../shared/wire.ts";
import type { JobSummary } from "../../shared/summary.ts";
import { badRequest } from "../http_error.ts";
import {
  filteredPage,
  parsePreviewFilter,
} from "../storage/preview_filters.ts";
import { toResult } from "../storage/result_rows.ts";
import {
  type JobRecord,
  type Store,
  type StoredResult,
  toWireJob,
} from "../storage/store.ts";
import { rebuildSummary, summarize } from "../storage/summary_sql.ts";
import { toPreviewRow } from "./result_views.ts";

const RUNNING = new Set(["pending", "processing"]);

/**
 * The summary over the rows stored so far. A job that no longer runs but
 * whose counts lag its rows (cancelled, or stopped by a crash before its
 * writer wrote them) is recounted once from its rows.
 */
export function jobSummary(store: Store, job: JobRecord): JobSummary {
  const summary = summarize(store.db, job.id);
  if (RUNNING.has(job.status) || summary.rows.total === job.processedIPs) {
    return summary;
  }
  store.transaction(() => rebuildSummary(store.db, job.id));
  return summarize(store.db, job.id);
}

/** One page of the preview, filtered by the query's network_type, status
 * and q; 400 for a value the filter does not know or a page past the end. */
export function previewPage(
  store: Store,
  job: JobRecord,
  query: URLSearchParams,
  page: number,
  limit: number,
): PreviewResponse {
  const parsed = parsePreviewFilter(query);
  if ("error" in parsed) throw badRequest(parsed.error);
  const filtered = Object.keys(parsed.filter).length > 0;
  const count = filtered ? null : job.processedIPs;
  const result = filtered
    ? filteredPage(store.db, job.id, parsed.filter, page, limit)
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
    ? result.rows.map(toResult)
    : store.resultsBetween(job.id, from, from + limit);
  return {
    job: toWireJob(job),
    preview: rows.map(toPreviewRow),
    totalResults,
    totalPages,
    currentPage: page,
    totalAtLeast: result?.totalAtLeast ?? false,
  };
}
