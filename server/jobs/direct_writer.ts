// A BatchWriter that commits in the calling thread (tests, and jobs run
// without a writer thread).
import type { JobRecord, Store } from "../storage/store.ts";
import type { BatchWriter } from "./batch_writer.ts";
import { SummaryTally } from "./summary_tally.ts";
import {
  type Checkpoint,
  CheckpointReader,
  type JobStart,
} from "./checkpoint_codec.ts";

/** Commits in the calling thread, at once. */
export class DirectWriter implements BatchWriter {
  readonly backlog = 0;
  #reader: CheckpointReader | null = null;
  #summary = new SummaryTally();

  constructor(readonly store: Store) {}

  begin(start: JobStart): void {
    this.#reader = new CheckpointReader(start);
    this.#summary.begin(this.store.db, start);
  }

  write(checkpoint: Checkpoint, committed: (job: JobRecord) => void): void {
    const reader = this.#reader!;
    const results = reader.read(checkpoint);
    this.store.commitBatch(
      checkpoint.jobId,
      results,
      reader.counters,
      () =>
        this.#summary.add(
          this.store.db,
          results,
          !!checkpoint.last,
          reader.summaryKeys,
        ),
    );
    committed(this.store.getJob(checkpoint.jobId)!);
  }

  waitForBacklogAtMost(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {}
}
