// The one API client of the web app: fetch helpers, the query client with the
// defaults of SPEC.md section 7, and a hook per resource. Query keys are
// arrays that start with the URL ("/api/jobs", then the job id, ...).

import {
  QueryClient,
  type QueryFunction,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type {
  ClearResponse,
  ClientMessage,
  EnrichRequest,
  Job,
  JobStatus,
  LookupResponse,
  MessageResponse,
  PreviewResponse,
  PublicConfig,
  RecentResultsResponse,
  ResultRow,
  ServerMessage,
  UploadResult,
} from "../../../shared/wire.ts";

/** Shown instead of the browser's "Failed to fetch" when the server is down. */
export const NETWORK_ERROR_MESSAGE =
  "Cannot reach the server. Check that the service is running and your connection works, then try again.";

/** An error with the HTTP status (0 when the server could not be reached). */
export class ApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = "ApiError";
  }
}

/** Upload limit used until GET /api/config answers (SPEC.md: 10MB). */
export const DEFAULT_MAX_UPLOAD_MB = 10;

/** Job states after which nothing changes any more. */
export const FINAL_STATUSES: readonly JobStatus[] = [
  "completed",
  "failed",
  "cancelled",
];

export function isFinal(status: string | undefined): boolean {
  return FINAL_STATUSES.includes(status as JobStatus);
}

async function send(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { credentials: "include", ...init });
  } catch {
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
  }
}

/** The body of an error answer: the `message` of a JSON body, else the text. */
async function errorText(res: Response): Promise<string> {
  const text = (await res.text().catch(() => "")).trim();
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed.message === "string") return parsed.message;
  } catch { /* not JSON */ }
  return text;
}

/** SPEC.md section 8: "{status}: {body}", or the status text for no body. */
async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await errorText(res);
  throw new ApiError(`${res.status}: ${text || res.statusText}`, res.status);
}

/** A GET whose error reads "{prefix}: {status} {text}" (SPEC.md section 8). */
async function getJson<T>(url: string, prefix: string): Promise<T> {
  const res = await send(url);
  if (!res.ok) {
    const text = await errorText(res);
    throw new ApiError(
      `${prefix}: ${res.status} ${text || res.statusText}`,
      res.status,
    );
  }
  return await res.json() as T;
}

/** A request with an optional JSON body; non-OK answers throw. */
export async function apiRequest<T>(
  method: string,
  url: string,
  data?: unknown,
): Promise<T> {
  const res = await send(url, {
    method,
    headers: data === undefined ? {} : { "Content-Type": "application/json" },
    body: data === undefined ? undefined : JSON.stringify(data),
  });
  await throwIfNotOk(res);
  return await res.json() as T;
}

/** Default query function: GET the first element of the query key. */
export function getQueryFn<T>(
  options: { on401: "throw" | "returnNull" } = { on401: "throw" },
): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const res = await send(String(queryKey[0]));
    if (options.on401 === "returnNull" && res.status === 401) return null;
    await throwIfNotOk(res);
    return await res.json() as T;
  };
}

/** Defaults of SPEC.md section 7: no refetching, never stale, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

export const jobsKey = ["/api/jobs"] as const;
export const jobKey = (id: number) => ["/api/jobs", id] as const;

export function downloadUrl(id: number, format?: "xlsx"): string {
  return `/api/jobs/${id}/download${format ? `?format=${format}` : ""}`;
}

// ---- config ----

export function useServerConfig() {
  return useQuery<PublicConfig>({ queryKey: ["/api/config"] });
}

/** The upload limit in MB: the server's setting once known. */
export function useMaxUploadMb(): { maxUploadMb: number; known: boolean } {
  const { data } = useServerConfig();
  return data && data.maxUploadMb > 0
    ? { maxUploadMb: data.maxUploadMb, known: true }
    : { maxUploadMb: DEFAULT_MAX_UPLOAD_MB, known: false };
}

// ---- upload and job creation ----

export async function uploadFile(file: File): Promise<UploadResult> {
  const body = new FormData();
  body.append("file", file);
  const res = await send("/api/upload", { method: "POST", body });
  if (!res.ok) {
    const text = await errorText(res);
    throw new ApiError(
      `Upload failed: ${res.status} ${text || res.statusText}`,
      res.status,
    );
  }
  return await res.json() as UploadResult;
}

export function useUploadFile() {
  return useMutation({ mutationFn: uploadFile });
}

export interface EnrichOptions {
  upload: UploadResult;
  ipColumnName: string;
  includeGeolocation: boolean;
  includeDomain: boolean;
  includeCompany: boolean;
  includeNetwork: boolean;
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
      };
      return apiRequest<Job>("POST", "/api/enrich", body);
    },
    onSuccess: (job) => {
      queryClient.setQueryData(jobKey(job.id), job);
      return queryClient.invalidateQueries({ queryKey: jobsKey });
    },
  });
}

// ---- jobs ----

export function useJobs() {
  return useQuery<Job[]>({
    queryKey: jobsKey,
    queryFn: () => getJson<Job[]>("/api/jobs", "Failed to list jobs"),
    refetchInterval: 5000,
    staleTime: 30_000,
    retry: 2,
  });
}

