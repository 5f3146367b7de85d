// JobQueue on pg-boss: chunks are rows in PostgreSQL taken with SKIP LOCKED,
// so any number of worker processes share one queue. A worker takes its next
// chunk as soon as it finishes one and polls briefly only while the queue is
// empty. A chunk whose worker dies, or stops answering, is redelivered once
// its heartbeat (or, without one, its expiry) lapses; what that worker does
// with the chunk later, should it go on, is fenced to its own delivery.
import { setTimeout as delay } from "node:timers/promises";
import { PgBoss } from "pg-boss";
import type {
  ChunkHandler,
  ChunkMessage,
  JobQueue,
  WorkOptions,
} from "./job_queue.ts";
import { logError, logWarn } from "../log.ts";

export const CHUNK_QUEUE = "enrich-chunks";

export interface PgBossQueueOptions {
  /** postgres://... */
  databaseUrl: string;
  /** PostgreSQL schema pg-boss keeps its tables in. */
  schema?: string;
  /**
   * Seconds a running chunk may go without a heartbeat before it is handed to
   * another worker (pg-boss requires >= 10). Null disables heartbeats, and
   * then only expireInSeconds bounds a dead worker's chunk.
   */
  heartbeatSeconds?: number | null;
  /** Longest a chunk may run before it is failed and retried. */
  expireInSeconds?: number;
  /** How often this instance looks for lost chunks. */
  monitorIntervalSeconds?: number;
  /** How often an idle worker looks for chunks. */
  pollingIntervalSeconds?: number;
}

const STATES_PENDING = new Set(["created", "retry", "active"]);

export class PgBossQueue implements JobQueue {
  #boss: PgBoss;
  #options: Required<PgBossQueueOptions>;
  #loops: Promise<void>[] = [];
  #closing = new AbortController();

  private constructor(boss: PgBoss, options: Required<PgBossQueueOptions>) {
    this.#boss = boss;
    this.#options = options;
  }

  /** Connects, installs or migrates pg-boss's schema, declares the queue. */
  static async open(options: PgBossQueueOptions): Promise<PgBossQueue> {
    const settings: Required<PgBossQueueOptions> = {
      schema: "pgboss",
      heartbeatSeconds: 30,
      expireInSeconds: 60 * 60,
      monitorIntervalSeconds: 10,
      pollingIntervalSeconds: 0.5,
      ...options,
    };
    const boss = new PgBoss({
      connectionString: settings.databaseUrl,
      schema: settings.schema,
      schedule: false,
      monitorIntervalSeconds: settings.monitorIntervalSeconds,
      superviseIntervalSeconds: settings.monitorIntervalSeconds,
      application_name: "ip-enrich-queue",
    });
    boss.on("error", (error) => logError("job queue:", error));
    await boss.start();
    const queue = {
      expireInSeconds: settings.expireInSeconds,
      // Times a failed or lost chunk is delivered again.
      retryLimit: 5,
      retryDelay: 0,
      ...(settings.heartbeatSeconds === null
        ? {}
        : { heartbeatSeconds: settings.heartbeatSeconds }),
    };
    if (await boss.getQueue(CHUNK_QUEUE)) {
      await boss.updateQueue(CHUNK_QUEUE, queue);
    } else {
      await boss.createQueue(CHUNK_QUEUE, queue).catch(async (error) => {
        // Another process created it between our check and our create.
        if (!await boss.getQueue(CHUNK_QUEUE)) throw error;
      });
    }
    return new PgBossQueue(boss, settings);
  }

  async enqueue(chunks: ChunkMessage[]): Promise<void> {
    if (chunks.length === 0) return;
    await this.#boss.insert(
      CHUNK_QUEUE,
      chunks.map((chunk) => ({ data: { ...chunk } })),
    );
  }

  work(handler: ChunkHandler, options: WorkOptions = {}): Promise<void> {
    for (let slot = 0; slot < (options.concurrency ?? 1); slot++) {
      this.#loops.push(this.#takeChunks(handler));
    }
    return Promise.resolve();
  }

  // Our own fetch loop rather than boss.work(): work() waits a polling
  // interval after every single-job fetch, while this one takes the next
  // chunk at once and only polls while the queue is empty.
  async #takeChunks(handler: ChunkHandler): Promise<void> {
    while (!this.#closing.signal.aborted) {
      let job;
      try {
        [job] = await this.#boss.fetch<ChunkMessage>(CHUNK_QUEUE);
      } catch (error) {
        if (this.#closing.signal.aborted) return;
        logError("job queue fetch failed:", error);
      }
      if (!job) {
        await this.#sleep(this.#options.pollingIntervalSeconds * 1000);
        continue;
      }
      // The settles and heartbeats name this delivery (its id and attempt),
      // as pg-boss fences them: a worker that stopped until its heartbeat
      // lapsed and the chunk went to another worker, then went on, leaves
      // the newer delivery alone.
      const delivery = { id: job.id, retryCount: job.retryCount };
      const heartbeat = this.#options.heartbeatSeconds &&
        setInterval(() => {
          this.#boss.touch(CHUNK_QUEUE, delivery).catch(() => {});
        }, this.#options.heartbeatSeconds * 500);
      const chunk = { ...job.data, messageId: job.id, attempt: job.retryCount };
      try {
        let settled;
        try {
          await handler(chunk, this.#closing.signal);
          settled = await this.#boss.complete(CHUNK_QUEUE, delivery);
        } catch (error) {
          if (this.#closing.signal.aborted) return; // redelivered on expiry
          settled = await this.#boss.fail(CHUNK_QUEUE, delivery, {
            message: error instanceof Error ? error.message : String(error),
          });
        }
        // pg-boss answers { jobs, requested, affected }; its type says none.
        if ((settled as { affected?: number }).affected === 0) {
          logWarn(
            `job ${chunk.jobId} chunk ${chunk.chunk}: no longer this ` +
              "worker's (it stopped answering and the queue handed the " +
              "chunk on, or the job ended): left as it is",
          );
        }
      } catch (error) {
        logError("job queue:", error);
      } finally {
        if (heartbeat) clearInterval(heartbeat);
      }
    }
  }

  /** Waits `ms`, or less when the queue closes. */
  #sleep(ms: number): Promise<void> {
    return delay(ms, undefined, { signal: this.#closing.signal })
      .catch(() => {});
  }

  async cancel(jobId: number): Promise<number> {
    const queued = await this.#boss.findJobs(CHUNK_QUEUE, {
      data: { jobId },
      queued: true,
      limit: 100_000,
    });
    if (queued.length === 0) return 0;
    await this.#boss.cancel(CHUNK_QUEUE, queued.map((job) => job.id));
    return queued.length;
  }

  async pending(jobId: number): Promise<number> {
    const jobs = await this.#boss.findJobs(CHUNK_QUEUE, {
      data: { jobId },
      limit: 100_000,
    });
    return jobs.filter((job) => STATES_PENDING.has(job.state)).length;
  }

  async close(): Promise<void> {
    this.#closing.abort(new Error("job queue closed"));
    // Handlers that ignore their signal are left behind, not awaited.
    await Promise.race([
      Promise.allSettled(this.#loops),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]);
    await this.#boss.stop({ graceful: false, timeout: 2000 });
  }
}
