// One file through the real server over HTTP: upload, start a job
// (Geolocation, Company and Network on; Domain off), wait through the API
// while timing GET /api/jobs/{id}, download, and check the row count.
import { CookieJar } from "../tests/helpers/cookie_jar.ts";
import { IP_COLUMN } from "./generate.ts";
import type { ServerProcess } from "./server_process.ts";

// The bench is one visitor: jobs belong to the session that made them, so
// its requests send the session cookie back, as a browser does.
const visitor = new CookieJar();

/** fetch() keeping cookies between calls (one visitor). */
export function sessionFetch(
  url: string,
  init: RequestInit = {},
): Promise<Response> {
  return visitor.fetch(url, init);
}

export interface EndToEnd {
  rows: number;
  bytes: number;
  uploadMs: number;
  processMs: number;
  downloadMs: number;
  totalMs: number;
  rowsPerSecond: number;
  downloadedRows: number;
  filteredRows: number;
  failedRows: number;
  /** GET /api/jobs/{id} latencies sampled while the job ran. */
  statusLatency: { count: number; p50: number; p99: number; max: number };
  /** Peak resident memory of the server process (workers included). */
  peakRss: number;
  /** Resident memory after start, before the upload. */
  startRss: number;
  /** Highest resident memory sampled in each phase. */
  phaseRss: { upload: number; process: number; download: number };
  jobId: number;
  /** GET /api/jobs/{id}/preview of the finished job: each query's ms. */
  previewMs: { query: string; ms: number }[];
}

/**
 * Preview pages a user asks of a finished job: the first and the last page,
 * deep pages of each filter, a text search.
 */
export async function previewTimes(
  server: ServerProcess,
  jobId: number,
  rows: number,
): Promise<{ query: string; ms: number }[]> {
  const last = Math.ceil(rows / 50);
  const queries = [
    "page=1",
    `page=${last}`,
    `page=${Math.ceil(last / 2)}`,
    "status=filtered&page=2000",
    "network_type=hosting&page=1000",
    "network_type=business&status=kept&page=3000",
    "q=google&page=1",
    "q=as15169&page=20",
  ];
  const times: { query: string; ms: number }[] = [];
  for (const query of queries) {
    const sent = performance.now();
    const response = await sessionFetch(
      `${server.url}/api/jobs/${jobId}/preview?limit=50&${query}`,
    );
    await response.body?.cancel();
    times.push({ query, ms: performance.now() - sent });
  }
  return times;
}

export interface EndToEndOptions {
  /** Keep the downloaded CSV at this path (to compare outputs). */
  keepDownload?: string;
  /** Pause between status requests, ms. */
  pollMs?: number;
}

interface JobJson {
  id: number;
  status: string;
  totalIPs: number;
  processedIPs: number;
  failedIPs: number;
  filteredIPs: number;
  error: string | null;
}

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`${response.url}: ${response.status} ${text}`);
  }
  return JSON.parse(text) as T;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

export async function upload(
  server: ServerProcess,
  path: string,
): Promise<{ fileName: string; rowCount: number }> {
  const form = new FormData();
  const bytes = await Deno.readFile(path);
  form.append(
    "file",
    new Blob([bytes], { type: "text/csv" }),
    path.split("/").pop(),
  );
  return await json(
    await sessionFetch(`${server.url}/api/upload`, {
      method: "POST",
      body: form,
    }),
  );
}

export async function startJob(
  server: ServerProcess,
  fileName: string,
  includeDomain = false,
): Promise<JobJson> {
  return await json(
    await sessionFetch(`${server.url}/api/enrich`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        fileName,
        ipColumnName: IP_COLUMN,
        includeGeolocation: true,
        includeDomain,
        includeCompany: true,
        includeNetwork: true,
      }),
    }),
  );
}

export async function runEndToEnd(
  server: ServerProcess,
  file: { path: string; rows: number; bytes: number },
  options: EndToEndOptions = {},
): Promise<EndToEnd> {
  await server.resetPeak();
  const startRss = (await server.memory()).rss;
  const phaseRss = { upload: 0, process: 0, download: 0 };
  let phase: keyof typeof phaseRss = "upload";
  const sampler = setInterval(() => {
    server.memory().then(({ rss }) => {
      phaseRss[phase] = Math.max(phaseRss[phase], rss);
    }).catch(() => {});
  }, 100);
  try {
    return await measure();
  } finally {
    clearInterval(sampler);
  }

  async function measure(): Promise<EndToEnd> {
    const t0 = performance.now();
    const uploaded = await upload(server, file.path);
    phase = "process";
    const t1 = performance.now();
    if (uploaded.rowCount !== file.rows) {
      throw new Error(
        `upload counted ${uploaded.rowCount} of ${file.rows} rows`,
      );
    }
    let job = await startJob(server, uploaded.fileName);
    const latencies: number[] = [];
    const pollMs = options.pollMs ?? 10;
    while (job.status === "pending" || job.status === "processing") {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      const sent = performance.now();
      job = await json(await sessionFetch(`${server.url}/api/jobs/${job.id}`));
      latencies.push(performance.now() - sent);
    }
    const t2 = performance.now();
    phase = "download";
    if (job.status !== "completed") {
      throw new Error(`job ${job.id} ended ${job.status}: ${job.error}`);
    }
    if (job.processedIPs !== file.rows) {
      throw new Error(`job processed ${job.processedIPs} of ${file.rows} rows`);
    }
    const response = await sessionFetch(
      `${server.url}/api/jobs/${job.id}/download`,
    );
    if (!response.ok || !response.body) {
      throw new Error(`download: ${response.status} ${await response.text()}`);
    }
    const out = options.keepDownload
      ? await Deno.open(options.keepDownload, {
        write: true,
        create: true,
        truncate: true,
      })
      : null;
    let lines = 0;
    for await (const chunk of response.body) {
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) {
        lines++;
      }
      if (out) {
        for (let done = 0; done < chunk.length;) {
          done += await out.write(chunk.subarray(done));
        }
      }
    }
    out?.close();
    const t3 = performance.now();
    // Consumer-ISP rows are left out of downloads (PRODUCT.md).
    const downloadedRows = lines - 1;
    if (downloadedRows !== file.rows - job.filteredIPs) {
      throw new Error(
        `download has ${downloadedRows} rows, expected ${
          file.rows - job.filteredIPs
        } (${file.rows} less ${job.filteredIPs} filtered)`,
      );
    }
    const previewMs = await previewTimes(server, job.id, file.rows);
    const { peak } = await server.memory();
    latencies.sort((a, b) => a - b);
    const totalMs = t3 - t0;
    return {
      rows: file.rows,
      bytes: file.bytes,
      uploadMs: t1 - t0,
      processMs: t2 - t1,
      downloadMs: t3 - t2,
      totalMs,
      rowsPerSecond: file.rows / (totalMs / 1000),
      downloadedRows,
      filteredRows: job.filteredIPs,
      failedRows: job.failedIPs,
      statusLatency: {
        count: latencies.length,
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        max: latencies[latencies.length - 1] ?? NaN,
      },
      peakRss: peak,
      startRss,
      phaseRss,
      jobId: job.id,
      previewMs,
    };
  }
}
