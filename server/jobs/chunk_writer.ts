// Where a chunk's finished rows go, in both modes: into the chunk's output
// (results/chunk_output.ts), built in memory as batches of rows arrive, its
// counters reported to the database a few times a second (the job's
// progress). With the last batch the run's parts are stored in the blob
// store and then, in one transaction, the chunk's counts, counters and its
// being done (ChunkProgressStore.commitChunk): a chunk is done or not, and
// one taken again after a crash starts from its first row; a cancelled job
// keeps its done chunks. A run whose commit is refused (a worker stopped,
// its chunk run again by another) removes its parts: readers read the
// committed run's (job_results.ts).
import type { ChunkProgressStore } from "../storage/chunk_progress.ts";
import { ANNOUNCE_MS } from "../storage/chunk_progress.ts";
import {
  ChunkTaken,
  copyCounters,
  type Counters,
  JobStopped,
} from "../storage/result_rows.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobStore } from "../storage/store_interface.ts";
import { type ChunkMeta, ChunkOutput } from "../results/chunk_output.ts";
import type { JobResults } from "../results/job_results.ts";
import { logError } from "../log.ts";
import { logJobEnded } from "./job_log.ts";

/** Adds a completed job's summary up and keeps it; a failure is logged. */
export async function prepareSummary(
  results: JobResults,
  job: JobRecord,
): Promise<void> {
  await results.prepare(job).catch((error) =>
    logError(`job ${job.id}: summary not kept:`, error)
  );
}

export class ChunkWriter {
  /** Where the chunk's finished rows are added, in input order (a RowSink). */
  readonly output: ChunkOutput;
  readonly run = crypto.randomUUID();
  /** Commits in order: each waits for the one before. */
  #last: Promise<void> = Promise.resolve();
  #pending = 0;
  #error: Error | null = null;
  #reported = 0;

  constructor(
    readonly store: JobStore,
    readonly chunks: ChunkProgressStore,
    readonly results: JobResults,
    readonly chunk: number,
    /** Who runs the chunk (host and process), recorded with it. */
    readonly worker: string,
    readonly job: JobRecord,
    /**
     * Whether the run that completes the job adds its summary up (false:
     * whoever runs it does, see thread_pool.ts).
     */
    readonly addsSummary = true,
  ) {
    this.output = new ChunkOutput(job);
  }

  /** Takes the chunk for this run; false when it is done or its job ended. */
  start(): Promise<boolean> {
    return this.chunks.startChunk(
      this.job.id,
      this.chunk,
      this.run,
      this.worker,
    );
  }

  get backlog(): number {
    return this.#pending;
  }

  /**
   * Commits the rows added; `counters`: the chunk's with them (a run starts
   * from the chunk's first row, at zero). `last`: the chunk's last rows are
   * in, after which it is stored and done.
   */
  write(
    counters: Counters,
    last: boolean,
    committed: (job: JobRecord) => void,
  ): void {
    counters = copyCounters(counters);
    if (last) {
      this.#commit(counters, true, committed);
      return;
    }
    const time = Date.now();
    if (time - this.#reported < ANNOUNCE_MS) return;
    this.#reported = time;
    this.#commit(counters, false, committed);
  }

  /**
   * Ends a run stopped before its end (a cancel, or the server stopping):
   * its rows are dropped, the chunk is run again if its job goes on.
   */
  async stop(): Promise<void> {
    await this.waitForBacklogAtMost(0).catch(() => {});
  }

  #commit(
    counters: Counters,
    last: boolean,
    committed: (job: JobRecord) => void,
  ): void {
    const { job, chunk } = this;
    const parts = last ? this.output.finish() : null;
    // The rows of `counters` by kind, so the job's summary counts them too.
    const kinds = last ? undefined : this.output.kinds();
    this.#pending++;
    this.#last = this.#last.then(async () => {
      if (this.#error) return;
      let meta: ChunkMeta | null = null;
      try {
        meta = parts &&
          await this.results.putParts(job.id, chunk, this.run, parts);
        const { announce, completed } = await this.chunks.commitChunk({
          jobId: job.id,
          chunk,
          run: this.run,
          counters,
          worker: this.worker,
          output: parts && meta
            ? { keptBytes: parts.keptBytes, meta }
            : undefined,
          kinds,
          last,
        });
        const stored = announce || completed
          ? (await this.store.getJob(job.id))!
          : null;
        // Its summary, added up once, here unless left to the caller.
        if (completed) {
          logJobEnded(stored!);
          if (this.addsSummary) await prepareSummary(this.results, stored!);
        }
        if (stored) committed(stored);
      } catch (error) {
        this.#error = error as Error;
        // Refused: no reader sees this run's parts.
        if (
          meta && (error instanceof ChunkTaken || error instanceof JobStopped)
        ) {
          await this.results.deleteParts(job.id, chunk, this.run).catch(
            (error) => logError(`job ${job.id}: parts not removed:`, error),
          );
        }
      } finally {
        this.#pending--;
      }
    });
  }

  async waitForBacklogAtMost(count = 0): Promise<void> {
    if (this.#pending > count) await this.#last;
    if (this.#error) throw this.#error;
  }
}
