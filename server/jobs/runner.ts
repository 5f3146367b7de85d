// Runs jobs in Web Workers, fed by the Deno KV queue. SQLite is the truth
// about a job; a queue message only says "look for work". A job found in
// "processing" with no live worker here (after a crash or restart) is
// picked up again from its last checkpoint.
import type { EngineData } from "../enrichment/engine.ts";
import { dirname } from "node:path";
import type { DnsSettings } from "../enrichment/reverse_dns.ts";
import {
  DiskReserve,
  isDiskFull,
  jobDiskFullMessage,
} from "../storage/disk_full.ts";
import type { Store } from "../storage/store.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobEvents } from "./job_events.ts";
import { startWriterThread } from "./threaded_writer.ts";
import type { FromWorker, ToWorker } from "./worker_protocol.ts";
import { RDAP_DEFAULTS, type RdapConfig } from "../rdap/rdap_config.ts";
import type { RateLimiter } from "../rdap/rate_limiter.ts";
import { servePacer } from "../rdap/shared_pacer.ts";
import { logError } from "../log.ts";

export interface RunnerOptions {
  store: Store;
  events: JobEvents;
  kv: Deno.Kv;
  engineData: EngineData;
  dns: DnsSettings;
  dbPath: string;
  uploadsDir: string;
  concurrency: number;
  /**
   * How long a job worker with no job is kept for the next one; then it
   * ends with its writer thread, and their memory goes back to the system
   * (server/v8_flags.ts). A new one takes some 0.2 s to start.
   */
  idleWorkerMs?: number;
  checkpointRows: number;
  /** Registration data settings (absent: off). */
  rdap?: RdapConfig;
  /** The process's RDAP rate limit, shared with every job worker. */
  rdapPacer?: RateLimiter | null;
  /**
   * JOB_STALL_SECONDS in ms: a job that commits no row for this long fails
   * and its worker is ended, so a stuck job never holds a slot for ever.
   */
  stallMs?: number;
}

interface Running {
  worker: Worker;
  done: Promise<void>;
  finish(error?: string, crashed?: boolean): void;
  /** Date.now() at its start or its last committed rows. */
  lastProgress: number;
}

export const DEFAULT_STALL_MS = 600_000;

/** The failure of a job that made no progress for `stallMs`. */
export function stalledMessage(stallMs: number): string {
  const seconds = Math.round(stallMs / 1000);
  const time = seconds < 120
    ? `${seconds} seconds`
    : `${Math.round(seconds / 60)} minutes`;
  return `Processing stopped: no rows were finished for ${time} ` +
    "(JOB_STALL_SECONDS), so the job was stopped to let other jobs run. " +
    "Restart it to continue from its last saved row.";
}

const WORK_MESSAGE = { type: "work" } as const;

const DEFAULT_IDLE_WORKER_MS = 60_000;

export class JobRunner {
  #running = new Map<number, Running>();
  /** Live workers with no job, kept for the next one. */
  #idle: Worker[] = [];
  /** When each idle worker ends unless a job takes it first. */
  #retirements = new Map<Worker, ReturnType<typeof setTimeout>>();
  /** Each job worker's result writer thread. */
  #writers = new Map<Worker, Worker>();
  #stopped = false;
  #watchdog: ReturnType<typeof setInterval> | undefined;

  readonly #reserve: DiskReserve;

  constructor(readonly options: RunnerOptions) {
    this.#reserve = new DiskReserve(dirname(options.dbPath));
  }

  /** Listens to the queue and resumes whatever was left unfinished. */
  start(): void {
    this.options.kv.listenQueue((message) => {
      if ((message as { type?: string })?.type === WORK_MESSAGE.type) {
        this.pump();
      }
    });
    this.pump();
    const stallMs = this.options.stallMs ?? DEFAULT_STALL_MS;
    this.#watchdog = setInterval(
      () => this.#failStalled(stallMs),
      Math.min(stallMs / 4, 30_000),
    );
    Deno.unrefTimer(this.#watchdog);
  }

