// A BatchWriter for one chunk of a job (PostgreSQL mode): each checkpoint is
// committed through the ChunkProgressStore, which checks the chunk's stored
// position and the job's status, replaces the chunk's rows from that
// position with COPY and adds the counts to the job's, in one transaction.
// The chunk's last checkpoint marks it done (and completes the job when it
// was the last open chunk). Progress is announced only when the store says
// so, which keeps it to a few a second per job across all its workers.
import type { ChunkProgressStore } from "../storage/chunk_progress.ts";
import type { Counters } from "../storage/result_rows.ts";
import type { JobRecord } from "../storage/store.ts";
import type { JobStore } from "../storage/store_interface.ts";
import type { BatchWriter } from "./batch_writer.ts";
import {
  type Checkpoint,
  CheckpointReader,
  type JobStart,
} from "./checkpoint_codec.ts";

export class ChunkWriter implements BatchWriter {
  #reader: CheckpointReader | null = null;
  /** Commits not yet done, oldest first. */
  #inFlight: Promise<void>[] = [];
  #last: Promise<void> = Promise.resolve();
  #error: Error | null = null;

  constructor(
    readonly store: JobStore,
    readonly chunks: ChunkProgressStore,
    readonly chunk: number,
    /** Who runs the chunk (host and process), recorded with it. */
    readonly worker: string,
  ) {}

  get backlog(): number {
    return this.#inFlight.length;
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
    const { hostnameLookups, ...counts } = reader.counters;
    const counters: Counters = hostnameLookups
      ? { ...counts, hostnameLookups: { ...hostnameLookups } }
      : counts;
    const { jobId } = checkpoint;
    const commit = this.#last.then(async () => {
      if (this.#error) return;
      try {
        const { announce } = await this.chunks.commitChunk({
          jobId,
          chunk: this.chunk,
          results,
          counters,
          last: !!checkpoint.last,
          worker: this.worker,
        });
        if (announce) committed((await this.store.getJob(jobId))!);
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
