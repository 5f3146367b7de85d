// Results stored by versions before part files: one row per input row in a
// `results` table (SQLite's, or PostgreSQL's partitioned one). At start each
// job that still has such rows is given its parts (results/job_results.ts)
// as one chunk, once, and its rows are deleted, so its downloads, preview
// and summary read as any job's. A job left processing or failed by such a
// version has no plan of chunks to go on from: its rows are dropped and it
// runs again from its first row (README, "Upgrading"). Each store gives its
// table through LegacyTable (storage/legacy_table.ts,
// storage/pg/pg_legacy_table.ts).
import type { JobRecord, Row } from "../storage/job_rows.ts";
import { toResult } from "../storage/result_rows.ts";
import type { JobStore } from "../storage/store_interface.ts";
import { type ChunkMeta, ChunkOutput } from "./chunk_output.ts";
import type { JobResults } from "./job_results.ts";

const PAGE_ROWS = 5000;

/** The one chunk an earlier version's finished job becomes. */
export interface LegacyChunk {
  rows: number;
  keptBytes: number;
  meta: ChunkMeta;
  /** A completed job's chunk is done; a cancelled job's is not. */
  done: boolean;
}

/** A store's results table of earlier versions. */
export interface LegacyTable {
  /** The jobs that have rows in it. */
  jobIds(): Promise<number[]>;
  /** A job's rows from `fromRow` on, in order, at most `limit`. */
  page(jobId: number, fromRow: number, limit: number): Promise<Row[]>;
  /**
   * In one transaction: the job's old rows and chunks go, and `chunk`
   * becomes its only chunk (with the job's counters); none: the job's
   * counters go back to zero.
   */
  settle(job: JobRecord, chunk: LegacyChunk | null): Promise<void>;
  /** Runs `move` with no other process moving the same rows. */
  exclusive(move: () => Promise<void>): Promise<void>;
}

export function moveLegacyResults(
  store: JobStore,
  table: LegacyTable,
  results: JobResults,
): Promise<void> {
  return table.exclusive(async () => {
    for (const jobId of await table.jobIds()) {
      const job = await store.getJob(jobId);
      if (!job) continue;
      if (job.status !== "completed" && job.status !== "cancelled") {
        // Runs again from its first row, cut into chunks when it resumes.
        await table.settle(job, null);
        continue;
      }
      const output = new ChunkOutput(job);
      let from = 0;
      while (true) {
        const page = (await table.page(jobId, from, PAGE_ROWS)).map(toResult);
        if (page.length === 0) break;
        output.add(page);
        from = page[page.length - 1].rowIndex + 1;
      }
      const parts = output.finish();
      await table.settle(job, {
        rows: parts.meta.rows,
        keptBytes: parts.keptBytes,
        meta: await results.putParts(jobId, 0, parts),
        done: job.status === "completed",
      });
    }
  });
}
