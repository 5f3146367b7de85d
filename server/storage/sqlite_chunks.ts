// A chunked job's progress on SQLite (ChunkProgressStore), the same contract
// as pg/pg_chunks.ts: each job thread has its own connection; a chunk's
// counters, the job's and its being done change together in one
// transaction (WAL: one writer at a time, the others wait their turn).
import type {
  ChunkCommit,
  ChunkCommitted,
  ChunkOutputRecord,
  ChunkPlan,
  ChunkProgress,
  ChunkProgressStore,
  RunningKinds,
} from "./chunk_progress.ts";
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
} from "./chunk_progress.ts";
import type { ChunkMeta } from "../results/chunk_output.ts";
import type { Row } from "./job_rows.ts";
import { ChunkTaken, type Counters, JobStopped } from "./result_rows.ts";
import type { Store } from "./store.ts";

export class SqliteChunkProgress implements ChunkProgressStore {
  /** When each job's progress was last announced from here. */
  #announced = new Map<number, number>();

  constructor(readonly store: Store) {}

  planChunks(jobId: number, plan: ChunkPlan[]): Promise<ChunkProgress[]> {
    const { db } = this.store;
    if (plan.length > 0) {
      this.store.transaction(() => {
        const names = Object.keys(planColumns(jobId, plan[0]));
        const insert = db.prepare(
          `INSERT OR IGNORE INTO job_chunks (${names.join(", ")})
            VALUES (${names.map(() => "?").join(", ")})`,
        );
        let added = 0;
        for (const chunk of plan) {
          const row = Object.values(planColumns(jobId, chunk));
          added += Number(insert.run(...row).changes);
        }
        // From now on the job's counters are the sum of its chunks': none
        // yet.
        if (added > 0) this.#addToJob(jobId, ZERO, null);
      });
    }
    return this.chunks(jobId);
  }

  chunks(jobId: number): Promise<ChunkProgress[]> {
    const rows = this.store.db.prepare(
      "SELECT * FROM job_chunks WHERE job_id = ? ORDER BY chunk",
    ).all(jobId) as Row[];
    return Promise.resolve(rows.map(toChunk));
  }

  getChunk(jobId: number, chunk: number): Promise<ChunkProgress | null> {
    return Promise.resolve(this.#chunk(jobId, chunk));
  }

  outputs(jobId: number): Promise<ChunkOutputRecord[]> {
    const rows = this.store.db.prepare(
      `SELECT chunk, first_row, run, kept_bytes, done, meta FROM job_chunks
        WHERE job_id = ? AND meta IS NOT NULL ORDER BY chunk`,
    ).all(jobId) as Row[];
    return Promise.resolve(rows.map(toOutput));
  }

  setMeta(jobId: number, chunk: number, meta: ChunkMeta): Promise<void> {
    this.store.db.prepare(
      "UPDATE job_chunks SET meta = ? WHERE job_id = ? AND chunk = ?",
    ).run(JSON.stringify(meta), jobId, chunk);
    return Promise.resolve();
  }

  runningKinds(jobId: number): Promise<RunningKinds[]> {
    const rows = this.store.db.prepare(
      `SELECT chunk, kinds FROM job_chunks
        WHERE job_id = ? AND done = 0 AND kinds IS NOT NULL`,
    ).all(jobId) as Row[];
    return Promise.resolve(rows.map(toRunningKinds));
  }

  #row(jobId: number, chunk: number): Row | undefined {
    return this.store.db.prepare(
      "SELECT * FROM job_chunks WHERE job_id = ? AND chunk = ?",
    ).get(jobId, chunk) as Row | undefined;
  }