  /** Fails the jobs that have made no progress for `stallMs`. */
  #failStalled(stallMs: number): void {
    const now = Date.now();
    for (const [jobId, running] of this.#running) {
      if (now - running.lastProgress <= stallMs) continue;
      logError(`job ${jobId} made no progress for ${stallMs / 1000} s`);
      // Ended, not asked: a worker stuck in one row may not read messages.
      running.finish(stalledMessage(stallMs), true);
    }
  }

  /**
   * Tells the queue there is work (the message survives a restart), and
   * starts what it can now rather than wait for the delivery.
   */
  async enqueue(): Promise<void> {
    await this.options.kv.enqueue(WORK_MESSAGE);
    this.pump();
  }

  get runningIds(): number[] {
    return [...this.#running.keys()];
  }

  isRunning(jobId: number): boolean {
    return this.#running.has(jobId);
  }

  /** Starts waiting jobs while there is a free slot. */
  pump(): void {
    if (this.#stopped) return;
    const { store, concurrency } = this.options;
    for (const job of store.jobsWithStatus("processing", "pending")) {
      if (this.#running.size >= concurrency) return;
      if (this.#running.has(job.id)) continue;
      if (job.status === "pending") {
        if (!store.setStatus(job.id, "processing", ["pending"])) continue;
      }
      this.#spawn(store.getJob(job.id)!);
    }
  }

  /** Cancels a pending or processing job; its committed rows stay. */
  cancel(jobId: number): boolean {
    const { store } = this.options;
    if (!store.setStatus(jobId, "cancelled", ["pending", "processing"])) {
      return false;
    }
    const running = this.#running.get(jobId);
    running?.worker.postMessage({ type: "cancel", jobId } satisfies ToWorker);
    this.#emit(jobId);
    return true;
  }

  /** Puts a failed job back in line; it resumes from its checkpoint. */
  async restart(jobId: number): Promise<boolean> {
    if (!this.options.store.setStatus(jobId, "pending", ["failed"])) {
      return false;
    }
    this.#emit(jobId);
    await this.enqueue();
    return true;
  }

  /** Stops all workers (shutdown); their jobs resume at the next start. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#watchdog);
    for (const [jobId, running] of this.#running) {
      running.worker.postMessage({ type: "cancel", jobId } satisfies ToWorker);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise((resolve) => timer = setTimeout(resolve, 2000));
    await Promise.race([
      Promise.all([...this.#running.values()].map((r) => r.done)),
      grace,
    ]);
    clearTimeout(timer);
    for (const running of this.#running.values()) {
      this.#terminate(running.worker);
    }
    for (const worker of [...this.#idle]) this.#terminate(worker);
    this.#running.clear();
    this.#idle = [];
  }

  /** Keeps a worker with no job for the next one, for idleWorkerMs. */
  #park(worker: Worker): void {
    this.#idle.push(worker);
    const timer = setTimeout(
      () => this.#terminate(worker),
      this.options.idleWorkerMs ?? DEFAULT_IDLE_WORKER_MS,
    );
    this.#retirements.set(worker, timer);
  }

  /** An idle worker for a job, or null. */
  #takeIdle(): Worker | null {
    const worker = this.#idle.pop() ?? null;
    if (worker) {
      clearTimeout(this.#retirements.get(worker));
      this.#retirements.delete(worker);
    }
    return worker;
  }

  /** Ends a job worker and its writer thread. */
  #terminate(worker: Worker): void {
    clearTimeout(this.#retirements.get(worker));
    this.#retirements.delete(worker);
    this.#idle = this.#idle.filter((w) => w !== worker);
    worker.terminate();
    this.#writers.get(worker)?.terminate();
    this.#writers.delete(worker);
  }

  #emit(jobId: number): void {
    const job = this.options.store.getJob(jobId);
    if (job) this.options.events.emit(job);
  }

  #newWorker(): Worker {
    const { options } = this;
    const worker = new Worker(
      new URL("./job_worker.ts", import.meta.url).href,
      { type: "module", name: "job-worker" },
    );
    // Its checkpoints are committed on a thread of their own, started here:
    // a worker started from inside a worker takes about a second to start.
    const channel = new MessageChannel();
    const writer = startWriterThread(options.dbPath, channel.port1);
    this.#writers.set(worker, writer);
    writer.onerror = (event) => {
      event.preventDefault();
      logError(`result writer crashed: ${event.message}`);
      worker.dispatchEvent(
        new ErrorEvent("error", {
          message: `result writer stopped: ${event.message}`,
          cancelable: true,
        }),
      );
    };
    // One rate limit for every worker and the lookups: tokens over a port.
    let rdapPort: MessagePort | null = null;
    if (options.rdap?.enabled && options.rdapPacer) {
      const pacerChannel = new MessageChannel();
      servePacer(pacerChannel.port1, options.rdapPacer);
      rdapPort = pacerChannel.port2;
    }
    worker.postMessage(
      {
        type: "init",
        dbPath: options.dbPath,
        uploadsDir: options.uploadsDir,
        checkpointRows: options.checkpointRows,
        engineData: options.engineData,
        dns: options.dns,
        writerPort: channel.port2,
        rdap: options.rdap ?? RDAP_DEFAULTS,
        rdapPort,
      } satisfies ToWorker,
      rdapPort ? [channel.port2, rdapPort] : [channel.port2],
    );
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.type === "progress") {
        const running = this.#running.get(message.job.id);
        if (running) running.lastProgress = Date.now();
        this.options.events.emit(message.job);
      } else if (message.type === "done") {
        this.#running.get(message.jobId)?.finish();
      } else if (message.type === "error") {
        const running = this.#running.get(message.jobId);
        // A job cancelled meanwhile ends with its next commit refused.
        if (this.options.store.getJob(message.jobId)?.status !== "processing") {
          running?.finish();
          return;
        }
        logError(`job ${message.jobId} failed: ${message.message}`);
        const diskFull = isDiskFull(message.message);
        // Room to record the failure itself.
        if (diskFull) this.#reserve.release();
        running?.finish(
          diskFull
            ? jobDiskFullMessage(dirname(this.options.dbPath))
            : `Processing stopped: ${message.message}`,
        );
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      logError(`job worker crashed: ${event.message}`);
      for (const running of this.#running.values()) {
        if (running.worker === worker) {
          running.finish(`Processing stopped: ${event.message}`, true);
        }
      }
      this.#terminate(worker);
    };
    return worker;
  }

  #spawn(job: JobRecord): void {
    const { store } = this.options;
    const worker = this.#takeIdle() ?? this.#newWorker();
    let resolveDone: () => void;
    const done = new Promise<void>((resolve) => resolveDone = resolve);
    const finish = (error?: string, crashed = false) => {
      if (this.#running.get(job.id)?.worker !== worker) return;
      this.#running.delete(job.id);
      if (crashed || this.#stopped) this.#terminate(worker);
      else this.#park(worker);
      if (error) {
        try {
          store.setStatus(job.id, "failed", ["processing"], error);
        } catch (failure) {
          // Not even the failure could be stored (a disk full to the last
          // byte): the job stays processing, and is picked up again at the
          // next start or by the stuck-job sweep, rather than the server
          // going down.
          logError(`job ${job.id}: could not record failure:`, failure);
        }
      }
      this.#emit(job.id);
      resolveDone();
      this.pump();
    };
    this.#reserve.hold();
    this.#running.set(job.id, {
      worker,
      done,
      finish,
      lastProgress: Date.now(),
    });
    this.#emit(job.id);
    worker.postMessage({ type: "start", jobId: job.id } satisfies ToWorker);
  }
}
