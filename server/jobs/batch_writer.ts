// Where a job's checkpoints go: committed at once in the job's own thread
// (DirectWriter), or on a thread of their own (ThreadedWriter) while the job
// worker goes on reading and looking up rows. Either way a checkpoint is
// committed in one transaction with the job's counters (Store.commitBatch;
// the writer thread puts the checkpoints a job worker wrote together in one
// transaction), checkpoints are committed in order, and a job ends only
// after its last one is committed, so a crashed job resumes from its last
// committed checkpoint.
import type { JobRecord } from "../storage/job_rows.ts";
import type { Checkpoint, JobStart } from "./checkpoint_codec.ts";

export interface BatchWriter {
  /** Starts a job's checkpoints (its counters as stored). */
  begin(start: JobStart): void;
  /**
   * Queues one checkpoint. `committed` is called with the job as stored
   * once it is committed.
   */
  write(checkpoint: Checkpoint, committed: (job: JobRecord) => void): void;
  /** Checkpoints queued and not yet committed. */
  readonly backlog: number;
  /** Resolves once the backlog is at most `count`; rejects after a failure. */
  waitForBacklogAtMost(count: number): Promise<void>;
  /** Stops the writer (its thread, if it has one). */
  close(): void;
}
