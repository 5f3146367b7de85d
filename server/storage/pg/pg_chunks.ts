// A chunked job's progress on PostgreSQL (ChunkProgressStore): the
// job_chunks table, and a chunk's checkpoint commit. Lock order in a commit:
// the chunk's row, the job's partition, then the job's row last and briefly
// (its counters), so chunks of one job commit side by side and only their
// counter updates queue on the job's row.
import type postgres from "postgres";
import type {
  ChunkCheckpoint,
  ChunkCommitted,
  ChunkPlan,
  ChunkProgress,
  ChunkProgressStore,
} from "../chunk_progress.ts";
import { ANNOUNCE_MS, toChunk } from "../chunk_progress.ts";
import type { Row } from "../job_rows.ts";
import { CheckpointMoved, JobStopped } from "../result_rows.ts";
import { transaction } from "./pg_connect.ts";
import { copyResults } from "./pg_copy.ts";
import { partitionName } from "./pg_schema.ts";

const now = () => new Date().toISOString();

export class PgChunkProgress implements ChunkProgressStore {
  constructor(readonly sql: postgres.Sql) {}

  async planChunks(
    jobId: number,
    plan: ChunkPlan[],
  ): Promise<ChunkProgress[]> {
    if (plan.length === 0) return await this.chunks(jobId);
    await transaction(this.sql, async (tx) => {
      const added = await tx`INSERT INTO job_chunks ${
        tx(plan.map((chunk) => ({
          job_id: jobId,
          chunk: chunk.chunk,
          first_row: chunk.firstRow,
          row_count: chunk.rows,
          start_byte: chunk.start,
          end_byte: chunk.end,
          updated_at: now(),
        })))
      } ON CONFLICT (job_id, chunk) DO NOTHING RETURNING chunk`;
      // From now on the job's counters are the sum of its chunks': none
      // yet (a job run whole before it was cut, by an older version,
      // starts over; each chunk replaces the rows it stored).
      if (added.length > 0) {
        await tx`UPDATE jobs SET processed_ips = 0, successful_ips = 0,
          failed_ips = 0, filtered_ips = 0, hostnames_answered = 0,
          hostnames_no_name = 0, hostnames_timed_out = 0,
          hostnames_skipped = 0 WHERE id = ${jobId}`;
      }
    });
    return await this.chunks(jobId);
  }

  async chunks(jobId: number): Promise<ChunkProgress[]> {
    const rows = await this.sql<Row[]>`
      SELECT * FROM job_chunks WHERE job_id = ${jobId} ORDER BY chunk`;
    return rows.map(toChunk);
  }

  async getChunk(jobId: number, chunk: number): Promise<ChunkProgress | null> {
    const [row] = await this.sql<Row[]>`
      SELECT * FROM job_chunks WHERE job_id = ${jobId} AND chunk = ${chunk}`;
    return row ? toChunk(row) : null;
  }

  async commitChunk(checkpoint: ChunkCheckpoint): Promise<ChunkCommitted> {
    const { jobId, chunk, results, counters, last, worker } = checkpoint;
    const before = counters.processed - results.length;
    return await transaction(this.sql, async (tx) => {
      const [row] = await tx<Row[]>`SELECT * FROM job_chunks
        WHERE job_id = ${jobId} AND chunk = ${chunk} FOR UPDATE`;
      const stored = row ? toChunk(row) : null;
      if (!stored || stored.done || stored.counters.processed !== before) {
        const [job] = await tx`SELECT status FROM jobs WHERE id = ${jobId}`;
        if (job?.status !== "processing") {
          throw new JobStopped(jobId, job?.status as string | undefined);
        }
        throw new CheckpointMoved(jobId);
      }
      if (results.length > 0) {
        // A redelivered checkpoint replaces what an earlier delivery of
        // this chunk stored from the same position on.
        const from = stored.firstRow + before;
        await tx.unsafe(
          `DELETE FROM ${partitionName(jobId)}
            WHERE row_index >= $1 AND row_index < $2`,
          [from, stored.firstRow + stored.rows],
        );
        await copyResults(tx, jobId, results);
      }
      const was = stored.counters;
      const lookups = counters.hostnameLookups ?? was.hostnameLookups!;
      const wasLookups = was.hostnameLookups!;
      await tx`UPDATE job_chunks SET processed = ${counters.processed},
        successful = ${counters.successful}, failed = ${counters.failed},
        filtered = ${counters.filtered},
        hostnames_answered = ${lookups.answered},
        hostnames_no_name = ${lookups.noName},
        hostnames_timed_out = ${lookups.timedOut},
        hostnames_skipped = ${lookups.skipped},
        done = ${last}, worker = ${worker}, updated_at = ${now()}
        WHERE job_id = ${jobId} AND chunk = ${chunk}`;
      const [job] = await tx`UPDATE jobs SET
        processed_ips = processed_ips + ${counters.processed - was.processed},
        successful_ips = successful_ips + ${
        counters.successful - was.successful
      },
        failed_ips = failed_ips + ${counters.failed - was.failed},
        filtered_ips = filtered_ips + ${counters.filtered - was.filtered},
        hostnames_answered = hostnames_answered + ${
        lookups.answered - wasLookups.answered
      },
        hostnames_no_name = hostnames_no_name + ${
        lookups.noName - wasLookups.noName
      },
        hostnames_timed_out = hostnames_timed_out + ${
        lookups.timedOut - wasLookups.timedOut
      },
        hostnames_skipped = hostnames_skipped + ${
        lookups.skipped - wasLookups.skipped
      },
        updated_at = ${now()},
        announced_at = CASE WHEN announced_at IS NULL OR announced_at <=
          now() - ${ANNOUNCE_MS} * interval '1 millisecond'
          THEN now() ELSE announced_at END
        WHERE id = ${jobId} AND status = 'processing'
        RETURNING announced_at = now() AS announce`;
      // Cancelled or failed meanwhile: nothing of this checkpoint stays.
      if (!job) {
        const [gone] = await tx`SELECT status FROM jobs WHERE id = ${jobId}`;
        throw new JobStopped(jobId, gone?.status as string | undefined);
      }
      const committed = { announce: Boolean(job.announce), completed: false };
      if (!last) return committed;
      const [open] = await tx`SELECT count(*) FILTER (WHERE NOT done) AS open,
        coalesce(sum(processed), 0) AS processed
        FROM job_chunks WHERE job_id = ${jobId}`;
      if (Number(open.open) > 0) return committed;
      const at = now();
      await tx`UPDATE jobs SET status = 'completed',
        total_ips = ${Number(open.processed)}, updated_at = ${at},
        completed_at = ${at} WHERE id = ${jobId}`;
      return { announce: true, completed: true };
    });
  }
}
