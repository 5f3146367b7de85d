// A chunked job's progress on PostgreSQL (ChunkProgressStore), the same
// contract as sqlite_chunks.ts. Lock order in a commit: the chunk's row,
// then the job's row last and briefly (its counters), so chunks of one job
// commit side by side and only their counter updates queue on the job's row.
import type postgres from "postgres";
import type {
  ChunkCommit,
  ChunkCommitted,
  ChunkOutputRecord,
  ChunkPlan,
  ChunkProgress,
  ChunkProgressStore,
  RunningKinds,
} from "../chunk_progress.ts";
import {
  ANNOUNCE_MS,
  ANY_STATUS,
  commitColumns,
  COUNTER_COLUMNS,
  now,
  planColumns,
  startColumns,
  toChunk,
  toOutput,
  toRunningKinds,
  ZERO,
} from "../chunk_progress.ts";
import type { ChunkMeta } from "../../results/chunk_output.ts";
import type { Row } from "../job_rows.ts";
import { ChunkTaken, type Counters, JobStopped } from "../result_rows.ts";
import { transaction } from "./pg_connect.ts";

export class PgChunkProgress implements ChunkProgressStore {
  constructor(readonly sql: postgres.Sql) {}

  async planChunks(
    jobId: number,
    plan: ChunkPlan[],
  ): Promise<ChunkProgress[]> {
    if (plan.length === 0) return await this.chunks(jobId);
    await transaction(this.sql, async (tx) => {
      const added = await tx`INSERT INTO job_chunks ${
        tx(plan.map((chunk) => planColumns(jobId, chunk)))
      } ON CONFLICT (job_id, chunk) DO NOTHING RETURNING chunk`;
      // From now on the job's counters are the sum of its chunks': none
      // yet.
      if (added.length > 0) {
        await this.#addToJob(tx, jobId, ZERO, null, ["processing", "pending"]);
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

  async outputs(jobId: number): Promise<ChunkOutputRecord[]> {
    const rows = await this.sql<Row[]>`
      SELECT chunk, first_row, run, kept_bytes, done, meta FROM job_chunks
        WHERE job_id = ${jobId} AND meta IS NOT NULL ORDER BY chunk`;
    return rows.map(toOutput);
  }

  async setMeta(jobId: number, chunk: number, meta: ChunkMeta): Promise<void> {
    await this.sql`UPDATE job_chunks SET meta = ${JSON.stringify(meta)}
      WHERE job_id = ${jobId} AND chunk = ${chunk}`;
  }

  async runningKinds(jobId: number): Promise<RunningKinds[]> {
    const rows = await this.sql<Row[]>`
      SELECT chunk, kinds FROM job_chunks
        WHERE job_id = ${jobId} AND NOT done AND kinds IS NOT NULL`;
    return rows.map(toRunningKinds);
  }

  /**
   * Adds `counters` less `was` to the job's (`was` null: sets them to
   * `counters`); false when the job is not in one of `statuses`.
   */
  async #addToJob(
    tx: postgres.TransactionSql,
    jobId: number,
    counters: Counters,
    was: Counters | null,
    statuses: string[],
  ): Promise<boolean> {
    const before = was ?? ZERO;
    const n = COUNTER_COLUMNS.length;
    const sets = COUNTER_COLUMNS.map(({ job }, i) =>
      was ? `${job} = ${job} + $${i + 1}` : `${job} = $${i + 1}`
    );
    const updated = await tx.unsafe(
      `UPDATE jobs SET ${sets.join(", ")}, updated_at = $${n + 1}
        WHERE id = $${n + 2} AND status IN (${
        statuses.map((_, i) => `$${n + 3 + i}`).join(", ")
      }) RETURNING id`,
      [
        ...COUNTER_COLUMNS.map(({ of }) => of(counters) - of(before)),
        now(),
        jobId,
        ...statuses,
      ],
    );
    return updated.length === 1;
  }

  async #setChunk(
    tx: postgres.TransactionSql,
    jobId: number,
    chunk: number,
    counters: Counters,
    fields: Record<string, string | number | boolean | null>,
  ): Promise<void> {
    await tx`UPDATE job_chunks SET ${
      tx({
        ...Object.fromEntries(
          COUNTER_COLUMNS.map(({ chunk, of }) => [chunk, of(counters)]),
        ),
        updated_at: now(),
        ...fields,
      })
    } WHERE job_id = ${jobId} AND chunk = ${chunk}`;
  }

  async dropUnfinished(jobId: number): Promise<void> {
    await transaction(this.sql, async (tx) => {
      const open = (await tx<Row[]>`SELECT * FROM job_chunks
        WHERE job_id = ${jobId} AND NOT done FOR UPDATE`).map(toChunk);
      for (const chunk of open) {
        await this.#addToJob(tx, jobId, ZERO, chunk.counters, ANY_STATUS);
        await this.#setChunk(tx, jobId, chunk.chunk, ZERO, { kinds: null });
      }
    });
  }

  async startChunk(
    jobId: number,
    chunk: number,
    run: string,
    worker: string,
  ): Promise<boolean> {
    return await transaction(this.sql, async (tx) => {
      const [row] = await tx<Row[]>`SELECT * FROM job_chunks
        WHERE job_id = ${jobId} AND chunk = ${chunk} FOR UPDATE`;
      const stored = row ? toChunk(row) : null;
      if (!stored || stored.done) return false;
      if (
        !await this.#addToJob(tx, jobId, ZERO, stored.counters, ["processing"])
      ) return false;
      await this.#setChunk(tx, jobId, chunk, ZERO, startColumns(run, worker));
      return true;
    });
  }

  async commitChunk(commit: ChunkCommit): Promise<ChunkCommitted> {
    const { jobId, chunk, run, counters, last } = commit;
    const statuses = ["processing"];
    return await transaction(this.sql, async (tx) => {
      const [row] = await tx<Row[]>`SELECT * FROM job_chunks
        WHERE job_id = ${jobId} AND chunk = ${chunk} FOR UPDATE`;
      const [job] = await tx`SELECT status FROM jobs WHERE id = ${jobId}`;
      if (!job || !statuses.includes(job.status as string)) {
        throw new JobStopped(jobId, job?.status as string | undefined);
      }
      const stored = row ? toChunk(row) : null;
      if (!stored || stored.done || row.run !== run) {
        throw new ChunkTaken(jobId);
      }
      await this.#setChunk(tx, jobId, chunk, counters, {
        ...commitColumns(commit),
        done: last,
      });
      if (
        !await this.#addToJob(tx, jobId, counters, stored.counters, statuses)
      ) {
        const [gone] = await tx`SELECT status FROM jobs WHERE id = ${jobId}`;
        throw new JobStopped(jobId, gone?.status as string | undefined);
      }
      const [{ announce }] = await tx`UPDATE jobs SET
        announced_at = CASE WHEN announced_at IS NULL OR announced_at <=
          now() - ${ANNOUNCE_MS} * interval '1 millisecond'
          THEN now() ELSE announced_at END
        WHERE id = ${jobId} RETURNING announced_at = now() AS announce`;
      const committed = { announce: Boolean(announce), completed: false };
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
