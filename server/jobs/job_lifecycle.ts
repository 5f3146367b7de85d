// A job's life in both modes, written once over the queue (queue/job_queue.ts)
// as pg-boss's work(handler) shapes it: a job is queued as its chunks, the
// first chunk taken starts it, each delivery runs one chunk through the
// mode's executor (a job thread, or this process), and what stopped a chunk
// short is a named kind (job_failure.ts) that says whether the chunk runs
// again, is someone else's, or fails the job. Cancel, restart, failure, the
// stall check and the sweep for jobs the queue gave up on are here too.
// The adapters: embedded.ts (the Deno KV queue and the pool of job threads)
// and scale_out.ts (pg-boss and worker processes).
import type { BlobStore } from "../blobs/blob_store.ts";
import { copyUploadHere } from "../blobs/upload_copy.ts";
import type { ChunkSizes } from "../config.ts";
import type { JobStatus } from "../../shared/wire.ts";
import { logError } from "../log.ts";
import type { JobQueue, QueuedChunk } from "../queue/job_queue.ts";
import type {
  ChunkProgress,
  ChunkProgressStore,
} from "../storage/chunk_progress.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobStore } from "../storage/store_interface.ts";
import {
  ChunkFailed,
  failureEffect,
  failureOf,
  failureWords,
  type JobFailure,
} from "./job_failure.ts";
import { logJobEnded, logJobStarted } from "./job_log.ts";
import { type ChunkOutcome, FILE_GONE } from "./enrich_chunk.ts";
import { planJobChunks } from "./run_chunk.ts";

/** One delivery of a chunk, as an executor runs it. */
export interface ChunkRun {
  job: JobRecord;
  chunk: ChunkProgress;
  /** Aborts when the chunk should stop (reason: a JobFailure, or none). */
  signal: AbortSignal;
  /** The job as a commit of the chunk left it. */
  onProgress(job: JobRecord): void;
}

/** Runs a chunk where this mode runs chunks; rejects with what stopped it. */
export type ChunkExecutor = (run: ChunkRun) => Promise<ChunkOutcome>;

export interface LifecycleOptions {
  store: JobStore;
  chunks: ChunkProgressStore;
  queue: JobQueue;
  uploadsDir: string;
  /** The data directory, as a full disk's words name it. */
  dataDir: string;
  chunkSizes: ChunkSizes;
  /** Tells whoever watches jobs of a change (this process, or every replica). */
  announce(job: JobRecord): void | Promise<void>;
  /** Where a worker copies an upload its machine lacks from (S3), or null. */
  blobs: BlobStore | null;
  /** JOB_STALL_SECONDS in ms. */
  stallMs: number;
  /** Before a job's failure is recorded (room for it on a full disk). */
  beforeFail?(failure: JobFailure): void;
}

/** The chunks this process runs of a job, and when it last moved. */
interface Running {
  stops: Set<AbortController>;
  lastProgress: number;
  /** The job's rows done when it last moved, as far as this process saw. */
  processed: number | undefined;
}

export class JobLifecycle {
  #running = new Map<number, Running>();
  /** Jobs sweep() found with nothing queued, at its last call. */
  #abandoned = new Set<number>();
  #watchdog: ReturnType<typeof setInterval> | undefined;

  constructor(readonly options: LifecycleOptions) {}

  /**
   * Queues the job's chunks not done yet, planning them first if it has
   * none: as its upload's reader cut the upload, or for an upload stored
   * before its chunks were noted, by counting it again.
   */
  async enqueue(jobId: number): Promise<void> {
    const { store, chunks, chunkSizes, uploadsDir, queue } = this.options;
    const job = await store.getJob(jobId);
    if (!job) return;
    if (
      (await chunks.chunks(jobId)).length === 0 &&
      !await this.#uploadHere(job.fileName)
    ) {
      const from: JobStatus[] = ["pending", "processing"];
      if (await store.setStatus(jobId, "failed", from, FILE_GONE)) {
        await this.#announce(jobId, logJobEnded);
      }
      return;
    }
    const planned = await planJobChunks(
      store,
      chunks,
      job,
      uploadsDir,
      chunkSizes,
    );
    await queue.enqueue(
      planned.filter((chunk) => !chunk.done).map((chunk) => ({
        jobId,
        chunk: chunk.chunk,
        start: chunk.start,
        end: chunk.end,
        firstRow: chunk.firstRow,
      })),
    );
  }

