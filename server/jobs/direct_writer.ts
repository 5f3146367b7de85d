// A BatchWriter that commits in the calling thread, through any JobStore:
// SQLite answers at once, PostgreSQL with a promise. Checkpoints commit one
// after another in order; the backlog lets a job read on while a few
// checkpoints are in flight to the database. On SQLite the job's summary
// counts are kept inside each commit's transaction (SummaryTally); the
// PostgreSQL store counts a job's rows when its summary is asked for.
import type { JobRecord } from "../storage/job_rows.ts";
import { Store } from "../storage/store.ts";
import { copyCounters } from "../storage/result_rows.ts";
import type { JobStore } from "../storage/store_interface.ts";
import type { BatchWriter } from "./batch_writer.ts";
import { SummaryTally } from "./summary_tally.ts";
import {
  type Checkpoint,
  CheckpointReader,
  type JobStart,
} from "./checkpoint_codec.ts";

export class DirectWriter implements BatchWriter {
  #reader: CheckpointReader | null = null;
  /** Commits not yet done, oldest first. */
  #inFlight: Promise<void>[] = [];
  #last: Promise<void> = Promise.resolve();
  #error: Error | null = null;
  #summary = new SummaryTally();

  constructor(readonly store: JobStore) {}

  get backlog(): number {
    return this.#inFlight.length;
  }

  begin(start: JobStart): void {
    this.#reader = new CheckpointReader(start);
    this.#error = null;
    if (this.store instanceof Store) this.#summary.begin(this.store.db, start);
  }

  write(checkpoint: Checkpoint, committed: (job: JobRecord) => void): void {
    const reader = this.#reader!;
    // Read now, in order: the reader's counters run on with each checkpoint.
    const results = reader.read(checkpoint);
    const counters = copyCounters(reader.counters);
    const { jobId } = checkpoint;
    const sqlite = this.store instanceof Store ? this.store : null;
    // This checkpoint's keys: the reader makes a new list for the next one.
    const keys = reader.summaryKeys;
    const countSummary = sqlite &&
      (() => this.#summary.add(sqlite.db, results, !!checkpoint.last, keys));
    const commit = this.#last.then(async () => {
      if (this.#error) return;
      try {
        await this.store.commitBatch(
          jobId,
          results,
          counters,
          countSummary ?? undefined,
        );
        committed((await this.store.getJob(jobId))!);
      } catch (error) {
        this.#error = error as Error;
      }
    });
    this.#last = commit;
    this.#inFlight.push(commit);
    commit.then(() => this.#inFlight.splice(this.#inFlight.indexOf(commit), 1));
  }

  async waitForBacklogAtMost(count = 0): Promise<void> {
    while (this.#inFlight.length > count) {
      await this.#inFlight[this.#inFlight.length - count - 1];
    }
    if (this.#error) throw this.#error;
  }

  close(): void {}
}
