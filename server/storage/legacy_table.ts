// SQLite's results table of earlier versions (results/legacy_results.ts).
import type { LegacyTable } from "../results/legacy_results.ts";
import type { Row } from "./job_rows.ts";
import type { Store } from "./store.ts";

export function sqliteLegacyTable(store: Store): LegacyTable {
  const { db } = store;
  return {
    jobIds: () =>
      Promise.resolve(
        (db.prepare("SELECT DISTINCT job_id FROM results").all() as Row[])
          .map((row) => Number(row.job_id)),
      ),
    page: (jobId, fromRow, limit) =>
      Promise.resolve(
        db.prepare(
          `SELECT * FROM results WHERE job_id = ? AND row_index >= ?
            ORDER BY row_index LIMIT ?`,
        ).all(jobId, fromRow, limit) as Row[],
      ),
    settle(job, chunk) {
      store.transaction(() => {
        db.prepare("DELETE FROM results WHERE job_id = ?").run(job.id);
        db.prepare("DELETE FROM job_chunks WHERE job_id = ?").run(job.id);
        if (!chunk) {
          db.prepare(
            `UPDATE jobs SET processed_ips = 0, successful_ips = 0,
              failed_ips = 0, filtered_ips = 0 WHERE id = ?`,
          ).run(job.id);
          return;
        }
        db.prepare(
          `INSERT INTO job_chunks (job_id, chunk, first_row, row_count,
            start_byte, end_byte, processed, successful, failed, filtered,
            done, run, kept_bytes, meta, updated_at)
            VALUES (?, 0, 0, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          job.id,
          chunk.rows,
          job.processedIPs,
          job.successfulIPs,
          job.failedIPs,
          job.filteredIPs,
          chunk.done ? 1 : 0,
          crypto.randomUUID(),
          chunk.keptBytes,
          JSON.stringify(chunk.meta),
          new Date().toISOString(),
        );
      });
      return Promise.resolve();
    },
    async exclusive(move) {
      // One process per data directory.
      await move();
      db.exec("DELETE FROM result_summary");
    },
  };
}
