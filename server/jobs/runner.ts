// Runs jobs in Web Workers, fed by the Deno KV queue. SQLite is the truth
// about a job; a queue message only says "look for work". A job found in
// "processing" with no live worker here (after a crash or restart) is
// picked up again from its last checkpoint.
import type { EngineData } from "../enrichment/engine.ts";
import type { DnsSettings } from "../enrichment/reverse_dns.ts";
import type { JobRecord, Store } from "../storage/store.ts";
import type { JobEvents } from "./job_events.ts";
import type { FromWorker, ToWorker } from "./worker_protocol.ts";

export interface RunnerOptions {
  store: Store;
  events: JobEvents;
  kv: Deno.Kv;
  engineData: EngineData;
  dns: DnsSettings;
  dbPath: string;
  uploadsDir: string;
  concurrency: number;
  checkpointRows: number;
}

interface Running {
  worker: Worker;
  done: Promise<void>;
}

const WORK_MESSAGE = { type: "work" } as const;

export class JobRunner {
  #running = new Map<number, Running>();
  #stopped = false;

  constructor(readonly options: RunnerOptions) {}

  /** Listens to the queue and resumes whatever was left unfinished. */
  start(): void {
    this.options.kv.listenQueue((message) => {
      if ((message as { type?: string })?.type === WORK_MESSAGE.type) {
        this.pump();
      }
    });
    this.pump();
  }

  /** Tells the queue there is work; survives a restart of the server. */
  async enqueue(): Promise<void> {
    await this.options.kv.enqueue(WORK_MESSAGE);
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
    running?.worker.postMessage({ type: "cancel" } satisfies ToWorker);
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
    for (const running of this.#running.values()) {
      running.worker.postMessage({ type: "cancel" } satisfies ToWorker);
    }
    const grace = new Promise((resolve) => setTimeout(resolve, 2000));
    await Promise.race([
      Promise.all([...this.#running.values()].map((r) => r.done)),
      grace,
    ]);
    for (const running of this.#running.values()) running.worker.terminate();
    this.#running.clear();
  }

  #emit(jobId: number): void {
    const job = this.options.store.getJob(jobId);
    if (job) this.options.events.emit(job);
  }

  #spawn(job: JobRecord): void {
    const { options } = this;
    const worker = new Worker(
      new URL("./job_worker.ts", import.meta.url).href,
      { type: "module", name: `job-${job.id}` },
    );
    let finish: () => void;
    const done = new Promise<void>((resolve) => finish = resolve);
    this.#running.set(job.id, { worker, done });
    const end = (error?: string) => {
      if (!this.#running.has(job.id)) return;
      this.#running.delete(job.id);
      worker.terminate();
      if (error) {
        options.store.setStatus(job.id, "failed", ["processing"], error);
      }
      this.#emit(job.id);
      finish();
      this.pump();
    };
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.type === "progress") options.events.emit(message.job);
      else if (message.type === "done") end();
      else if (message.type === "error") {
        console.error(`job ${job.id} failed: ${message.message}`);
        end(`Processing stopped: ${message.message}`);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      console.error(`job ${job.id} worker crashed: ${event.message}`);
      end(`Processing stopped: ${event.message}`);
    };
    this.#emit(job.id);
    worker.postMessage(
      {
        type: "start",
        jobId: job.id,
        dbPath: options.dbPath,
        uploadsDir: options.uploadsDir,
        checkpointRows: options.checkpointRows,
        engineData: options.engineData,
        dns: options.dns,
      } satisfies ToWorker,
    );
  }
}
