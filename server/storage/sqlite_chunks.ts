// A chunked job's progress on SQLite (ChunkProgressStore), the same contract
// as pg/pg_chunks.ts: each job thread has its own connection and commits
// its chunk's checkpoints with the chunk's and the job's counters in one
// transaction (WAL: one writer at a time, the others wait their turn).
// SQLite keeps a job's summary counts as rows are committed
// (summary_sql.ts): each chunk run counts its own rows and writes them in
// the same transactions, what the summary shows every SUMMARY_LAG_MS and
// everything with the chunk's last checkpoint. Counts a chunk had not
// written when it stopped are recounted from the rows (rebuildSummary)
// before its job runs again (jobs/runner.ts).
import type {
  ChunkCheckpoint,
  ChunkCommitted,
  ChunkPlan,
  ChunkProgress,
  ChunkProgressStore,
} from "./chunk_progress.ts";
import { ANNOUNCE_MS, toChunk } from "./chunk_progress.ts";
import type { Row } from "./job_rows.ts";
import { CheckpointMoved, JobStopped } from "./result_rows.ts";
import type { Store } from "./store.ts";
import { FLUSH_ROWS, SummaryCounter } from "./summary_sql.ts";

/**
 * Longest a committed row waits before the summary counts it: the page
 * polls every 2 s, and each flush upserts the keys that changed.
 */
export const SUMMARY_LAG_MS = 2000;

const now = () => new Date().toISOString();

/** One chunk run's summary counts not yet written. */
interface ChunkCounts {
  counter: SummaryCounter;
  lastFlush: number;
}

export class SqliteChunkProgress implements ChunkProgressStore {
  /** Summary counts of the chunks run through this instance, by job:chunk. */
  #counts = new Map<string, ChunkCounts>();
  /** When each job's progress was last announced from here. */
  #announced = new Map<number, number>();

  constructor(readonly store: Store) {}

  planChunks(jobId: number, plan: ChunkPlan[]): Promise<ChunkProgress[]> {
    const { db } = this.store;
    if (plan.length > 0) {
      this.store.transaction(() => {
        const insert = db.prepare(
          `INSERT OR IGNORE INTO job_chunks (job_id, chunk, first_row,
            row_count, start_byte, end_byte, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)`,
        );
        let added = 0;
        for (const chunk of plan) {
          added += Number(
            insert.run(
              jobId,
              chunk.chunk,
              chunk.firstRow,
              chunk.rows,
              chunk.start,
              chunk.end,
              now(),
            ).changes,
          );
        }
        // From now on the job's counters are the sum of its chunks': none
        // yet (a job run whole by an earlier version starts over; each
        // chunk replaces the rows it stored).
        if (added > 0) {
          db.prepare(
            `UPDATE jobs SET processed_ips = 0, successful_ips = 0,
              failed_ips = 0, filtered_ips = 0, hostnames_answered = 0,
              hostnames_no_name = 0, hostnames_timed_out = 0,
              hostnames_skipped = 0 WHERE id = ?`,
          ).run(jobId);
        }
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

  #chunk(jobId: number, chunk: number): ChunkProgress | null {
    const row = this.store.db.prepare(
      "SELECT * FROM job_chunks WHERE job_id = ? AND chunk = ?",
    ).get(jobId, chunk) as Row | undefined;
    return row ? toChunk(row) : null;
  }

  commitChunk(checkpoint: ChunkCheckpoint): Promise<ChunkCommitted> {
    try {
      return Promise.resolve(this.#commit(checkpoint));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #commit(checkpoint: ChunkCheckpoint): ChunkCommitted {
    const { jobId, chunk, results, counters, last, worker } = checkpoint;
    const { store } = this;
    const { db } = store;
    const before = counters.processed - results.length;
    const key = `${jobId}:${chunk}`;
    // A run's first commit starts its counts afresh.
    let counts = this.#counts.get(key);
    if (!counts || before === 0) {
      counts = { counter: new SummaryCounter(FLUSH_ROWS), lastFlush: 0 };
      this.#counts.set(key, counts);
    }
    const committed = store.transaction((): ChunkCommitted => {
      const stored = this.#chunk(jobId, chunk);
      if (!stored || stored.done || stored.counters.processed !== before) {
        const status = store.getJob(jobId)?.status;
        if (status !== "processing") throw new JobStopped(jobId, status);
        throw new CheckpointMoved(jobId);
      }
      const was = stored.counters;
      const lookups = counters.hostnameLookups ?? was.hostnameLookups!;
      const wasLookups = was.hostnameLookups!;
      const { changes } = db.prepare(
        `UPDATE jobs SET processed_ips = processed_ips + ?,
          successful_ips = successful_ips + ?, failed_ips = failed_ips + ?,
          filtered_ips = filtered_ips + ?,
          hostnames_answered = hostnames_answered + ?,
          hostnames_no_name = hostnames_no_name + ?,
          hostnames_timed_out = hostnames_timed_out + ?,
          hostnames_skipped = hostnames_skipped + ?, updated_at = ?
          WHERE id = ? AND status = 'processing'`,
      ).run(
        counters.processed - was.processed,
        counters.successful - was.successful,
        counters.failed - was.failed,
        counters.filtered - was.filtered,
        lookups.answered - wasLookups.answered,
        lookups.noName - wasLookups.noName,
        lookups.timedOut - wasLookups.timedOut,
        lookups.skipped - wasLookups.skipped,
        now(),
        jobId,
      );
      // Cancelled or failed meanwhile: nothing of this checkpoint stays.
      if (Number(changes) !== 1) {
        throw new JobStopped(jobId, store.getJob(jobId)?.status);
      }
      if (results.length > 0) {
        // Rows stored from the same position on by a whole-file run of an
        // earlier version are replaced.
        db.prepare(
          `DELETE FROM results WHERE job_id = ? AND row_index >= ?
            AND row_index < ?`,
        ).run(jobId, stored.firstRow + before, stored.firstRow + stored.rows);
        store.insertResults(jobId, results);
      }
      db.prepare(
        `UPDATE job_chunks SET processed = ?, successful = ?, failed = ?,
          filtered = ?, hostnames_answered = ?, hostnames_no_name = ?,
          hostnames_timed_out = ?, hostnames_skipped = ?, done = ?,
          worker = ?, updated_at = ? WHERE job_id = ? AND chunk = ?`,
      ).run(
        counters.processed,
        counters.successful,
        counters.failed,
        counters.filtered,
        lookups.answered,
        lookups.noName,
        lookups.timedOut,
        lookups.skipped,
        last ? 1 : 0,
        worker,
        now(),
        jobId,
        chunk,
      );
      this.#countSummary(db, jobId, counts, results, last);
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
    if (last) this.#counts.delete(key);
    return committed;
  }

  /** Adds a checkpoint's rows to its chunk's counts; writes them when due. */
  #countSummary(
    db: Store["db"],
    jobId: number,
    counts: ChunkCounts,
    results: ChunkCheckpoint["results"],
    last: boolean,
  ): void {
    const { counter } = counts;
    for (const result of results) counter.addRows(result.enrichment, 1);
    const time = Date.now();
    const due = last || time - counts.lastFlush > SUMMARY_LAG_MS ||
      counter.pending >= FLUSH_ROWS;
    if (!due) return;
    // A running chunk writes what the summary shows; its last flush, all.
    counter.flush(db, jobId, true, !last);
    counts.lastFlush = time;
  }

  #announce(jobId: number): boolean {
    const time = Date.now();
    if (time - (this.#announced.get(jobId) ?? 0) < ANNOUNCE_MS) return false;
    this.#announced.set(jobId, time);
    return true;
  }
}