/**
 * One job. `pollMs` polls while the job is not finished (2 s in the live
 * view, 5 s on Home with jobId); polling stops once the job is final.
 */
export function useJob(id: number | null, pollMs: number | false = false) {
  return useQuery<Job>({
    queryKey: jobKey(id ?? -1),
    queryFn: () => getJson<Job>(`/api/jobs/${id}`, "Failed to get job status"),
    enabled: id !== null,
    refetchInterval: (query) =>
      pollMs && !isFinal(query.state.data?.status) ? pollMs : false,
  });
}

export function useJobPreview(id: number, page: number, limit = 10) {
  return useQuery<PreviewResponse>({
    queryKey: ["/api/jobs", id, "preview", { page, limit }],
    queryFn: () =>
      getJson<PreviewResponse>(
        `/api/jobs/${id}/preview?page=${page}&limit=${limit}`,
        "Failed to get results preview",
      ),
    retry: 3,
    placeholderData: (previous) => previous,
  });
}

export function fetchRecentResults(
  id: number,
  since = 0,
  limit = 50,
  getLatest = false,
): Promise<RecentResultsResponse> {
  const query = `since=${since}&limit=${limit}${
    getLatest ? "&getLatest=true" : ""
  }`;
  return getJson<RecentResultsResponse>(
    `/api/jobs/${id}/recent-results?${query}`,
    "Failed to get recent results",
  );
}

/** How many live results the processing view keeps and asks for. */
export const LIVE_RESULTS_LIMIT = 100;

/**
 * The live feed: the latest 100 results first, then every 2 s what came
 * since, keeping the last 100. Failed fetches are only logged.
 */
export function useLiveResults(jobId: number, polling: boolean): ResultRow[] {
  const [rows, setRows] = useState<ResultRow[]>([]);
  const next = useRef<number | null>(null);
  const busy = useRef(false);
  const wasPolling = useRef(polling);

  const tick = useRef<() => Promise<void>>(async () => {});
  tick.current = async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      const first = next.current === null;
      const answer = await fetchRecentResults(
        jobId,
        next.current ?? 0,
        LIVE_RESULTS_LIMIT,
        first,
      );
      next.current = answer.nextIndex;
      if (answer.results.length) {
        setRows((old) =>
          (first ? answer.results : [...old, ...answer.results]).slice(
            -LIVE_RESULTS_LIMIT,
          )
        );
      }
    } catch (error) {
      console.error(error);
    } finally {
      busy.current = false;
    }
  };

  useEffect(() => {
    next.current = null;
    setRows([]);
    tick.current();
  }, [jobId]);

  useEffect(() => {
    if (!polling) {
      // One last fetch picks up the rows written just before the end.
      if (wasPolling.current) tick.current();
      wasPolling.current = false;
      return;
    }
    wasPolling.current = true;
    const timer = setInterval(() => tick.current(), 2000);
    return () => clearInterval(timer);
  }, [jobId, polling]);

  return rows;
}

function useJobAction<T>(path: (id: number) => string, method: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<T>(method, path(id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: jobsKey }),
  });
}

export function useCancelJob() {
  return useJobAction<MessageResponse>(
    (id) => `/api/jobs/${id}/cancel`,
    "POST",
  );
}

export function useRestartJob() {
  return useJobAction<MessageResponse>(
    (id) => `/api/jobs/${id}/restart`,
    "POST",
  );
}

export function useClearCompletedJobs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<ClearResponse>("DELETE", "/api/jobs/completed"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: jobsKey }),
  });
}

// ---- live socket ----

/**
 * Subscribes to a job's updates on /ws while `enabled`; every jobUpdate
 * replaces the cached job. Returns whether the socket is connected. The
 * socket reconnects after a drop; unparsable messages are only logged.
 */
export function useJobUpdates(jobId: number, enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!enabled || typeof WebSocket === "undefined") return;
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const sendMessage = (message: ClientMessage) => {
      if (socket?.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify(message));
      }
    };
    const connect = () => {
      const protocol = location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(`${protocol}//${location.host}/ws`);
      socket.onopen = () => {
        setConnected(true);
        sendMessage({ type: "subscribe", jobId });
      };
      socket.onmessage = (event) => {
        let message: ServerMessage;
        try {
          message = JSON.parse(String(event.data));
        } catch (error) {
          console.error("Could not parse live update", error);
          return;
        }
        if (message.type === "jobUpdate" && message.jobId === jobId) {
          queryClient.setQueryData(jobKey(jobId), message.data.job);
        }
      };
      socket.onclose = () => {
        setConnected(false);
        if (!closed) retry = setTimeout(connect, 3000);
      };
      socket.onerror = () => socket?.close();
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(retry);
      sendMessage({ type: "unsubscribe", jobId });
      socket?.close();
      setConnected(false);
    };
  }, [jobId, enabled, queryClient]);

  return connected;
}

// ---- single lookup ----

export function useLookup() {
  return useMutation({
    mutationFn: (ip: string) =>
      apiRequest<LookupResponse>(
        "GET",
        `/api/lookup?ip=${encodeURIComponent(ip)}`,
      ),
  });
}

/** The message of anything thrown, with a fallback. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
