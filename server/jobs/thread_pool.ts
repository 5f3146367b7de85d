// The executor of the embedded mode: chunks run on a pool of job threads
// (job_worker.ts, Web Workers) sized to the machine, one chunk a thread at a
// time, so a large job uses every core and the HTTP thread stays
// responsive. A thread keeps its engine and SQLite connection between
// chunks. What stopped a chunk crosses back as a named failure
// (job_failure.ts). Each job runs on the data it started with, to its last
// chunk, while new jobs take up new data (useData).
import { dirname } from "node:path";
import type { EngineData } from "../enrichment/engine.ts";
import type { DnsSettings } from "../enrichment/reverse_dns.ts";
import { logError } from "../log.ts";
import { trimMalloc } from "../malloc_trim.ts";
import { RDAP_DEFAULTS, type RdapConfig } from "../rdap/rdap_config.ts";
import type { RateLimiter } from "../rdap/rate_limiter.ts";
import { servePacer } from "../rdap/shared_pacer.ts";
import { runOnThread } from "../one_shot_thread.ts";
import { DiskReserve } from "../storage/disk_full.ts";
import type { ChunkProgress } from "../storage/chunk_progress.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobResults } from "../results/job_results.ts";
import type { Store } from "../storage/store.ts";
import { ChunkFailed, type JobFailure } from "./job_failure.ts";
import type { SummaryInput } from "./summary_worker.ts";
import type { ChunkRun } from "./job_lifecycle.ts";
import type { ChunkOutcome } from "./enrich_chunk.ts";

/** What every chunk of a thread needs, sent once and kept between chunks. */
type ThreadInit =
  & Pick<ThreadPoolOptions, "uploadsDir" | "progressRows" | "dns">
  & {
    dbPath: string;
    /** Where the results' part files go (results/ under it). */
    dataDir: string;
    engineData: EngineData;
    rdap: RdapConfig;
    /** Tokens of the process's RDAP rate limit (shared_pacer.ts), when on. */
    rdapPort: MessagePort | null;
  };

export type ToWorker =
  | { type: "init" } & ThreadInit
  | {
    type: "chunk";
    jobId: number;
    chunk: ChunkProgress;
    /** Whether a chunk that completes its job adds the summary up. */
    addsSummary: boolean;
  }
  | { type: "cancel"; jobId: number };

export type FromWorker =
  | { type: "progress"; job: JobRecord }
  | { type: "done"; outcome: ChunkOutcome }
  | { type: "failed"; failure: JobFailure };

export interface ThreadPoolOptions {
  store: Store;
  dbPath: string;
  uploadsDir: string;
  progressRows: number;
  /** The data new jobs run on (useData changes it). */
  engineData: EngineData;
  dns: DnsSettings;
  /** Registration data settings (absent: off). */
  rdap?: RdapConfig;
  /**
   * The process's results, told when a job's summary is being added up on
   * a thread of its own (absent: nobody waits for it).
   */
  results?: JobResults;
  /** The process's RDAP rate limit, shared with every job thread. */
  rdapPacer?: RateLimiter | null;
  /**
   * How long a thread with no chunk is kept for the next one; then it ends
   * and its memory goes back to the system (server/v8_flags.ts).
   */
  idleWorkerMs?: number;
  /** Rows after which a thread with no chunk ends at once, no chunk waiting. */
  retireRows?: number;
  /** Whether a chunk waits for a thread (the queue's). */
  waiting(): boolean;
}

/** A job thread: its data, the rows it was handed, its chunk or its end. */
interface Thread {
  worker: Worker;
  data: EngineData;
  rows: number;
  /** The chunk it runs: where its progress goes, and how it ends. */
  chunk?: {
    onProgress(job: JobRecord): void;
    settle(outcome: ChunkOutcome | ChunkFailed): void;
  };
  /** Idle: when it ends unless a chunk takes it first. */
  retire?: ReturnType<typeof setTimeout>;
}

