// Stores result rows for a job as the pipeline does (a chunk run: its parts
// in the blob store, then its commit), for tests of what reads them.
import { ChunkOutput } from "../../server/results/chunk_output.ts";
import { type Dialect, formatRows } from "../../server/csv/dialect.ts";
import { dialectOf } from "../../server/results/output_row.ts";
import type { JobResults } from "../../server/results/job_results.ts";
import type {
  Counters,
  OutputRow,
  StoredResult,
} from "../../server/storage/result_rows.ts";
import type { JobStore } from "../../server/storage/store_interface.ts";

const encoder = new TextEncoder();

/** A row given as cells, as a chunk's output takes it: its line in `dialect`. */
export function outputRowOf(dialect: Dialect, row: StoredResult): OutputRow {
  const buf = encoder.encode(formatRows([row.original], dialect));
  return {
    rowIndex: row.rowIndex,
    line: {
      buf,
      start: 0,
      contentEnd: buf.length - dialect.newline.length,
      end: buf.length,
      fields: Math.max(1, row.original.length),
    },
    enrichment: row.enrichment,
  };
}

/** A job of three columns, its address the second, every option on. */
export const newJob = {
  fileName: "f.csv",
  originalFileName: "f.csv",
  ipColumnName: "ip",
  ipColumnIndex: 1,
  headers: ["name", "ip", "note"],
  dialect: null,
  totalIPs: 30,
  options: { geolocation: true, domain: true, company: true, network: true },
};

/** The counters of these rows. */
export function countersOf(rows: StoredResult[]): Counters {
  return {
    processed: rows.length,
    successful: rows.filter((r) => r.enrichment.success).length,
    failed: rows.filter((r) => !r.enrichment.success).length,
    filtered: rows.filter((r) => r.enrichment.ispFiltered).length,
  };
}

/**
 * Plans the job's rows as chunks of `chunkRows` (rowIndex from 0, in
 * order) and commits the chunks listed in `done` (default: all), which
 * completes the job when they are all of them. The job must be pending or
 * processing.
 */
export async function seedRows(
  store: JobStore,
  results: JobResults,
  jobId: number,
  rows: StoredResult[],
  options: {
    chunkRows?: number;
    done?: number[];
    /** The host-name lookups of each chunk committed. */
    hostnameLookups?: Counters["hostnameLookups"];
  } = {},
): Promise<void> {
  const job = (await store.getJob(jobId))!;
  if (job.status === "pending") {
    await store.setStatus(jobId, "processing", ["pending"]);
  }
  const size = options.chunkRows ?? Math.max(1, rows.length);
  const pieces: StoredResult[][] = [];
  for (let from = 0; from < rows.length || from === 0; from += size) {
    pieces.push(rows.slice(from, from + size));
  }
  const { chunks } = results;
  await chunks.planChunks(
    jobId,
    pieces.map((piece, chunk) => ({
      chunk,
      start: chunk,
      end: chunk + 1,
      firstRow: chunk * size,
      rows: piece.length,
    })),
  );
  for (const chunk of options.done ?? pieces.map((_, i) => i)) {
    const run = crypto.randomUUID();
    await chunks.startChunk(jobId, chunk, run, "seed");
    const output = new ChunkOutput(job);
    for (const row of pieces[chunk]) {
      output.addRow(outputRowOf(dialectOf(job), row), -1);
    }
    const parts = output.finish();
    const meta = await results.putParts(jobId, chunk, run, parts);
    await chunks.commitChunk({
      jobId,
      chunk,
      run,
      counters: {
        ...countersOf(pieces[chunk]),
        hostnameLookups: options.hostnameLookups,
      },
      worker: "seed",
      output: { keptBytes: parts.keptBytes, meta },
      last: true,
    });
  }
}
