// Query factories: the key and the fetch of every query, in one place. Keys
// are arrays that start with the URL ("/api/jobs", then the job id, ...), so
// invalidating ["/api/jobs"] reaches every job query.

import { queryOptions } from "@tanstack/react-query";
import type {
  Job,
  PreviewResponse,
  PreviewStatus,
  PublicConfig,
  RecentResultsResponse,
} from "../../../shared/wire.ts";
import { apiRequest, getJson, isNotFound } from "./http.ts";

export function configQuery() {
  return queryOptions({
    queryKey: ["/api/config"] as const,
    queryFn: () => apiRequest<PublicConfig>("GET", "/api/config"),
  });
}

/** Every job; the history page keeps it fresh every 5 s. */
export function jobsQuery() {
  return queryOptions({
    queryKey: ["/api/jobs"] as const,
    queryFn: () => getJson<Job[]>("/api/jobs", "Failed to list jobs"),
    refetchInterval: 5000,
    staleTime: 30_000,
    retry: 2,
  });
}

export function jobQuery(id: number) {
  return queryOptions({
    queryKey: ["/api/jobs", id] as const,
    queryFn: () => getJson<Job>(`/api/jobs/${id}`, "Failed to get job status"),
    retry: retryUnlessNotFound,
  });
}

/** A job that is not there will not appear on asking again. */
function retryUnlessNotFound(failures: number, error: Error): boolean {
  return !isNotFound(error) && failures < 3;
}

/** The preview's filters, applied by the server (empty: every row). */
export interface PreviewFilters {
  /** A network type, or "unknown". */
  networkType?: string;
  status?: PreviewStatus;
  /** Text in the company or the ASN. */
  text?: string;
}

/** The preview's query string: page, limit and the filters that are set. */
export function previewSearch(
  page: number,
  limit: number,
  filters: PreviewFilters,
): string {
  const search = new URLSearchParams({ page: `${page}`, limit: `${limit}` });
  if (filters.networkType) search.set("network_type", filters.networkType);
  if (filters.status) search.set("status", filters.status);
  if (filters.text?.trim()) search.set("q", filters.text.trim());
  return search.toString();
}

/** One page of a job's results; the previous page stays shown while the next loads. */
export function jobPreviewQuery(
  id: number,
  page: number,
  limit: number,
  filters: PreviewFilters = {},
) {
  const search = previewSearch(page, limit, filters);
  return queryOptions({
    // The filters are part of the key: each filtered page is its own query.
    queryKey: ["/api/jobs", id, "preview", search] as const,
    queryFn: () =>
      getJson<PreviewResponse>(
        `/api/jobs/${id}/preview?${search}`,
        "Failed to get results preview",
      ),
    retry: retryUnlessNotFound,
    placeholderData: (previous) => previous,
  });
}

/**
 * Results written since row `since`; `getLatest` asks for the newest `limit`
 * instead. Not cached: the live feed keeps its own window of rows.
 */
export function fetchRecentResults(
  id: number,
  since: number,
  limit: number,
  getLatest: boolean,
): Promise<RecentResultsResponse> {
  const query = `since=${since}&limit=${limit}${
    getLatest ? "&getLatest=true" : ""
  }`;
  return getJson<RecentResultsResponse>(
    `/api/jobs/${id}/recent-results?${query}`,
    "Failed to get recent results",
  );
}
