// Small HTTP client for tests: the calls a user's browser or script makes,
// as one visitor (the session cookie is kept between calls: cookie_jar.ts).
// @ts-types="npm:@types/papaparse@^5.3"
import Papa from "papaparse";
import type { Job, UploadResult } from "../../shared/wire.ts";
import { sniffDialect } from "../../server/csv/dialect.ts";
import { LineScanner } from "../../server/csv/line_scanner.ts";
import { sessionFetch } from "./cookie_jar.ts";
import type { RunningServer } from "./server.ts";

export async function upload(
  server: Pick<RunningServer, "url">,
  name: string,
  content: string | Uint8Array,
): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([content as BlobPart]), name);
  return await sessionFetch(`${server.url}/api/upload`, {
    method: "POST",
    body: form,
  });
}

export async function uploadOk(
  server: Pick<RunningServer, "url">,
  name: string,
  content: string,
): Promise<UploadResult> {
  const response = await upload(server, name, content);
  if (response.status !== 201) {
    throw new Error(`upload: ${response.status} ${await response.text()}`);
  }
  return await response.json();
}

export interface JobOptions {
  includeGeolocation?: number;
  includeDomain?: number;
  includeCompany?: number;
  includeNetwork?: number;
  resolveHostnames?: number;
  /** Registration data over RDAP (the server must have RDAP=on). */
  includeRegistration?: number;
  /** AS numbers or CIDRs kept even when filtered. */
  alwaysKeep?: string;
  /** Rows the classifier is unsure of: "keep" (default) or "filter". */
  lowConfidence?: string;
}

export async function startJob(
  server: Pick<RunningServer, "url">,
  uploaded: UploadResult,
  ipColumnName: string,
  options: JobOptions = {},
): Promise<Job> {
  const response = await postJson(server, "/api/enrich", {
    fileName: uploaded.fileName,
    originalFileName: uploaded.originalFileName,
    totalIPs: 0,
    status: "pending",
    ipColumnName,
    includeGeolocation: 1,
    includeDomain: 0,
    includeCompany: 1,
    includeNetwork: 1,
    ...options,
  });
  if (response.status !== 201) {
    throw new Error(`enrich: ${response.status} ${await response.text()}`);
  }
  return await response.json();
}

/** Uploads `content` as `name` and starts a job on `ipColumnName`. */
export async function uploadAndStart(
  server: Pick<RunningServer, "url">,
  name: string,
  content: string,
  ipColumnName: string,
  options: JobOptions = {},
): Promise<Job> {
  const uploaded = await uploadOk(server, name, content);
  return await startJob(server, uploaded, ipColumnName, options);
}

export function postJson(
  server: Pick<RunningServer, "url">,
  path: string,
  body: unknown,
  method = "POST",
): Promise<Response> {
  return sessionFetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export async function getJson<T = unknown>(
  server: Pick<RunningServer, "url">,
  path: string,
): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await sessionFetch(`${server.url}${path}`);
  return {
    status: response.status,
    body: await response.json(),
    headers: response.headers,
  };
}

export async function getJob(
  server: Pick<RunningServer, "url">,
  id: number,
): Promise<Job> {
  const { status, body } = await getJson<Job>(server, `/api/jobs/${id}`);
  if (status !== 200) throw new Error(`job ${id}: ${status}`);
  return body;
}

/** Polls until the job satisfies `done` (default: reached an end state). */
export async function waitForJob(
  server: Pick<RunningServer, "url">,
  id: number,
  done: (job: Job) => boolean = (job) =>
    ["completed", "failed", "cancelled"].includes(job.status),
  timeoutMs = 60_000,
  intervalMs = 50,
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(server, id);
    if (done(job)) return job;
    if (Date.now() > deadline) {
      throw new Error(`job ${id} timed out: ${JSON.stringify(job)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A job's download; an answer other than 200 throws. */
async function download(
  server: Pick<RunningServer, "url">,
  id: number,
): Promise<Response> {
  const response = await sessionFetch(`${server.url}/api/jobs/${id}/download`);
  if (response.status !== 200) {
    throw new Error(`download: ${response.status} ${await response.text()}`);
  }
  return response;
}

export async function downloadText(
  server: Pick<RunningServer, "url">,
  id: number,
): Promise<string> {
  return await (await download(server, id)).text();
}

/**
 * The records of a job's download, read in the dialect the server found in
 * `uploaded` (the bytes sent; a UTF-16 upload's download, stored as UTF-8,
 * in the dialect of its own bytes).
 */
export async function downloadRecords(
  server: Pick<RunningServer, "url">,
  id: number,
  uploaded?: Uint8Array,
): Promise<string[][]> {
  const response = await download(server, id);
  const withoutBom = (bytes: Uint8Array) =>
    bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
      ? bytes.subarray(3)
      : bytes;
  const bytes = withoutBom(new Uint8Array(await response.arrayBuffer()));
  const utf16 = uploaded && (uploaded[0] === 0xff || uploaded[0] === 0xfe);
  const like = uploaded && !utf16 ? withoutBom(uploaded) : bytes;
  const scanner = new LineScanner(
    sniffDialect(like.subarray(0, 65536), like.length <= 65536, false),
  );
  const records: string[][] = [];
  scanner.scan(bytes, 0, true, () => records.push(scanner.cells()));
  return records;
}

export function parseCsv(text: string): string[][] {
  return Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
}

/** Rows of a CSV as objects keyed by the header. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((row) =>
    Object.fromEntries(header.map((name, i) => [name, row[i]]))
  );
}

/** A job run to completion: the job as it ended and its download's rows. */
export interface CompletedJob {
  job: Job;
  records: Record<string, string>[];
  /** The rows by their "n" cell, as the tests' files number them. */
  byN: Record<string, Record<string, string>>;
}

/**
 * Uploads `content` as `name`, runs a job on `ipColumnName` and reads its
 * download; a job that ends other than completed throws.
 */
export async function completedJob(
  ...start: Parameters<typeof uploadAndStart>
): Promise<CompletedJob> {
  const [server] = start;
  const { id } = await uploadAndStart(...start);
  const job = await waitForJob(server, id);
  if (job.status !== "completed") {
    throw new Error(`job ${id} ended ${job.status}: ${JSON.stringify(job)}`);
  }
  const records = csvRecords(await downloadText(server, id));
  return {
    job,
    records,
    byN: Object.fromEntries(records.map((r) => [r.n, r])),
  };
}

/** Polls until a job has processed `rows` rows or has ended. */
export function waitForRows(
  server: Pick<RunningServer, "url">,
  id: number,
  rows: number,
  timeoutMs = 120_000,
): Promise<Job> {
  return waitForJob(
    server,
    id,
    (j) =>
      j.processedIPs >= rows ||
      j.status !== "processing" && j.status !== "pending",
    timeoutMs,
    10,
  );
}
