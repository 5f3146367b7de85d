// Runs jobs through a shared JobQueue (pg-boss on PostgreSQL) instead of the
// in-process Deno KV queue, so API replicas and worker processes on several
// machines share the work. A job is cut into chunks of at most `chunkSizes`
// rows (byte ranges of its upload at row starts, planned once when it is first
// queued) and every chunk is a queue message any worker may take; a chunk
// resumes from its own last checkpoint (job_chunks), so a worker that dies
// loses only its chunk's uncommitted rows, and the queue hands that chunk to
// another. Changes go out on the JobEventBus; every replica re-reads the job
// and tells its WebSocket subscribers.
import { open } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { BlobStore } from "../blobs/blob_store.ts";
import type { ChunkSizes } from "../config.ts";
import type { EngineLease, JobEngines } from "../databases/job_engines.ts";
import type { JobResults } from "../results/job_results.ts";
import type { JobEventBus } from "../events/job_event_bus.ts";
import type { JobQueue, QueuedChunk } from "../queue/job_queue.ts";
import type { ChunkProgressStore } from "../storage/chunk_progress.ts";
import { type JobRecord } from "../storage/job_rows.ts";
import { CheckpointMoved } from "../storage/result_rows.ts";
import { isConnectionLost } from "../storage/pg/pg_connect.ts";
import type { JobControl, JobStore } from "../storage/store_interface.ts";
import type { JobEvents } from "./job_events.ts";
import type { RegistrationLookup } from "../rdap/registration_lookup.ts";
import { FILE_GONE } from "./process_job.ts";
import { jobStoppedMessage } from "./stop_message.ts";
import { planJobChunks, runChunk, THIS_PROCESS } from "./run_chunk.ts";
import { logError } from "../log.ts";
import { logJobEnded, logJobStarted } from "./job_log.ts";

export interface QueueRunnerOptions {
  store: JobStore;
  queue: JobQueue;
  bus: JobEventBus;
  /** This replica's WebSocket feed (null in a worker without HTTP). */
  events: JobEvents | null;
  /** Where workers fetch uploads missing from `uploadsDir` (S3), or null. */
  blobs: BlobStore | null;
  /** Where chunks' parts go. */
  results: JobResults;
  uploadsDir: string;
  checkpointRows: number;
  /** A job's registration lookup (RDAP), or null or absent: off. */
  registrationLookup?: () => RegistrationLookup | null;
  /** Each job's chunks, with their progress. */
  chunks: ChunkProgressStore;
  /** Data rows per chunk, at most. */
  chunkSizes: ChunkSizes;
}

/** The change announced on the bus: small, the job is re-read from storage. */
const change = (job: JobRecord) => ({
  status: job.status,
  processedIPs: job.processedIPs,
});

/** The failure of a job whose chunk the queue gave up on. */
export const ABANDONED = "Processing stopped: a part of the file failed " +
  "several times in a row (a worker stopped or lost its database while " +
  "processing it). Restart the job to try again; its finished rows are kept.";

/** Thrown to the queue so that it delivers the chunk again. */
class JobHandedBack extends Error {
  constructor(jobId: number, chunk: number) {
    super(
      `job ${jobId} chunk ${chunk} stopped before its end; it resumes on redelivery`,
    );
  }
}

export class QueueRunner implements JobControl {
  #unsubscribe: (() => void)[] = [];
  /** Jobs failAbandoned found with nothing queued, at its last call. */
  #abandoned = new Set<number>();
  /** The cancel flags of the chunks this process runs, by job. */
  #running = new Map<number, Set<{ cancelled: boolean }>>();

