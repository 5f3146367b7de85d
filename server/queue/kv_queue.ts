// JobQueue of the embedded mode: the chunks wait in this process, and a
// message on the Deno KV queue (DATA_DIR/queue.kv) says there is work, which
// survives a restart. SQLite is the truth about a job's chunks: at start the
// lifecycle queues again whatever was left unfinished (JobLifecycle.resume),
// so a chunk already waiting or running is not queued twice. Up to
// `jobsAtOnce` jobs (JOB_CONCURRENCY, oldest first) hold places, and their
// chunks are handed out a chunk of each job in turn, so a large job uses
// every thread and a small one behind it still starts.
import type {
  ChunkHandler,
  ChunkMessage,
  JobQueue,
  QueuedChunk,
  WorkOptions,
} from "./job_queue.ts";
import { logError } from "../log.ts";

const WORK_MESSAGE = { type: "work" } as const;

/** Times a chunk whose handler threw is handed out again. */
const RETRY_LIMIT = 5;

/** A job with chunks here: waiting, and the numbers of those running. */
interface QueuedJob {
  waiting: QueuedChunk[];
  running: Set<number>;
}

export class KvQueue implements JobQueue {
  /** Jobs in the order they came: the first `jobsAtOnce` hold places. */
  #jobs = new Map<number, QueuedJob>();
  #handler: ChunkHandler | null = null;
  #slots = 1;
  /** The place whose job hands out the next chunk. */
  #turn = 0;
  #closing = new AbortController();
  /** The handlers running. */
  #deliveries = new Set<Promise<void>>();

  constructor(readonly kv: Deno.Kv, readonly jobsAtOnce: number) {}

  async enqueue(chunks: ChunkMessage[]): Promise<void> {
    for (const chunk of chunks) {
      const job: QueuedJob = this.#jobs.get(chunk.jobId) ??
        { waiting: [], running: new Set() };
      this.#jobs.set(chunk.jobId, job);
      if (
        job.running.has(chunk.chunk) ||
        job.waiting.some((waiting) => waiting.chunk === chunk.chunk)
      ) continue;
      const messageId = `${chunk.jobId}/${chunk.chunk}`;
      job.waiting.push({ ...chunk, messageId, attempt: 0 });
    }
    if (chunks.length > 0) await this.kv.enqueue(WORK_MESSAGE);
    this.#pump();
  }

  work(handler: ChunkHandler, options: WorkOptions = {}): Promise<void> {
    this.#handler = handler;
    this.#slots = options.concurrency ?? 1;
    this.kv.listenQueue((message) => {
      if ((message as { type?: string })?.type === WORK_MESSAGE.type) {
        this.#pump();
      }
    });
    this.#pump();
    return Promise.resolve();
  }

  cancel(jobId: number): Promise<number> {
    const job = this.#jobs.get(jobId);
    if (!job) return Promise.resolve(0);
    const removed = job.waiting.length;
    job.waiting = [];
    if (job.running.size === 0) this.#jobs.delete(jobId);
    return Promise.resolve(removed);
  }

  pending(jobId: number): Promise<number> {
    const job = this.#jobs.get(jobId);
    return Promise.resolve(job ? job.waiting.length + job.running.size : 0);
  }

  /** Whether a chunk waits for a place (idle threads are worth keeping). */
  waiting(): boolean {
    return [...this.#jobs.values()].some((job) => job.waiting.length > 0);
  }

  /** Stops running chunks; waits for them up to 2 s. */
  async close(): Promise<void> {
    this.#closing.abort(new Error("job queue closed"));
    // Handlers that ignore their signal are left behind, not awaited.
    await Promise.race([
      Promise.allSettled(this.#deliveries),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]);
    this.#jobs.clear();
  }

  /** Hands waiting chunks to the handler while there are free slots. */
  #pump(): void {
    while (
      !this.#closing.signal.aborted && this.#handler &&
      this.#deliveries.size < this.#slots
    ) {
      const next = this.#take();
      if (!next) return;
      this.#run(next.job, next.chunk);
    }
  }

  /** The next chunk of the jobs holding places, a chunk of each in turn. */
  #take(): { job: QueuedJob; chunk: QueuedChunk } | null {
    const placed = [...this.#jobs.values()].slice(0, this.jobsAtOnce);
    for (let i = 0; i < placed.length; i++) {
      const at = (this.#turn + i) % placed.length;
      const chunk = placed[at].waiting.shift();
      if (chunk) {
        this.#turn = at + 1;
        return { job: placed[at], chunk };
      }
    }
    return null;
  }

  #run(job: QueuedJob, chunk: QueuedChunk): void {
    const { signal } = this.#closing;
    job.running.add(chunk.chunk);
    const delivery = this.#handler!(chunk, signal).catch((error) => {
      if (signal.aborted) return; // queued again at the next start
      if (chunk.attempt < RETRY_LIMIT) {
        job.waiting.push({ ...chunk, attempt: chunk.attempt + 1 });
      } else logError(`job ${chunk.jobId} chunk ${chunk.chunk}:`, error);
    }).finally(() => {
      this.#deliveries.delete(delivery);
      job.running.delete(chunk.chunk);
      // A job with nothing left here gives its place up.
      if (
        job.waiting.length === 0 && job.running.size === 0 &&
        this.#jobs.get(chunk.jobId) === job
      ) this.#jobs.delete(chunk.jobId);
      this.#pump();
    });
    this.#deliveries.add(delivery);
  }
}
