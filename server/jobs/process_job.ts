// Processes one job from its last checkpoint to the end. Runs inside a job
// worker; kept free of Worker APIs so it can be tested directly.
import { join } from "node:path";
import { readCsvBatches } from "../csv/csv_rows.ts";
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

// Rows in flight at most: enough to keep reverse-DNS lookups running in
// parallel across rows while earlier rows are committed.
const WINDOW_ROWS = 2000;
// Distinct addresses remembered per job; beyond this the cache starts over.
const CACHE_LIMIT = 50_000;

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

  // Rows are enriched as they are read (reverse DNS runs for many rows at
  // once) and committed in order, a checkpoint of `checkpointRows` at a time,
  // as soon as every row of the batch has its answer.
  type Pending = {
    rowIndex: number;
    row: string[];
    value: Enrichment | Promise<Enrichment>;
  };
  const queue: Pending[] = [];
  let head = 0;
  const commitReady = async (wait: boolean, final = false) => {
    while (queue.length - head >= (final ? 1 : ctx.checkpointRows)) {
      const batch = queue.slice(head, head + ctx.checkpointRows);
      if (batch.some((p) => p.value instanceof Promise)) {
        if (!wait) return;
        await Promise.all(batch.map((p) => p.value));
      }
      const stored: StoredResult[] = batch.map((p) => {
        const enrichment = p.value as Enrichment;
        counters.processed++;
        if (enrichment.success) counters.successful++;
        else counters.failed++;
        if (enrichment.ispFiltered) counters.filtered++;
        return { rowIndex: p.rowIndex, original: p.row, enrichment };
      });
      store.commitBatch(jobId, stored, counters);
      head += batch.length;
      ctx.onProgress(store.getJob(jobId)!);
      if (ctx.cancelled()) return;
    }
    if (head > 4096) {
      queue.splice(0, head);
      head = 0;
    }
  };

  let rowIndex = -1; // the header row is -1
  // Rows arrive a file chunk at a time: no promise per row.
  for await (const rows of readCsvBatches(path, job.delimiter)) {
    for (const row of rows) {
      rowIndex++;
      if (rowIndex === 0) continue; // header
      const dataIndex = rowIndex - 1;
      if (dataIndex < job.processedIPs) continue; // done before a restart
      const entry: Pending = {
        rowIndex: dataIndex,
        row,
        value: enrich(row[job.ipColumnIndex]),
      };
      if (entry.value instanceof Promise) {
        entry.value.then((value) => entry.value = value);
      }
      queue.push(entry);
      if (queue.length - head >= ctx.checkpointRows) {
        // Wait for answers only when too many rows are in flight.
        await commitReady(queue.length - head >= WINDOW_ROWS);
        if (ctx.cancelled()) return "cancelled";
      }
    }
  }
  await commitReady(true, true);
  if (ctx.cancelled()) return "cancelled";
  if (counters.processed !== job.totalIPs) {
    store.setTotal(jobId, counters.processed);
  }
  store.setStatus(jobId, "completed", ["processing"]);
  ctx.onProgress(store.getJob(jobId)!);
  return "completed";
}