  constructor(readonly options: QueueRunnerOptions) {
    const { bus, store, events } = options;
    this.#unsubscribe.push(bus.subscribe((jobId, changed) => {
      if (changed.status === "cancelled") this.#stopChunks(jobId);
      if (!events) return;
      Promise.resolve(store.getJob(jobId)).then((job) => {
        if (job) events.emit(job);
      }).catch((error) => logError("job update:", error));
    }));
    // Changes may have been missed while the bus was reconnecting.
    this.#unsubscribe.push(bus.onResync(async () => {
      const jobs = await store.jobsWithStatus("pending", "processing");
      for (const job of jobs) events?.emit(job);
    }));
  }

  /**
   * Queues the job's chunks not done yet, planning them first if it has
   * none: as its upload's reader cut the upload, or for an upload stored
   * before its chunks were noted, by counting it again.
   */
  async enqueue(jobId?: number): Promise<void> {
    if (jobId === undefined) return;
    const { store, chunks, chunkSizes, uploadsDir, queue } = this.options;
    const job = await store.getJob(jobId);
    if (!job) return;
    if (
      (await chunks.chunks(jobId)).length === 0 &&
      !await this.#fetchUpload(job.fileName)
    ) {
      await store.setStatus(
        jobId,
        "failed",
        ["pending", "processing"],
        FILE_GONE,
      );
      await this.#announce(jobId, logJobEnded);
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
   * Fails the jobs left processing with a chunk not done and none queued or
   * running, found so at two calls in a row (a minute apart: a job being
   * queued is not mistaken): the queue gave up on a chunk, which failed or
   * lost its worker more times than its retries. Safe in every process.
   */
  async failAbandoned(): Promise<number[]> {
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
      if (await store.setStatus(job.id, "failed", ["processing"], ABANDONED)) {
        logError(`job ${job.id}: the queue gave up on a chunk; job failed`);
        await chunks.dropUnfinished(job.id);
        await this.#announce(job.id, logJobEnded);
        failed.push(job.id);
      }
    }
    return failed;
  }

  async cancel(jobId: number): Promise<boolean> {
    const { store, queue } = this.options;
    if (!await store.setStatus(jobId, "cancelled", ["pending", "processing"])) {
      return false;
    }
    await queue.cancel(jobId);
    this.#stopChunks(jobId);
    await this.options.chunks.dropUnfinished(jobId);
    await this.#announce(jobId, logJobEnded);
    return true;
  }

  async restart(jobId: number): Promise<boolean> {
    if (!await this.options.store.setStatus(jobId, "pending", ["failed"])) {
      return false;
    }
    await this.#announce(jobId);
    await this.enqueue(jobId);
    return true;
  }

  /**
   * Takes jobs from the queue in this process, `concurrency` at once, each
   * chunk on the engine of the data its job began on.
   */
  work(engines: JobEngines, concurrency: number): Promise<void> {
    return this.options.queue.work(
      (message, signal) => this.#run(engines, message, signal),
      { concurrency },
    );
  }

  /** Stops this process's chunks at their next checkpoint. */
  close(): void {
    for (const jobId of this.#running.keys()) this.#stopChunks(jobId);
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
  }

  #stopChunks(jobId: number): void {
    for (const flag of this.#running.get(jobId) ?? []) flag.cancelled = true;
  }

  /** Announces a job's change; `log`: what it logs (it started or ended). */
  async #announce(
    jobId: number,
    log?: (job: JobRecord) => void,
  ): Promise<void> {
    const job = await this.options.store.getJob(jobId);
    if (!job) return;
    log?.(job);
    await this.options.bus.publish(jobId, change(job));
  }

  /** Runs one chunk of a job from the chunk's last checkpoint. */
  async #run(
    engines: JobEngines,
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
    const flag = { cancelled: false };
    const flags = this.#running.get(jobId) ?? new Set();
    this.#running.set(jobId, flags.add(flag));
    signal.addEventListener("abort", () => flag.cancelled = true);
    let lease: EngineLease | null = null;
    try {
      await this.#fetchUpload(job.fileName);
      lease = await engines.forJob(job);
      const outcome = await runChunk(
        { ...this.options, engine: lease.engine, worker: THIS_PROCESS },
        jobId,
        chunk,
        () => flag.cancelled,
        (stored) => {
          this.options.bus.publish(jobId, change(stored)).catch(() => {});
        },
      );
      // Stopped short though nobody cancelled the job (this process is
      // stopping, or the queue gave up on this delivery): hand it back.
      if (
        outcome === "cancelled" &&
        (await store.getJob(jobId))?.status === "processing"
      ) {
        throw new JobHandedBack(jobId, chunk.chunk);
      }
    } catch (error) {
      // The database went away (restarting): the chunk resumes from its
      // last commit when the queue delivers it again.
      if (error instanceof JobHandedBack || isConnectionLost(error)) {
        throw error;
      }
      // Another delivery of this chunk (the queue thought this worker
      // gone) committed first: the chunk is its to finish.
      if (error instanceof CheckpointMoved) return;
      // A job cancelled or failed meanwhile ends with its next commit
      // refused (JobStopped); otherwise this chunk fails the job.
      if ((await store.getJob(jobId))?.status === "processing") {
        logError(
          `job ${jobId} chunk ${chunk.chunk} failed: ${
            (error as Error).message
          }`,
        );
        const failed = await store.setStatus(
          jobId,
          "failed",
          ["processing"],
          jobStoppedMessage(error, dirname(this.options.uploadsDir)),
        );
        // Its other chunks wait for a restart rather than run for nothing.
        if (failed) {
          await this.options.queue.cancel(jobId);
          await this.options.chunks.dropUnfinished(jobId);
          await this.#announce(jobId, logJobEnded);
        }
      }
    } finally {
      lease?.release();
      flags.delete(flag);
      if (flags.size === 0) this.#running.delete(jobId);
    }
    await this.#announce(jobId);
  }

  /**
   * Copies the upload from the blob store when this machine lacks it; true
   * when the upload is here (then or already). A store that does not answer
   * is waited for by the store itself (S3BlobStore), the chunk held.
   */
  async #fetchUpload(fileName: string): Promise<boolean> {
    const { blobs, uploadsDir } = this.options;
    const path = join(uploadsDir, fileName);
    if (await Deno.stat(path).then(() => true, () => false)) return true;
    if (!blobs || !await blobs.head(fileName)) return false;
    const partial = `${path}.${crypto.randomUUID()}.part`;
    const file = await open(partial, "w");
    try {
      for await (const bytes of await blobs.get(fileName)) {
        await file.write(bytes);
      }
    } catch (error) {
      await file.close();
      await Deno.remove(partial).catch(() => {});
      throw error;
    }
    await file.close();
    await Deno.rename(partial, path);
    return true;
  }
}