  /**
   * Queues again the jobs left pending or processing (for a queue that
   * keeps nothing over a restart); chunks a crash stopped start over.
   */
  async resume(): Promise<void> {
    const { store, chunks } = this.options;
    for (const job of await store.jobsWithStatus("processing", "pending")) {
      if (job.status === "processing" && !this.#running.has(job.id)) {
        await chunks.dropUnfinished(job.id);
        logJobStarted(job, true);
      }
      await this.enqueue(job.id);
    }
  }

  /** Cancels a pending or processing job; false when it was neither. */
  async cancel(jobId: number): Promise<boolean> {
    const { store, queue, chunks } = this.options;
    if (!await store.setStatus(jobId, "cancelled", ["pending", "processing"])) {
      return false;
    }
    await queue.cancel(jobId);
    this.stopChunks(jobId);
    await chunks.dropUnfinished(jobId); // its done chunks' rows stay
    await this.#announce(jobId, logJobEnded);
    return true;
  }

  /** Puts a failed job back in line; its chunks not done run again. */
  async restart(jobId: number): Promise<boolean> {
    if (!await this.options.store.setStatus(jobId, "pending", ["failed"])) {
      return false;
    }
    await this.#announce(jobId);
    await this.enqueue(jobId);
    return true;
  }

  /**
   * Fails a processing job with the failure's words: its other chunks
   * leave the queue and stop, its done chunks' rows stay.
   */
  async fail(jobId: number, failure: JobFailure): Promise<boolean> {
    const { store, queue, chunks, dataDir } = this.options;
    this.options.beforeFail?.(failure);
    let failed = false;
    try {
      failed = await store.setStatus(
        jobId,
        "failed",
        ["processing"],
        failureWords(failure, dataDir),
      );
    } catch (error) {
      // Not even the failure could be stored (a disk full to the last
      // byte): the job stays processing, and runs again at the next start
      // rather than the server going down.
      logError(`job ${jobId}: could not record its failure:`, error);
    }
    this.stopChunks(jobId, failure);
    if (!failed) return false;
    await queue.cancel(jobId);
    await chunks.dropUnfinished(jobId).catch((error) =>
      logError(`job ${jobId}: could not reset its open chunks:`, error)
    );
    await this.#announce(jobId, logJobEnded);
    return true;
  }

  /** Stops this process's chunks of a job (`reason`: why, for the executor). */
  stopChunks(jobId: number, reason?: JobFailure): void {
    for (const stop of this.#running.get(jobId)?.stops ?? []) {
      stop.abort(reason);
    }
  }

  /** Takes chunks from the queue in this process, `concurrency` at once. */
  async work(execute: ChunkExecutor, concurrency: number): Promise<void> {
    await this.options.queue.work(
      (message, signal) => this.#handle(execute, message, signal),
      { concurrency },
    );
    const { stallMs } = this.options;
    this.#watchdog ??= setInterval(
      () =>
        this.#failStalled().catch((error) => logError("stall check:", error)),
      Math.min(stallMs / 4, 30_000),
    );
    Deno.unrefTimer(this.#watchdog);
  }

