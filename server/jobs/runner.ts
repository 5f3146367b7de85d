// The embedded mode's job runner: a job is its chunks (as in PostgreSQL
// mode), run on a pool of job threads (job_worker.ts) sized to the machine,
// fed by the Deno KV queue. SQLite is the truth about a job and its chunks;
// a queue message only says "look for work". Up to `concurrency` jobs run
// at once and share the threads a chunk at a time, in turn; each thread
// stores its chunk's parts and commits it itself (jobs/chunk_writer.ts). A
// job found "processing" with no chunk running here (after a crash or
// restart) goes on with the chunks not done.
import { dirname, join } from "node:path";
import type { ChunkSizes } from "../config.ts";
import type { EngineData } from "../enrichment/engine.ts";
import type { DnsSettings } from "../enrichment/reverse_dns.ts";
import { logError } from "../log.ts";
import { logJobEnded, logJobStarted } from "./job_log.ts";
import { RDAP_DEFAULTS, type RdapConfig } from "../rdap/rdap_config.ts";
import type { RateLimiter } from "../rdap/rate_limiter.ts";
import { servePacer } from "../rdap/shared_pacer.ts";
import type { ChunkProgress } from "../storage/chunk_progress.ts";
import { DiskReserve, isDiskFull } from "../storage/disk_full.ts";
import type { Store } from "../storage/store.ts";
import type { JobControl } from "../storage/store_interface.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobEvents } from "./job_events.ts";
import type { JobResults } from "../results/job_results.ts";
import { FILE_GONE } from "./process_job.ts";
import { jobStoppedMessage } from "./stop_message.ts";
import { planJobChunks } from "./run_chunk.ts";
import type { FromWorker, ToWorker } from "./worker_protocol.ts";

export interface RunnerOptions {
  store: Store;
  /** Jobs' results (their parts in DATA_DIR/results). */
  results: JobResults;
  events: JobEvents;
  kv: Deno.Kv;
  /** The data new jobs run on (useData changes it). */
  engineData: EngineData;
  dns: DnsSettings;
  dbPath: string;
  uploadsDir: string;
  /** Jobs processed at once (JOB_CONCURRENCY). */
  concurrency: number;
  /** Job threads, each running one chunk at a time (JOB_THREADS). */
  threads: number;
  /** Data rows per chunk, at most. */
  chunkSizes: ChunkSizes;
  /**
   * How long a job thread with no chunk is kept for the next one; then it
   * ends and its memory goes back to the system (server/v8_flags.ts).
   */
  idleWorkerMs?: number;
  /**
   * Rows (of the chunks it was handed) after which a thread with no chunk
   * ends at once rather than being kept.
   */
  retireRows?: number;
  checkpointRows: number;
  /** Registration data settings (absent: off). */
  rdap?: RdapConfig;
  /** The process's RDAP rate limit, shared with every job thread. */
  rdapPacer?: RateLimiter | null;
  /**
   * JOB_STALL_SECONDS in ms: a job that commits no row for this long fails
   * and its threads are ended, so a stuck job never holds them for ever.
   */
  stallMs?: number;
}

/** A job this runner runs: its chunks waiting for a thread, and running. */
interface JobRun {
  waiting: ChunkProgress[];
  running: Map<Worker, number>;
  /** Date.now() at its start or its last committed rows. */
  lastProgress: number;
  /** The data it runs on, from its first chunk to its last. */
  data: EngineData;
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

// A thread with no chunk to take is kept a minute for the next one: a new
// thread costs a job some 1.5 s (its modules, its engine, code not yet
// optimised), most of a small job's time. One that has run many rows ends
// at once instead, its memory (its heap grew to 100-200 MB over a large
// job) back to the system: kept, two of them held that during the job's
// download (bench/RESULTS.md).
const DEFAULT_IDLE_WORKER_MS = 60_000;
const DEFAULT_RETIRE_ROWS = 100_000;

export class JobRunner implements JobControl {
  #jobs = new Map<number, JobRun>();
  /** Live job threads with no chunk, kept for the next one. */
  #idle: Worker[] = [];
  /** When each idle thread ends unless a chunk takes it first. */
  #retirements = new Map<Worker, ReturnType<typeof setTimeout>>();
  /** Threads running a chunk, and which job's. */
  #busy = new Map<Worker, number>();
  /** Rows of the chunks each live thread was handed. */
  #rowsRun = new Map<Worker, number>();
  #stopped = false;
  #watchdog: ReturnType<typeof setInterval> | undefined;
  /** The pump running now, and whether it must look again when done. */
  #pumping: Promise<void> | null = null;
  #again = false;
  /** Waiters for the runner to have no chunk running (stop). */
  #quiet: (() => void)[] = [];
  /** The data new jobs run on. */
  #data: EngineData;
  /** The data each live thread was given. */
  #threadData = new Map<Worker, EngineData>();

