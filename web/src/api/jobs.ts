// Hooks for enrichment jobs: read one or all, start, cancel, restart, clear.
// Each mutation names its toasts in `meta` (query_client.ts shows them); the
// cancel toasts are worded by the caller, as they differ between pages.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  ClearResponse,
  EnrichRequest,
  Job,
  JobStatus,
  LowConfidence,
  MessageResponse,
  UploadResult,
} from "../../../shared/wire.ts";
import { apiRequest, messageOf } from "./http.ts";
import {
  jobPreviewQuery,
  jobQuery,
  jobsQuery,
  type PreviewFilters,
} from "./queries.ts";
import type { ToastInput } from "../lib/toast.ts";
import type { MutationToasts } from "./query_client.ts";

/** Job states after which nothing changes any more. */
export const FINAL_STATUSES: readonly JobStatus[] = [
  "completed",
  "failed",
  "cancelled",
];

export function isFinal(status: string | undefined): boolean {
  return FINAL_STATUSES.includes(status as JobStatus);
}

export function downloadUrl(id: number, format?: "xlsx"): string {
  return `/api/jobs/${id}/download${format ? `?format=${format}` : ""}`;
}

export function useJobs() {
  return useQuery(jobsQuery());
}

/**
 * One job. `pollMs` polls while the job is not finished (2 s in the live
 * view, 5 s on Home with jobId); polling stops once the job is final.
 */
export function useJob(id: number | null, pollMs: number | false = false) {
  return useQuery({
    ...jobQuery(id ?? -1),
    enabled: id !== null,
    refetchInterval: (query) =>
      pollMs && !isFinal(query.state.data?.status) ? pollMs : false,
  });
}

export function useJobPreview(
  id: number,
  page: number,
  limit = 10,
  filters: PreviewFilters = {},
) {
  return useQuery({
    ...jobPreviewQuery(id, page, limit, filters),
    // A results page opened before its job ended follows it to the end.
    refetchInterval: (query) =>
      query.state.data && !isFinal(query.state.data.job.status)
        ? UNFINISHED_PREVIEW_POLL_MS
        : false,
  });
}

const UNFINISHED_PREVIEW_POLL_MS = 2000;

export interface EnrichOptions {
  upload: UploadResult;
  ipColumnName: string;
  includeGeolocation: boolean;
  includeDomain: boolean;
  includeCompany: boolean;
  includeNetwork: boolean;
  /** Resolve host names in the IP column (A, then AAAA). */
  resolveHostnames: boolean;
  /** Registration data over RDAP (only offered when the server has it on). */
  includeRegistration?: boolean;
  /** Rows the classifier is unsure of: kept (default) or filtered. */
  lowConfidence?: LowConfidence;
  /** AS numbers or CIDRs to keep even when filtered ("" for none). */
  alwaysKeep: string;
}

const START_TOASTS: MutationToasts<Job> = {
  successToast: {
    title: "Processing started",
    description: "Your file is being processed",
  },
  errorToast: (error) => ({
    title: "Failed to start processing",
    description: messageOf(
      error,
      "There was an error starting the enrichment job",
    ),
    variant: "destructive",
  }),
};

const RESTART_TOASTS: MutationToasts<MessageResponse> = {
  successToast: (answer) => ({
    title: "Job Restarted",
    description: answer.message,
  }),
  errorToast: (error) => failedToast("Failed to restart job", error),
};

const CLEAR_TOASTS: MutationToasts<ClearResponse> = {
  successToast: (answer) => ({
    title: "Jobs Cleared",
    description: `Successfully cleared ${answer.cleared} completed job(s)`,
  }),
  errorToast: (error) => failedToast("Failed to clear jobs", error),
};

/** The "Error" toast of the job actions: "{what}: {message}". */
export function failedToast(what: string, error: Error): ToastInput {
  return {
    title: "Error",
    description: `${what}: ${messageOf(error, "Unknown error")}`,
    variant: "destructive",
  };
}

export function useStartEnrichment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (options: EnrichOptions) => {
      const body: EnrichRequest = {
        fileName: options.upload.fileName,
        originalFileName: options.upload.originalFileName,
        totalIPs: 0,
        status: "pending",
        ipColumnName: options.ipColumnName,
        includeGeolocation: options.includeGeolocation ? 1 : 0,
        includeDomain: options.includeDomain ? 1 : 0,
        includeCompany: options.includeCompany ? 1 : 0,
        includeNetwork: options.includeNetwork ? 1 : 0,
        resolveHostnames: options.resolveHostnames ? 1 : 0,
      };
      if (options.includeRegistration) body.includeRegistration = 1;
      if (options.alwaysKeep.trim()) body.alwaysKeep = options.alwaysKeep;
      if (options.lowConfidence) body.lowConfidence = options.lowConfidence;
      return apiRequest<Job>("POST", "/api/enrich", body);
    },
    meta: START_TOASTS,
    onSuccess: (job) => {
      queryClient.setQueryData(jobQuery(job.id).queryKey, job);
      return queryClient.invalidateQueries({ queryKey: jobsQuery().queryKey });
    },
  });
}

/** A POST to a job's `action` route; the job list is refetched after. */
function useJobAction(
  action: "cancel" | "restart",
  toasts: MutationToasts<MessageResponse>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest<MessageResponse>("POST", `/api/jobs/${id}/${action}`),
    meta: toasts,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: jobsQuery().queryKey }),
  });
}

export function useCancelJob(toasts: MutationToasts<MessageResponse>) {
  return useJobAction("cancel", toasts);
}

export function useRestartJob() {
  return useJobAction("restart", RESTART_TOASTS);
}

export function useClearCompletedJobs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<ClearResponse>("DELETE", "/api/jobs/completed"),
    meta: CLEAR_TOASTS,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: jobsQuery().queryKey }),
  });
}