  /** Stops the stall check and this process's chunks (shutdown). */
  close(): void {
    clearInterval(this.#watchdog);
    for (const jobId of this.#running.keys()) this.stopChunks(jobId);
  }

  /**
   * Fails the jobs left processing with a chunk not done and none queued or
   * running, found so at two calls in a row (a minute apart: a job being
   * queued is not mistaken): the queue gave up on a chunk, which failed or
   * lost its worker more times than its retries. Safe in every process.
   */
  async sweep(): Promise<number[]> {
    const { store, queue, chunks } = this.options;
    const seen = this.#abandoned;
    this.#abandoned = new Set();
    const failed: number[] = [];
    for (const job of await store.jobsWithStatus("processing")) {
      if (await queue.pending(job.id) > 0) continue;
      if ((await chunks.chunks(job.id)).every((chunk) => chunk.done)) continue;
      if (!seen.has(job.id)) {
        this.#abandoned.add(job.id);
        continue;
      }
      logError(`job ${job.id}: the queue gave up on a chunk`);
      if (await this.fail(job.id, { kind: "abandoned" })) failed.push(job.id);
    }
    return failed;
  }

  /**
   * Fails the jobs with chunks here that finished no row for the stall
   * time: the job's count, which every worker's commits add to, did not
   * move (progress announcements are a few a second per job, so one
   * worker's may all be another's).
   */
  async #failStalled(): Promise<void> {
    const { stallMs, store } = this.options;
    for (const [jobId, running] of this.#running) {
      if (Date.now() - running.lastProgress <= stallMs) continue;
      const processed = (await store.getJob(jobId))?.processedIPs;
      // Once: a chunk stuck where its stop is not heard stays running.
      running.lastProgress = Date.now();
      if (processed !== running.processed) {
        running.processed = processed;
        continue;
      }
      logError(`job ${jobId} made no progress for ${stallMs / 1000} s`);
      const seconds = Math.round(stallMs / 1000);
      await this.fail(jobId, { kind: "stalled", seconds });
    }
  }

  /** One delivery of a chunk, from taking it to its end. */
  async #handle(
    execute: ChunkExecutor,
    message: QueuedChunk,
    signal: AbortSignal,
  ): Promise<void> {
    const { store, chunks } = this.options;
    const { jobId } = message;
    let job = await store.getJob(jobId);
    if (job?.status === "pending") {
      // The job's first chunk taken.
      if (await store.setStatus(jobId, "processing", ["pending"])) {
        await this.#announce(jobId, logJobStarted);
      }
      job = await store.getJob(jobId);
    }
    // Cancelled, failed, finished or gone meanwhile: nothing to do.
    if (job?.status !== "processing") return;
    const chunk = await chunks.getChunk(jobId, message.chunk);
    // A message queued before its job was cut into chunks: cut it now.
    if (!chunk) return await this.enqueue(jobId);
    if (chunk.done) return; // a redelivery after the chunk was committed
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal.reason);
    signal.addEventListener("abort", onAbort);
    const running: Running = this.#running.get(jobId) ??
      { stops: new Set(), lastProgress: Date.now(), processed: 0 };
    if (running.stops.size === 0) {
      running.lastProgress = Date.now();
      running.processed = job.processedIPs;
    }
    running.stops.add(stop);
    this.#running.set(jobId, running);
    try {
      await this.#uploadHere(job.fileName);
      const outcome = await execute({
        job,
        chunk,
        signal: stop.signal,
        onProgress: (stored) => {
          running.lastProgress = Date.now();
          Promise.resolve(this.options.announce(stored)).catch(() => {});
        },
      });
      // Stopped short though nobody ended the job (this process is
      // stopping): hand it back.
      if (
        outcome === "cancelled" &&
        (await store.getJob(jobId))?.status === "processing"
      ) {
        throw new ChunkFailed({ kind: "handedBack" });
      }
    } catch (error) {
      const failure = failureOf(error);
      const effect = failureEffect(failure);
      // The queue delivers it again; it resumes from its first row.
      if (effect === "retry") throw error;
      // A job cancelled or failed meanwhile ends with its next commit
      // refused; otherwise this chunk fails the job.
      if (
        effect === "failJob" &&
        (await store.getJob(jobId))?.status === "processing"
      ) {
        logError(
          `job ${jobId} chunk ${chunk.chunk} failed:`,
          failureWords(failure, this.options.dataDir),
        );
        await this.fail(jobId, failure);
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      running.stops.delete(stop);
      if (running.stops.size === 0) this.#running.delete(jobId);
    }
    await this.#announce(jobId);
  }

  #uploadHere(fileName: string): Promise<boolean> {
    const { blobs, uploadsDir } = this.options;
    return copyUploadHere(blobs, uploadsDir, fileName);
  }

  /** Announces a job's change; `log`: what it logs (it started or ended). */
  async #announce(
    jobId: number,
    log?: (job: JobRecord) => void,
  ): Promise<void> {
    const job = await this.options.store.getJob(jobId);
    if (!job) return;
    log?.(job);
    await this.options.announce(job);
  }
}
