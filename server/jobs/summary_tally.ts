// A job's summary counts as its writer commits checkpoints: each committed
// batch is added inside the batch's transaction, and written to
// result_summary every FLUSH_ROWS rows, when the last write is over
// SUMMARY_LAG_MS old (so a running job's summary shows its first rows at once
// and grows at the page's polling rate, every 2 s), and with the job's last
// checkpoint. Until that last one, only what the summary shows is written
// (SummaryCounter).
import type { DatabaseSync } from "node:sqlite";
import type { StoredResult } from "../storage/result_rows.ts";
import {
  deleteSummary,
  FLUSH_ROWS,
  rebuildSummary,
  SummaryCounter,
  type SummaryInput,
} from "../storage/summary_sql.ts";
import type { JobStart } from "./checkpoint_codec.ts";

/**
 * Longest a committed row waits before the summary counts it: the page
 * polls every 2 s. Each flush upserts every key (city, company, ASN) seen
 * since the last, so flushing every second cost a quarter of the writer
 * thread's time on a fast job (bench/RESULTS.md, issue 11 second pass).
 */
export const SUMMARY_LAG_MS = 2000;

export class SummaryTally {
  #counter = new SummaryCounter();
  /** Rows counted by key since the last flush (see add). */
  #byKey = new Map<number, { row: SummaryInput; n: number }>();
  #keyed = 0;
  #jobId = -1;
  #lastFlush = 0;

  /**
   * Starts a job. A job resumed from a checkpoint recounts its stored rows
   * (counts not flushed before a crash or a cancel are lost); counts pending
   * from an earlier run are dropped for the same reason.
   */
  begin(db: DatabaseSync, start: JobStart): void {
    this.#counter = new SummaryCounter(FLUSH_ROWS);
    this.#byKey.clear();
    this.#keyed = 0;
    this.#jobId = start.jobId;
    this.#lastFlush = 0;
    db.exec("BEGIN IMMEDIATE");
    try {
      if (start.counters.processed > 0) {
        rebuildSummary(db, start.jobId);
        this.#counter.load(db, start.jobId);
      } else deleteSummary(db, start.jobId);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }

  /**
   * Counts a committed batch; call inside the batch's transaction. `keys`
   * (CheckpointReader.summaryKeys): rows of one key count alike, so a key's
   * rows are counted once per flush, by one of them (-1: counted itself).
   */
  add(
    db: DatabaseSync,
    results: StoredResult[],
    last: boolean,
    keys?: number[],
  ): void {
    if (this.#jobId < 0) throw new Error("summary counts before a job began");
    const counter = this.#counter;
    const byKey = this.#byKey;
    for (let i = 0; i < results.length; i++) {
      const key = keys ? keys[i] : -1;
      if (key < 0) {
        counter.addRows(results[i].enrichment, 1);
        continue;
      }
      const same = byKey.get(key);
      if (same) same.n++;
      else byKey.set(key, { row: results[i].enrichment, n: 1 });
    }
    this.#keyed += results.length;
    const now = Date.now();
    const due = last || now - this.#lastFlush > SUMMARY_LAG_MS ||
      counter.pending + this.#keyed >= FLUSH_ROWS;
    if (!due) return;
    for (const { row, n } of byKey.values()) counter.addRows(row, n);
    byKey.clear();
    this.#keyed = 0;
    // A running job writes what its summary shows; its last flush, all.
    counter.flush(db, this.#jobId, true, !last);
    this.#lastFlush = now;
    // The job's counts are written: not kept while the worker waits.
    if (last) this.#counter = new SummaryCounter(FLUSH_ROWS);
  }
}
