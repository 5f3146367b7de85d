// A job's summary counts as its writer commits checkpoints: each committed
// batch is added inside the batch's transaction, and written to
// result_summary every FLUSH_ROWS rows, when the last write is over a second
// old (so a running job's summary shows its first rows at once and grows at
// the polling rate), and with the job's last checkpoint.
import type { DatabaseSync } from "node:sqlite";
import type { StoredResult } from "../storage/store.ts";
import {
  deleteSummary,
  FLUSH_ROWS,
  rebuildSummary,
  SummaryCounter,
} from "../storage/summary_sql.ts";
import type { JobStart } from "./checkpoint_codec.ts";

/** Longest a committed row waits before the summary counts it. */
export const SUMMARY_LAG_MS = 1000;

export class SummaryTally {
  #counter = new SummaryCounter();
  #jobId = -1;
  #lastFlush = 0;

  /**
   * Starts a job. A job resumed from a checkpoint recounts its stored rows
   * (counts not flushed before a crash or a cancel are lost); counts pending
   * from an earlier run are dropped for the same reason.
   */
  begin(db: DatabaseSync, start: JobStart): void {
    this.#counter = new SummaryCounter(FLUSH_ROWS);
    this.#jobId = start.jobId;
    this.#lastFlush = 0;
    db.exec("BEGIN IMMEDIATE");
    try {
      if (start.counters.processed > 0) rebuildSummary(db, start.jobId);
      else deleteSummary(db, start.jobId);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }

  /** Counts a committed batch; call inside the batch's transaction. */
  add(db: DatabaseSync, results: StoredResult[], last: boolean): void {
    if (this.#jobId < 0) throw new Error("summary counts before a job began");
    this.#counter.add(results.map((result) => result.enrichment));
    const now = Date.now();
    const due = last || now - this.#lastFlush > SUMMARY_LAG_MS ||
      this.#counter.pending >= FLUSH_ROWS;
    if (!due) return;
    this.#counter.flush(db, this.#jobId, true);
    this.#lastFlush = now;
  }
}
