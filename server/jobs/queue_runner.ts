// Runs jobs through a shared JobQueue (pg-boss on PostgreSQL) instead of the
// in-process Deno KV queue, so API replicas and worker processes on several
// machines share the work. First step of the work split: a queue message is
// a whole job (chunk 0, the upload's whole byte range); a worker resumes it
// from the job's last checkpoint, so a job whose worker died is redelivered
// by the queue and loses at most one checkpoint's work. Changes go out on
// the JobEventBus; every replica re-reads the job and tells its WebSocket
// subscribers.
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { BlobStore } from "../blobs/blob_store.ts";
import type { Engine } from "../enrichment/engine.ts";
import type { JobEventBus } from "../events/job_event_bus.ts";
import type { JobQueue, QueuedChunk } from "../queue/job_queue.ts";
import { CheckpointMoved, type JobRecord } from "../storage/store.ts";
import type { JobControl, JobStore } from "../storage/store_interface.ts";
import { DirectWriter } from "./direct_writer.ts";
import type { JobEvents } from "./job_events.ts";
import type { RegistrationLookup } from "../rdap/registration_lookup.ts";
import { processJob } from "./process_job.ts";

export interface QueueRunnerOptions {
  store: JobStore;
  queue: JobQueue;
  bus: JobEventBus;
  /** This replica's WebSocket feed (null in a worker without HTTP). */
  events: JobEvents | null;
  /** Where workers fetch uploads missing from `uploadsDir` (S3), or null. */
  blobs: BlobStore | null;
  uploadsDir: string;
  checkpointRows: number;
  /** A job's registration lookup (RDAP), or null or absent: off. */
  registrationLookup?: () => RegistrationLookup | null;
}

/** The change announced on the bus: small, the job is re-read from storage. */
const change = (job: JobRecord) => ({
  status: job.status,
  processedIPs: job.processedIPs,
});

/** Thrown to the queue so that it delivers the job again. */
class JobHandedBack extends Error {
  constructor(jobId: number) {
    super(`job ${jobId} stopped before its end; it resumes on redelivery`);
  }
}

export class QueueRunner implements JobControl {
  #unsubscribe: (() => void)[] = [];
  /** Jobs this process is running, with their cancel flags. */
  #running = new Map<number, { cancelled: boolean }>();

  constructor(readonly options: QueueRunnerOptions) {
    const { bus, store, events } = options;
    this.#unsubscribe.push(bus.subscribe((jobId, changed) => {
      const running = this.#running.get(jobId);
      if (running && changed.status === "cancelled") running.cancelled = true;
      if (!events) return;
      Promise.resolve(store.getJob(jobId)).then((job) => {
        if (job) events.emit(job);
      }).catch((error) => console.error("job update:", error));
    }));
    // Changes may have been missed while the bus was reconnecting.
    this.#unsubscribe.push(bus.onResync(async () => {
      const jobs = await store.jobsWithStatus("pending", "processing");
      for (const job of jobs) events?.emit(job);
    }));
  }

  async enqueue(jobId?: number): Promise<void> {
    if (jobId === undefined) return;
    const job = await this.options.store.getJob(jobId);
    if (!job) return;
    // First step: one message per job (see the top of this file).
    await this.options.queue.enqueue([{
      jobId,
      chunk: 0,
      start: 0,
      end: Number.MAX_SAFE_INTEGER,
      firstRow: 0,
    }]);
  }

  async cancel(jobId: number): Promise<boolean> {
    const { store, queue } = this.options;
    if (!await store.setStatus(jobId, "cancelled", ["pending", "processing"])) {
      return false;
    }
    await queue.cancel(jobId);
    const running = this.#running.get(jobId);
    if (running) running.cancelled = true;
    await this.#announce(jobId);
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

  /** Takes jobs from the queue in this process, `concurrency` at once. */
  work(engine: Engine, concurrency: number): Promise<void> {
    return this.options.queue.work(
      (message, signal) => this.#run(engine, message, signal),
      { concurrency },
    );
  }

  /** Stops this process's jobs at their next checkpoint. */
  close(): void {
    for (const running of this.#running.values()) running.cancelled = true;
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
  }

  async #announce(jobId: number): Promise<void> {
    const job = await this.options.store.getJob(jobId);
    if (job) await this.options.bus.publish(jobId, change(job));
  }

  async #run(
    engine: Engine,
    message: QueuedChunk,
    signal: AbortSignal,
  ): Promise<void> {
    const { store, checkpointRows, uploadsDir } = this.options;
    const { jobId } = message;
    let job = await store.getJob(jobId);
    if (job?.status === "pending") {
      await store.setStatus(jobId, "processing", ["pending"]);
      job = await store.getJob(jobId);
    }
    // Cancelled, finished or gone meanwhile: nothing to do.
    if (job?.status !== "processing") return;
    const flag = { cancelled: false };
    this.#running.set(jobId, flag);
    signal.addEventListener("abort", () => flag.cancelled = true);
    await this.#announce(jobId);
    try {
      await this.#fetchUpload(job.fileName);
      const outcome = await processJob({
        store,
        engine,
        uploadsDir,
        jobId,
        checkpointRows,
        writer: new DirectWriter(store),
        registrationLookup: this.options.registrationLookup,
        cancelled: () => flag.cancelled,
        onProgress: (stored) => {
          this.options.bus.publish(jobId, change(stored)).catch(() => {});
        },
      });
      // Stopped short though nobody cancelled it (this process is stopping,
      // or the queue gave up on this delivery): hand the job back.
      if (
        outcome === "cancelled" &&
        (await store.getJob(jobId))?.status === "processing"
      ) {
        throw new JobHandedBack(jobId);
      }
    } catch (error) {
      if (error instanceof JobHandedBack) throw error;
      // Another delivery of this job (the queue thought this worker gone)
      // committed first: the job is its to finish.
      if (error instanceof CheckpointMoved) return;
      // A job cancelled meanwhile ends with its next commit refused.
      if ((await store.getJob(jobId))?.status === "processing") {
        const text = (error as Error).message;
        console.error(`job ${jobId} failed: ${text}`);
        await store.setStatus(
          jobId,
          "failed",
          ["processing"],
          `Processing stopped: ${text}`,
        );
      }
    } finally {
      this.#running.delete(jobId);
    }
    await this.#announce(jobId);
  }

  /** Copies the upload from the blob store when this machine lacks it. */
  async #fetchUpload(fileName: string): Promise<void> {
    const { blobs, uploadsDir } = this.options;
    const path = join(uploadsDir, fileName);
    if (!blobs || await Deno.stat(path).then(() => true, () => false)) return;
    if (!await blobs.head(fileName)) return; // the job fails as "file gone"
    const partial = `${path}.${crypto.randomUUID()}.part`;
    const file = await open(partial, "w");
    try {
      for await (const bytes of await blobs.get(fileName)) {
        await file.write(bytes);
      }
    } finally {
      await file.close();
    }
    await Deno.rename(partial, path);
  }
}