  readonly #reserve: DiskReserve;

  constructor(readonly options: RunnerOptions) {
    this.#reserve = new DiskReserve(dirname(options.dbPath));
    this.#data = options.engineData;
  }

  /**
   * New jobs run on `data` from now on; a job under way finishes on the
   * data it started with, kept until its last chunk ends. Idle threads of
   * data no job runs on end now, so two copies live no longer than needed.
   */
  useData(data: EngineData): void {
    this.#data = data;
    this.#endUnusedThreads();
  }

  /** Ends idle threads whose data is neither current nor a running job's. */
  #endUnusedThreads(): void {
    const used = new Set([
      this.#data,
      ...[...this.#jobs.values()].map((run) => run.data),
    ]);
    for (const worker of [...this.#idle]) {
      if (!used.has(this.#threadData.get(worker)!)) this.#terminate(worker);
    }
  }

  /**
   * The data a job runs on: the version it records, while this runner
   * holds it. Otherwise (its data was replaced before it started, or
   * before a restart) the current data: a job with no chunk done simply
   * records it; one with chunks done records both, so its download says so.
   */
  #dataFor(job: JobRecord, started: boolean): EngineData {
    if (job.dataVersion === this.#data.version) return this.#data;
    for (const run of this.#jobs.values()) {
      if (run.data.version === job.dataVersion) return run.data;
    }
    this.options.store.setDataVersion(
      job.id,
      started && job.dataVersion
        ? `${job.dataVersion} (its first chunks); then ${this.#data.version}`
        : this.#data.version,
    );
    return this.#data;
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
    for (const [jobId, run] of this.#jobs) {
      if (run.running.size === 0 || now - run.lastProgress <= stallMs) {
        continue;
      }
      logError(`job ${jobId} made no progress for ${stallMs / 1000} s`);
      // Ended, not asked: a thread stuck in one row may not read messages.
      this.#fail(jobId, stalledMessage(stallMs), true);
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

  /** Starts waiting jobs and chunks while there are places and threads. */
  pump(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#pumping) {
      this.#again = true;
      return this.#pumping;
    }
    this.#pumping = (async () => {
      do {
        this.#again = false;
        try {
          await this.#admitJobs();
          if (!this.#stopped) this.#dispatch();
        } catch (error) {
          logError("job runner:", error);
        }
      } while (this.#again && !this.#stopped);
      this.#pumping = null;
    })();
    return this.#pumping;
  }

  /** Takes waiting jobs (oldest first) up to `concurrency`, cut in chunks. */
  async #admitJobs(): Promise<void> {
    const { store, concurrency, uploadsDir, chunkSizes } = this.options;
    for (const job of store.jobsWithStatus("processing", "pending")) {
      if (this.#stopped || this.#jobs.size >= concurrency) return;
      if (this.#jobs.has(job.id)) continue;
      const resumed = job.status === "processing";
      if (!resumed) {
        if (!store.setStatus(job.id, "processing", ["pending"])) continue;
      }
      const path = join(uploadsDir, job.fileName);
      if (!await Deno.stat(path).then(() => true, () => false)) {
        store.setStatus(job.id, "failed", ["processing"], FILE_GONE);
        this.#emit(job.id, true);
        continue;
      }
      const { chunks: progress } = this.options.results;
      const chunks = await planJobChunks(
        store,
        progress,
        job,
        uploadsDir,
        chunkSizes,
      );
      // Chunks a crash stopped run again from their first row: until then
      // the job counts the rows of its done chunks.
      await progress.dropUnfinished(job.id);
      this.#jobs.set(job.id, {
        waiting: chunks.filter((chunk) => !chunk.done),
        running: new Map(),
        lastProgress: Date.now(),
        data: this.#dataFor(job, chunks.some((chunk) => chunk.done)),
      });
      const started = store.getJob(job.id);
      if (started) logJobStarted(started, resumed);
      this.#emit(job.id);
    }
  }

  /** Hands waiting chunks to free threads, a chunk of each job in turn. */
  #dispatch(): void {
    const { threads } = this.options;
    let handed = true;
    while (handed && this.#busy.size < threads && !this.#stopped) {
      handed = false;
      for (const [jobId, run] of this.#jobs) {
        if (this.#busy.size >= threads) return;
        const chunk = run.waiting.shift();
        if (!chunk) continue;
        this.#startChunk(jobId, run, chunk);
        handed = true;
      }
    }
    // Jobs with nothing left to run here are done with (completed, or
    // ended otherwise and said so); their places go to waiting jobs. One
    // still processing (its chunks were stopped with the server) is taken
    // again by the next look for work.
    for (const [jobId, run] of this.#jobs) {
      if (run.waiting.length === 0 && run.running.size === 0) {
        this.#jobs.delete(jobId);
        this.#emit(jobId);
        const status = this.options.store.getJob(jobId)?.status;
        if (status !== "processing") this.#again = true;
        this.#endUnusedThreads();
      }
    }
    // No chunk waits: idle threads that have run more than retireRows end.
    if (![...this.#jobs.values()].some((run) => run.waiting.length > 0)) {
      const retireRows = this.options.retireRows ?? DEFAULT_RETIRE_ROWS;
      for (const worker of this.#idle) {
        if (this.#rowsRun.get(worker)! > retireRows) this.#terminate(worker);
      }
    }
  }

  #startChunk(jobId: number, run: JobRun, chunk: ChunkProgress): void {
    const worker = this.#takeIdle(run.data) ?? this.#newWorker(run.data);
    this.#reserve.hold();
    this.#busy.set(worker, jobId);
    this.#rowsRun.set(worker, (this.#rowsRun.get(worker) ?? 0) + chunk.rows);
    run.running.set(worker, chunk.chunk);
    worker.postMessage(
      { type: "chunk", jobId, chunk: chunk.chunk } satisfies ToWorker,
    );
  }

  /** Cancels a pending or processing job; the rows of its done chunks stay. */
  async cancel(jobId: number): Promise<boolean> {
    const { store, results } = this.options;
    if (!store.setStatus(jobId, "cancelled", ["pending", "processing"])) {
      return false;
    }
    this.#stopChunks(jobId);
    await results.chunks.dropUnfinished(jobId);
    this.#emit(jobId, true);
    return true;
  }

  /** Puts a failed job back in line; it resumes from its checkpoints. */
  async restart(jobId: number): Promise<boolean> {
    if (!this.options.store.setStatus(jobId, "pending", ["failed"])) {
      return false;
    }
    this.#emit(jobId);
    await this.enqueue();
    return true;
  }

  /** Stops all threads (shutdown); their jobs resume at the next start. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#watchdog);
    // A look for work under way ends before the store closes.
    await this.#pumping;
    for (const jobId of this.#jobs.keys()) this.#stopChunks(jobId);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise((resolve) => timer = setTimeout(resolve, 2000));
    const quiet = new Promise<void>((resolve) => {
      if (this.#busy.size === 0) resolve();
      else this.#quiet.push(resolve);
    });
    await Promise.race([quiet, grace]);
    clearTimeout(timer);
    for (const worker of [...this.#busy.keys(), ...this.#idle]) {
      this.#terminate(worker);
    }
    this.#busy.clear();
    this.#jobs.clear();
    this.#idle = [];
  }

  /** Asks the threads running a job's chunks to stop; none start again. */
  #stopChunks(jobId: number): void {
    const run = this.#jobs.get(jobId);
    if (!run) return;
    run.waiting = [];
    for (const worker of run.running.keys()) {
      worker.postMessage({ type: "cancel", jobId } satisfies ToWorker);
    }
  }

  /**
   * Fails a job (unless it ended meanwhile) and stops its other chunks;
   * `crashed`: its threads are ended rather than asked.
   */
  #fail(jobId: number, error: string, crashed = false): void {
    let failed = false;
    try {
      failed = this.options.store.setStatus(
        jobId,
        "failed",
        ["processing"],
        error,
      );
      if (failed) {
        // Its done chunks' rows stay; the others run again on a restart.
        this.options.results.chunks.dropUnfinished(jobId).catch((failure) =>
          logError(`job ${jobId}: could not reset its open chunks:`, failure)
        );
      }
    } catch (failure) {
      // Not even the failure could be stored (a disk full to the last
      // byte): the job stays processing, and is picked up again at the
      // next start or by the stuck-job sweep, rather than the server going
      // down.
      logError(`job ${jobId}: could not record failure:`, failure);
    }
    const run = this.#jobs.get(jobId);
    if (crashed && run) {
      this.#jobs.delete(jobId);
      for (const worker of run.running.keys()) this.#chunkEnded(worker, true);
    } else this.#stopChunks(jobId);
    this.#emit(jobId, failed);
  }

  /** A thread's chunk ended (whatever the ending): the thread is free. */
  #chunkEnded(worker: Worker, crashed = false): void {
    const jobId = this.#busy.get(worker);
    this.#busy.delete(worker);
    if (jobId !== undefined) this.#jobs.get(jobId)?.running.delete(worker);
    if (crashed || this.#stopped) this.#terminate(worker);
    else this.#park(worker);
    if (this.#busy.size === 0) {
      for (const resolve of this.#quiet.splice(0)) resolve();
    }
    this.pump();
  }

  /** Keeps a thread with no chunk for the next one, for idleWorkerMs. */
  #park(worker: Worker): void {
    this.#idle.push(worker);
    const timer = setTimeout(
      () => this.#terminate(worker),
      this.options.idleWorkerMs ?? DEFAULT_IDLE_WORKER_MS,
    );
    this.#retirements.set(worker, timer);
  }

  /** An idle thread holding `data`, or null. */
  #takeIdle(data: EngineData): Worker | null {
    const at = this.#idle.findLastIndex((w) =>
      this.#threadData.get(w) === data
    );
    const worker = at < 0 ? null : this.#idle.splice(at, 1)[0];
    if (worker) {
      clearTimeout(this.#retirements.get(worker));
      this.#retirements.delete(worker);
    }
    return worker;
  }

  #terminate(worker: Worker): void {
    clearTimeout(this.#retirements.get(worker));
    this.#retirements.delete(worker);
    this.#rowsRun.delete(worker);
    this.#threadData.delete(worker);
    this.#idle = this.#idle.filter((w) => w !== worker);
    worker.terminate();
  }

  /** Announces a job's change; `ended`: it has just ended here (logged). */
  #emit(jobId: number, ended = false): void {
    const job = this.options.store.getJob(jobId);
    if (!job) return;
    if (ended) logJobEnded(job);
    this.options.events.emit(job);
  }