// A thread with no chunk to take is kept a minute for the next one: a new
// thread costs a job some 1.5 s (its modules, its engine, code not yet
// optimised), most of a small job's time. One that has run many rows ends
// at once instead, its memory (its heap grew over a large job) back to the
// system.
const DEFAULT_IDLE_WORKER_MS = 60_000;
const DEFAULT_RETIRE_ROWS = 100_000;

export class ThreadPool {
  #threads = new Set<Thread>();
  /** The data each job under way runs on. */
  #jobData = new Map<number, EngineData>();
  #data: EngineData;
  #closed = false;
  readonly #reserve: DiskReserve;

  constructor(readonly options: ThreadPoolOptions) {
    this.#data = options.engineData;
    this.#reserve = new DiskReserve(dirname(options.dbPath));
  }

  /**
   * New jobs run on `data` from now on; a job under way finishes on the
   * data it started with. Idle threads of data no job runs on end now, so
   * two copies live no longer than needed.
   */
  useData(data: EngineData): void {
    this.#data = data;
    this.#endUnusedThreads();
  }

  /** Gives the disk reserve up: room to record a failure on a full disk. */
  releaseReserve(): void {
    this.#reserve.release();
  }

  /** Runs a chunk on a thread (the lifecycle's executor). */
  run = ({ job, chunk, signal, onProgress }: ChunkRun) => {
    const data = this.#dataFor(job);
    const thread = this.#takeIdle(data) ?? this.#newThread(data);
    this.#reserve.hold();
    thread.rows += chunk.rows;
    // A thread past retireRows ends with its chunk (nothing waiting), its
    // heap grown by the job: the summary of a job its chunk completes is
    // added up on a new thread once it has ended, not in that heap while
    // the job is downloaded. The job shows completed to the lifecycle after
    // its summary is kept, as when the thread adds it up.
    const addsSummary = thread.rows <= this.#retireRows;
    // The completed record held back; until its summary is kept, a summary
    // asked for waits for it (JobResults.addingSummary).
    let held: { record: JobRecord; kept: PromiseWithResolvers<void> } | null =
      null;
    return new Promise<ChunkOutcome>((resolve, reject) => {
      const onAbort = () => {
        const reason = signal.reason as JobFailure | undefined;
        // A thread stuck in one row may not read messages: ended, not asked.
        if (reason?.kind === "stalled") {
          this.#ended(thread, true);
          reject(new ChunkFailed(reason));
        } else thread.worker.postMessage({ type: "cancel", jobId: job.id });
      };
      signal.addEventListener("abort", onAbort);
      thread.chunk = {
        onProgress: (record) => {
          if (!addsSummary && record.status === "completed") {
            held = { record, kept: Promise.withResolvers() };
            this.options.results?.addingSummary(job.id, held.kept.promise);
          } else onProgress(record);
        },
        settle: (outcome) => {
          signal.removeEventListener("abort", onAbort);
          const completed = held;
          if (outcome instanceof ChunkFailed) {
            completed?.kept.resolve();
            reject(outcome);
          } else if (!completed) resolve(outcome);
          else {
            this.#addSummary(job.id).then(() => {
              completed.kept.resolve();
              onProgress(completed.record);
              resolve(outcome);
            });
          }
        },
      };
      thread.worker.postMessage(
        {
          type: "chunk",
          jobId: job.id,
          chunk,
          addsSummary,
        } satisfies ToWorker,
      );
    });
  };

  get #retireRows(): number {
    return this.options.retireRows ?? DEFAULT_RETIRE_ROWS;
  }

  /** A completed job's summary, added up and kept on a thread of its own. */
  async #addSummary(jobId: number): Promise<void> {
    const { dbPath } = this.options;
    await runOnThread<SummaryInput, void>(
      new URL("./summary_worker.ts", import.meta.url),
      "job-summary",
      { dbPath, dataDir: dirname(dbPath), jobId },
      `job ${jobId}: adding its summary up`,
    ).catch((error) => logError(error.message));
  }

  /** Ends every thread (shutdown). */
  close(): void {
    this.#closed = true;
    for (const thread of this.#threads) this.#terminate(thread);
  }

  /**
   * The data a job runs on: the version it records, while this pool holds
   * it. Otherwise (its data was replaced before it started, or before a
   * restart) the current data: a job with no chunk done simply records it;
   * one with chunks done records both, so its download says so.
   */
  #dataFor(job: JobRecord): EngineData {
    const held = this.#jobData.get(job.id);
    if (held) return held;
    let data = this.#data;
    if (job.dataVersion !== this.#data.version) {
      const old = [
        ...this.#jobData.values(),
        ...[...this.#threads].map((thread) => thread.data),
      ].find((d) => d.version === job.dataVersion);
      if (old) data = old;
      else {
        // Rows counted before its first chunk here: its done chunks'.
        const started = job.processedIPs > 0;
        this.options.store.setDataVersion(
          job.id,
          started && job.dataVersion
            ? `${job.dataVersion} (its first chunks); then ${this.#data.version}`
            : this.#data.version,
        );
      }
    }
    this.#jobData.set(job.id, data);
    return data;
  }

  /** Ends idle threads whose data is neither current nor a running job's. */
  #endUnusedThreads(): void {
    for (const jobId of this.#jobData.keys()) {
      if (this.options.store.getJob(jobId)?.status !== "processing") {
        this.#jobData.delete(jobId);
      }
    }
    const used = new Set([this.#data, ...this.#jobData.values()]);
    for (const thread of this.#threads) {
      if (!thread.chunk && !used.has(thread.data)) this.#terminate(thread);
    }
  }

  /** A thread's chunk ended (whatever the ending): the thread is free. */
  #ended(thread: Thread, crashed = false): void {
    thread.chunk = undefined;
    // What the chunk's buffers left free in malloc's arenas goes back now:
    // otherwise each thread's arena keeps its own high-water mark.
    trimMalloc();
    if (
      crashed || this.#closed ||
      (thread.rows > this.#retireRows && !this.options.waiting())
    ) this.#terminate(thread);
    else {
      // Kept for the next chunk, for idleWorkerMs.
      thread.retire = setTimeout(
        () => this.#terminate(thread),
        this.options.idleWorkerMs ?? DEFAULT_IDLE_WORKER_MS,
      );
    }
    this.#endUnusedThreads();
  }

  /** The idle thread last started holding `data`, or null. */
  #takeIdle(data: EngineData): Thread | null {
    const thread = [...this.#threads].findLast((t) =>
      !t.chunk && t.data === data
    );
    if (!thread) return null;
    clearTimeout(thread.retire);
    return thread;
  }

  #terminate(thread: Thread): void {
    clearTimeout(thread.retire);
    this.#threads.delete(thread);
    thread.worker.terminate();
  }

  #newThread(data: EngineData): Thread {
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
        progressRows: options.progressRows,
        engineData: data,
        dns: options.dns,
        rdap: options.rdap ?? RDAP_DEFAULTS,
        rdapPort,
      } satisfies ToWorker,
      rdapPort ? [rdapPort] : [],
    );
    const thread: Thread = { worker, data, rows: 0 };
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      const { chunk } = thread;
      if (!chunk) return;
      if (message.type === "progress") return chunk.onProgress(message.job);
      this.#ended(thread);
      chunk.settle(
        message.type === "done"
          ? message.outcome
          : new ChunkFailed(message.failure),
      );
    };
    worker.onerror = (event) => {
      event.preventDefault();
      logError(`job thread crashed: ${event.message}`);
      const { chunk } = thread;
      this.#ended(thread, true);
      chunk?.settle(
        new ChunkFailed({ kind: "crashed", detail: event.message }),
      );
    };
    this.#threads.add(thread);
    return thread;
  }
}
