// PostgreSQL's results table of earlier versions, partitioned by job
// (results/legacy_results.ts). Replicas and workers start together: the move
// holds an advisory lock, so one process moves a job's rows and the others
// then find none.
import type postgres from "postgres";
import type { LegacyTable } from "../../results/legacy_results.ts";
import type { Row } from "../job_rows.ts";
import { transaction } from "./pg_connect.ts";
import { partitionName } from "./pg_schema.ts";

// Any number other than the migrations' (pg_schema.ts).
const LEGACY_LOCK = 7_317_014;

export function pgLegacyTable(sql: postgres.Sql): LegacyTable {
  return {
    jobIds: async () =>
      (await sql<Row[]>`SELECT DISTINCT job_id FROM results`).map((row) =>
        Number(row.job_id)
      ),
    page: async (jobId, fromRow, limit) =>
      await sql<Row[]>`SELECT * FROM results
        WHERE job_id = ${jobId} AND row_index >= ${fromRow}
        ORDER BY row_index LIMIT ${limit}`,
    async settle(job, chunk) {
      await transaction(sql, async (tx) => {
        // Its rows are its partition's (results is partitioned by job).
        await tx.unsafe(`DROP TABLE IF EXISTS ${partitionName(job.id)}`);
        await tx`DELETE FROM job_chunks WHERE job_id = ${job.id}`;
        if (!chunk) {
          await tx`UPDATE jobs SET processed_ips = 0, successful_ips = 0,
            failed_ips = 0, filtered_ips = 0 WHERE id = ${job.id}`;
          return;
        }
        await tx`INSERT INTO job_chunks ${
          tx({
            job_id: job.id,
            chunk: 0,
            first_row: 0,
            row_count: chunk.rows,
            start_byte: 0,
            end_byte: 0,
            processed: job.processedIPs,
            successful: job.successfulIPs,
            failed: job.failedIPs,
            filtered: job.filteredIPs,
            done: chunk.done,
            run: crypto.randomUUID(),
            kept_bytes: chunk.keptBytes,
            meta: JSON.stringify(chunk.meta),
            updated_at: new Date().toISOString(),
          })
        }`;
      });
    },
    async exclusive(move) {
      const connection = await sql.reserve();
      try {
        await connection`SELECT pg_advisory_lock(${LEGACY_LOCK})`;
        try {
          await move();
        } finally {
          await connection`SELECT pg_advisory_unlock(${LEGACY_LOCK})`;
        }
      } finally {
        connection.release();
      }
    },
  };
}
