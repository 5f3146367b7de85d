// The filtered pages of GET /api/jobs/{id}/preview, from the job's stored
// chunks (results/job_results.ts), the same in both modes.
import type { PreviewResponse } from "../../shared/wire.ts";
import { badRequest } from "../http_error.ts";
import type { JobResults } from "../results/job_results.ts";
import { parsePreviewFilter } from "../storage/preview_filters.ts";
import { type JobRecord, toWireJob } from "../storage/job_rows.ts";
import { toPreviewRow } from "./result_views.ts";

/** One page of the preview, filtered by the query's network_type, status
 * and q; 400 for a value the filter does not know or a page past the end. */
export async function previewPage(
  results: JobResults,
  job: JobRecord,
  query: URLSearchParams,
  page: number,
  limit: number,
): Promise<PreviewResponse> {
  const parsed = parsePreviewFilter(query);
  if ("error" in parsed) throw badRequest(parsed.error);
  const pageCount = (total: number) => Math.max(1, Math.ceil(total / limit));
  // A page past the end is refused before any chunk is read.
  const result = page >= 1
    ? await results.preview(job, parsed.filter, page, limit)
    : null;
  const totalResults = result?.total ?? 0;
  const totalPages = pageCount(totalResults);
  if (!result || page > totalPages) {
    throw badRequest(
      `Page ${page} does not exist: choose a page from 1 to ${totalPages}`,
    );
  }
  return {
    job: toWireJob(job),
    preview: result.rows.map(toPreviewRow),
    totalResults,
    totalPages,
    currentPage: page,
    totalAtLeast: result.totalAtLeast,
  };
}