  #chunk(jobId: number, chunk: number): ChunkProgress | null {
    const row = this.#row(jobId, chunk);
    return row ? toChunk(row) : null;
  }

  /**
   * Adds `counters` less `was` to the job's (`was` null: sets them to
   * `counters`); false when the job is not in one of `statuses`.
   */
  #addToJob(
    jobId: number,
    counters: Counters,
    was: Counters | null,
    statuses = ["processing", "pending"],
  ): boolean {
    const before = was ?? ZERO;
    const sets = COUNTER_COLUMNS.map(({ job }) =>
      was ? `${job} = ${job} + ?` : `${job} = ?`
    );
    const { changes } = this.store.db.prepare(
      `UPDATE jobs SET ${sets.join(", ")}, updated_at = ?
        WHERE id = ? AND status IN (${statuses.map(() => "?").join(", ")})`,
    ).run(
      ...COUNTER_COLUMNS.map(({ of }) => of(counters) - of(before)),
      now(),
      jobId,
      ...statuses,
    );
    return Number(changes) === 1;
  }

  #setChunk(
    jobId: number,
    chunk: number,
    counters: Counters,
    fields: Record<string, string | number | null>,
  ): void {
    const names = [
      ...COUNTER_COLUMNS.map(({ chunk }) => chunk),
      "updated_at",
      ...Object.keys(fields),
    ];
    this.store.db.prepare(
      `UPDATE job_chunks SET ${names.map((name) => `${name} = ?`).join(", ")}
        WHERE job_id = ? AND chunk = ?`,
    ).run(
      ...COUNTER_COLUMNS.map(({ of }) => of(counters)),
      now(),
      ...Object.values(fields),
      jobId,
      chunk,
    );
  }

  startChunk(
    jobId: number,
    chunk: number,
    run: string,
    worker: string,
  ): Promise<boolean> {
    return Promise.resolve(this.store.transaction(() => {
      const stored = this.#chunk(jobId, chunk);
      if (!stored || stored.done) return false;
      if (!this.#addToJob(jobId, ZERO, stored.counters, ["processing"])) {
        return false;
      }
      this.#setChunk(jobId, chunk, ZERO, startColumns(run, worker));
      return true;
    }));
  }

  commitChunk(commit: ChunkCommit): Promise<ChunkCommitted> {
    try {
      return Promise.resolve(this.#commit(commit));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #commit(commit: ChunkCommit): ChunkCommitted {
    const { jobId, chunk, run, counters, last } = commit;
    const { store } = this;
    const { db } = store;
    return store.transaction((): ChunkCommitted => {
      const row = this.#row(jobId, chunk);
      const stored = row ? toChunk(row) : null;
      const status = store.getJob(jobId)?.status;
      if (status !== "processing") throw new JobStopped(jobId, status);
      if (!stored || stored.done || row!.run !== run) {
        throw new ChunkTaken(jobId);
      }
      this.#addToJob(jobId, counters, stored.counters, ["processing"]);
      this.#setChunk(jobId, chunk, counters, {
        ...commitColumns(commit),
        done: last ? 1 : 0,
      });
      if (!last) return { announce: this.#announce(jobId), completed: false };
      const open = db.prepare(
        `SELECT sum(done = 0) AS open, coalesce(sum(processed), 0) AS processed
          FROM job_chunks WHERE job_id = ?`,
      ).get(jobId) as Row;
      if (Number(open.open) > 0) {
        return { announce: this.#announce(jobId), completed: false };
      }
      const at = now();
      db.prepare(
        `UPDATE jobs SET status = 'completed', total_ips = ?, updated_at = ?,
          completed_at = ? WHERE id = ?`,
      ).run(Number(open.processed), at, at, jobId);
      return { announce: true, completed: true };
    });
  }

  dropUnfinished(jobId: number): Promise<void> {
    this.store.transaction(() => {
      const open = (this.store.db.prepare(
        "SELECT * FROM job_chunks WHERE job_id = ? AND done = 0",
      ).all(jobId) as Row[]).map(toChunk);
      for (const chunk of open) {
        this.#addToJob(jobId, ZERO, chunk.counters, ANY_STATUS);
        this.#setChunk(jobId, chunk.chunk, ZERO, { kinds: null });
      }
    });
    return Promise.resolve();
  }

  #announce(jobId: number): boolean {
    const time = Date.now();
    if (time - (this.#announced.get(jobId) ?? 0) < ANNOUNCE_MS) return false;
    this.#announced.set(jobId, time);
    return true;
  }
}
