// Results stored by versions before part files: one row per input row in
// SQLite's `results` table. At start each job that still has such rows is
// given its parts (results/job_results.ts) as one chunk, once, and its rows
// are deleted, so its downloads, preview and summary read as any job's. A
// job left processing or failed by such a version has no plan of chunks to
// go on from: its rows are dropped and it runs again from its first row
// (README, "Upgrading").
import type { DatabaseSync } from "node:sqlite";
import type { Row } from "../storage/job_rows.ts";
import { toResult } from "../storage/result_rows.ts";
import type { Store } from "../storage/store.ts";
import { ChunkOutput } from "./chunk_output.ts";
import type { JobResults } from "./job_results.ts";

const PAGE_ROWS = 5000;

function legacyJobs(db: DatabaseSync): number[] {
  return (db.prepare("SELECT DISTINCT job_id FROM results").all() as Row[])
    .map((row) => Number(row.job_id));
}

export async function moveLegacyResults(
  store: Store,
  results: JobResults,
): Promise<void> {
  const { db } = store;
  for (const jobId of legacyJobs(db)) {
    const job = store.getJob(jobId);
    if (job && (job.status === "completed" || job.status === "cancelled")) {
      const output = new ChunkOutput(job);
      let from = 0;
      let rows = 0;
      while (true) {
        const page = (db.prepare(
          `SELECT * FROM results WHERE job_id = ? AND row_index >= ?
            ORDER BY row_index LIMIT ?`,
        ).all(jobId, from, PAGE_ROWS) as Row[]).map(toResult);
        if (page.length === 0) break;
        output.add(page);
        rows += page.length;
        from = page[page.length - 1].rowIndex + 1;
      }
      const parts = output.finish();
      await results.putParts(jobId, 0, parts);
      store.transaction(() => {
        db.prepare("DELETE FROM job_chunks WHERE job_id = ?").run(jobId);
        db.prepare(
          `INSERT INTO job_chunks (job_id, chunk, first_row, row_count,
            start_byte, end_byte, processed, successful, failed, filtered,
            done, run, kept_bytes, meta, updated_at)
            VALUES (?, 0, 0, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          jobId,
          rows,
          job.processedIPs,
          job.successfulIPs,
          job.failedIPs,
          job.filteredIPs,
          job.status === "completed" ? 1 : 0,
          crypto.randomUUID(),
          parts.keptBytes,
          JSON.stringify(parts.meta),
          new Date().toISOString(),
        );
        db.prepare("DELETE FROM results WHERE job_id = ?").run(jobId);
      });
    } else {
      // Runs again from its first row, cut into chunks when it resumes.
      store.transaction(() => {
        db.prepare("DELETE FROM results WHERE job_id = ?").run(jobId);
        db.prepare("DELETE FROM job_chunks WHERE job_id = ?").run(jobId);
        db.prepare(
          `UPDATE jobs SET processed_ips = 0, successful_ips = 0,
            failed_ips = 0, filtered_ips = 0 WHERE id = ?`,
        ).run(jobId);
      });
    }
  }
  db.exec("DELETE FROM result_summary");
}
