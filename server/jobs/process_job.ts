// Processes one job from its last checkpoint to the end. Runs inside a job
// worker; kept free of Worker APIs so it can be tested directly.
import { join } from "node:path";
import { readCsvFile } from "../csv/csv_rows.ts";
import { Engine } from "../enrichment/engine.ts";
import { parseIp } from "../enrichment/ip_input.ts";
import type { Enrichment } from "../enrichment/types.ts";
import type {
  Counters,
  JobRecord,
  Store,
  StoredResult,
} from "../storage/store.ts";

export interface ProcessContext {
  store: Store;
  engine: Engine;
  uploadsDir: string;
  jobId: number;
  /** Rows per committed checkpoint (<= 100). */
  checkpointRows: number;
  /** True once the job was cancelled; checked between batches. */
  cancelled(): boolean;
  /** Called after every commit with the job as stored. */
  onProgress(job: JobRecord): void;
}

export const FILE_GONE =
  "The uploaded file is no longer available; upload it again";

// Rows enriched together before their checkpoints are committed: enough to
// keep reverse-DNS lookups running in parallel across rows.
const WINDOW_ROWS = 1000;
// Distinct addresses remembered per job; beyond this the cache starts over.
const CACHE_LIMIT = 250_000;

export type ProcessOutcome = "completed" | "cancelled" | "lost";

export async function processJob(ctx: ProcessContext): Promise<ProcessOutcome> {
  const { store, engine, jobId } = ctx;
  const job = store.getJob(jobId);
  if (!job || job.status !== "processing") return "lost";
  const path = join(ctx.uploadsDir, job.fileName);
  try {
    await Deno.stat(path);
  } catch {
    store.setStatus(jobId, "failed", ["processing"], FILE_GONE);
    return "lost";
  }
  const counters: Counters = {
    processed: job.processedIPs,
    successful: job.successfulIPs,
    failed: job.failedIPs,
    filtered: job.filteredIPs,
  };
  const cache = new Map<string, Enrichment | Promise<Enrichment>>();
  const enrich = (cell: string): Enrichment | Promise<Enrichment> => {
    const key = (cell ?? "").trim();
    let hit = cache.get(key);
    if (hit === undefined) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      const result = engine.enrichParsed(parseIp(key), job.options);
      hit = job.options.domain
        ? engine.addHostname(result).then(Engine.checkFound)
        : Engine.checkFound(result);
      cache.set(key, hit);
      if (hit instanceof Promise) hit.then((value) => cache.set(key, value));
    }
    return hit;
  };

  let rowIndex = -1; // the header row is -1
  let window: { rowIndex: number; row: string[] }[] = [];
  const flush = async () => {
    const enriched = window.map(({ row }) => enrich(row[job.ipColumnIndex]));
    const values = enriched.some((e) => e instanceof Promise)
      ? await Promise.all(enriched)
      : enriched as Enrichment[];
    for (let start = 0; start < window.length; start += ctx.checkpointRows) {
      const batch: StoredResult[] = [];
      for (
        let i = start;
        i < Math.min(start + ctx.checkpointRows, window.length);
        i++
      ) {
        const enrichment = values[i];
        counters.processed++;
        if (enrichment.success) counters.successful++;
        else counters.failed++;
        if (enrichment.ispFiltered) counters.filtered++;
        batch.push({
          rowIndex: window[i].rowIndex,
          original: window[i].row,
          enrichment,
        });
      }
      store.commitBatch(jobId, batch, counters);
    }
    window = [];
    ctx.onProgress(store.getJob(jobId)!);
  };

  for await (const row of readCsvFile(path, job.delimiter)) {
    rowIndex++;
    if (rowIndex === 0) continue; // header
    const dataIndex = rowIndex - 1;
    if (dataIndex < job.processedIPs) continue; // done before a restart
    window.push({ rowIndex: dataIndex, row });
    if (window.length >= WINDOW_ROWS) {
      await flush();
      if (ctx.cancelled()) return "cancelled";
    }
  }
  if (window.length > 0) await flush();
  if (ctx.cancelled()) return "cancelled";
  if (counters.processed !== job.totalIPs) {
    store.setTotal(jobId, counters.processed);
  }
  store.setStatus(jobId, "completed", ["processing"]);
  ctx.onProgress(store.getJob(jobId)!);
  return "completed";
}
