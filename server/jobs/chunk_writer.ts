// Where a chunk's checkpoints go, in both modes: each checkpoint is
// committed through the ChunkProgressStore, which checks the chunk's stored
// position and the job's status, replaces the chunk's rows from that
// position (COPY on PostgreSQL) and adds the counts to the job's, in one
// transaction. Commits run in order, and a chunk ends only after its last
// one is committed, so a chunk taken again resumes from its last commit.
// The chunk's last checkpoint marks it done (and completes the job when it
// was the last open chunk). Progress is announced only when the store says
// so, which keeps it to a few a second per job across all its workers.
// Checkpoints that queue while a commit is out go together in the next one
// (one transaction): a worker then waits on the database once per
// round trip rather than once per checkpoint, which had held one worker to
// ~9,000 rows/s at a third of a core.
import type { ChunkProgressStore } from "../storage/chunk_progress.ts";
import {
  copyCounters,
  type Counters,
  type StoredResult,
} from "../storage/result_rows.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobStore } from "../storage/store_interface.ts";
import {
  type Checkpoint,
  CheckpointReader,
  type JobStart,
} from "./checkpoint_codec.ts";

/** A checkpoint read and waiting for its commit. */
interface Queued {
  results: StoredResult[];
  counters: Counters;
  last: boolean;
  committed: (job: JobRecord) => void;
}

export class ChunkWriter {
  #reader: CheckpointReader | null = null;
  #queued: Queued[] = [];
  /** Checkpoints written and not yet committed (queued or in a commit). */
  #pending = 0;
  #draining = false;
  #waiters: (() => void)[] = [];
  #error: Error | null = null;

  constructor(
    readonly store: JobStore,
    readonly chunks: ChunkProgressStore,
    readonly chunk: number,
    /** Who runs the chunk (host and process), recorded with it. */
    readonly worker: string,
  ) {}

  get backlog(): number {
    return this.#pending;
  }

  /** `start.counters`: the chunk's counters as stored (its position). */
  begin(start: JobStart): void {
    this.#reader = new CheckpointReader(start);
    this.#error = null;
  }

  write(checkpoint: Checkpoint, committed: (job: JobRecord) => void): void {
    const reader = this.#reader!;
    // Read now, in order; the counters are copied as they stand after it.
    const results = reader.read(checkpoint);
    this.#queued.push({
      results,
      counters: copyCounters(reader.counters),
      last: !!checkpoint.last,
      committed,
    });
    this.#pending++;
    if (!this.#draining) this.#drain(checkpoint.jobId);
  }

  /** Commits what is queued, all of it at a time, until nothing is. */
  async #drain(jobId: number): Promise<void> {
    this.#draining = true;
    while (this.#queued.length > 0) {
      const group = this.#queued.splice(0);
      if (!this.#error) {
        const newest = group[group.length - 1];
        try {
          const { announce } = await this.chunks.commitChunk({
            jobId,
            chunk: this.chunk,
            // In order: the store checks the chunk's position against the
            // newest counters less all these rows.
            results: group.length === 1
              ? newest.results
              : group.flatMap((queued) => queued.results),
            counters: newest.counters,
            last: group.some((queued) => queued.last),
            worker: this.worker,
          });
          if (announce) newest.committed((await this.store.getJob(jobId))!);
        } catch (error) {
          this.#error = error as Error;
        }
      }
      this.#pending -= group.length;
      for (const wake of this.#waiters.splice(0)) wake();
    }
    this.#draining = false;
  }

  async waitForBacklogAtMost(count = 0): Promise<void> {
    while (this.#pending > count) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
    if (this.#error) throw this.#error;
  }
}