  #newWorker(data: EngineData): Worker {
    const { options } = this;
    const worker = new Worker(
      new URL("./job_worker.ts", import.meta.url).href,
      { type: "module", name: "job-worker" },
    );
    // One rate limit for every thread and the lookups: tokens over a port.
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
        dataDir: dirname(options.dbPath),
        uploadsDir: options.uploadsDir,
        checkpointRows: options.checkpointRows,
        engineData: data,
        dns: options.dns,
        rdap: options.rdap ?? RDAP_DEFAULTS,
        rdapPort,
      } satisfies ToWorker,
      rdapPort ? [rdapPort] : [],
    );
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      // Stopping: the store may be closed; a thread that ended is let go.
      if (this.#stopped) {
        if (message.type !== "progress") this.#chunkEnded(worker);
        return;
      }
      if (message.type === "progress") {
        const run = this.#jobs.get(message.job.id);
        if (run) run.lastProgress = Date.now();
        this.options.events.emit(message.job);
      } else if (message.type === "done") {
        this.#chunkEnded(worker);
      } else if (message.type === "error") {
        this.#chunkFailed(message.jobId, message.message);
        this.#chunkEnded(worker);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      logError(`job thread crashed: ${event.message}`);
      const jobId = this.#busy.get(worker);
      this.#chunkEnded(worker, true);
      if (jobId !== undefined) {
        this.#fail(jobId, `Processing stopped: ${event.message}`);
      }
    };
    this.#threadData.set(worker, data);
    return worker;
  }

  /** A chunk stopped by an error fails its job, unless the job ended. */
  #chunkFailed(jobId: number, message: string): void {
    // A job cancelled meanwhile ends with its next commit refused.
    if (this.options.store.getJob(jobId)?.status !== "processing") return;
    logError(`job ${jobId} failed: ${message}`);
    const diskFull = isDiskFull(message);
    // Room to record the failure itself.
    if (diskFull) this.#reserve.release();
    this.#fail(jobId, jobStoppedMessage(message, dirname(this.options.dbPath)));
  }
}
