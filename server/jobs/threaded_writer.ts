// A BatchWriter whose commits run on a thread of their own, so storing rows
// overlaps with reading and looking up the next ones.
import type { JobRecord } from "../storage/job_rows.ts";
import type { BatchWriter } from "./batch_writer.ts";
import type { Checkpoint, JobStart } from "./checkpoint_codec.ts";
import type { FromWriter, ToWriter, WriterInit } from "./worker_protocol.ts";

/** Starts a writer thread and connects it to `port`. */
export function startWriterThread(dbPath: string, port: MessagePort): Worker {
  const worker = new Worker(
    new URL("./result_writer_worker.ts", import.meta.url).href,
    { type: "module", name: "result-writer" },
  );
  worker.postMessage(
    { type: "init", dbPath, port } satisfies WriterInit,
    [port],
  );
  return worker;
}

/**
 * Commits on a thread of its own (result_writer_worker.ts), in the order
 * written, talking over a MessagePort. The server's runner starts that
 * thread beside each job worker, because a worker started from inside a
 * worker is slow to start; `ThreadedWriter.spawn` starts one from here.
 */
export class ThreadedWriter implements BatchWriter {
  #port: MessagePort;
  #thread: Worker | null;
  /** Replies to an earlier generation (before a reset) are ignored. */
  #gen = 0;
  #seq = 0;
  #pending = new Map<number, (job: JobRecord) => void>();
  #waiters: { count: number; resolve(): void; reject(e: Error): void }[] = [];
  #error: Error | null = null;
  /**
   * Messages written in this turn of the event loop, posted together as one
   * list: the writer thread commits a list's checkpoints in one transaction.
   */
  #outbox: ToWriter[] = [];

  constructor(port: MessagePort, thread: Worker | null = null) {
    this.#port = port;
    this.#thread = thread;
    port.onmessage = (event: MessageEvent<FromWriter>) => {
      const message = event.data;
      if (message.gen !== this.#gen) return;
      const committed = this.#pending.get(message.seq);
      this.#pending.delete(message.seq);
      if (message.type === "error") this.#fail(new Error(message.message));
      else committed?.(message.job);
      this.#wake();
    };
    thread?.addEventListener("error", (event) => {
      event.preventDefault();
      this.#fail(new Error(`result writer stopped: ${event.message}`));
    });
  }

  /** A writer with a thread of its own (tests, the profiler). */
  static spawn(dbPath: string): ThreadedWriter {
    const channel = new MessageChannel();
    const thread = startWriterThread(dbPath, channel.port1);
    return new ThreadedWriter(channel.port2, thread);
  }

  get backlog(): number {
    return this.#pending.size;
  }

  /** True after a failure: no more checkpoints until a reset. */
  get failed(): boolean {
    return this.#error !== null;
  }

  /** Forgets a failure and what was in flight (a new job). */
  reset(): void {
    this.#gen++;
    this.#outbox = [];
    this.#error = null;
    this.#pending.clear();
  }

  begin(start: JobStart): void {
    if (this.#error) throw this.#error;
    this.#send({ type: "begin", gen: this.#gen, start });
  }

  write(checkpoint: Checkpoint, committed: (job: JobRecord) => void): void {
    if (this.#error) throw this.#error;
    const seq = ++this.#seq;
    this.#pending.set(seq, committed);
    this.#send({ type: "commit", gen: this.#gen, seq, checkpoint });
  }

  waitForBacklogAtMost(count: number): Promise<void> {
    if (this.#error) return Promise.reject(this.#error);
    if (this.#pending.size <= count) return Promise.resolve();
    return new Promise((resolve, reject) =>
      this.#waiters.push({ count, resolve, reject })
    );
  }

  close(): void {
    this.#fail(new Error("result writer closed"));
    this.#port.close();
    this.#thread?.terminate();
  }

  #send(message: ToWriter): void {
    if (this.#outbox.push(message) > 1) return;
    // Posted once the job worker's synchronous run ends (it writes the
    // checkpoints of a file chunk in one run), before it waits for anything.
    queueMicrotask(() => {
      const messages = this.#outbox;
      this.#outbox = [];
      if (messages.length > 0 && !this.#error) {
        this.#port.postMessage(messages);
      }
    });
  }

  #fail(error: Error): void {
    this.#error ??= error;
    this.#pending.clear();
    for (const waiter of this.#waiters.splice(0)) waiter.reject(this.#error);
  }

  #wake(): void {
    this.#waiters = this.#waiters.filter((waiter) => {
      if (this.#pending.size > waiter.count) return true;
      waiter.resolve();
      return false;
    });
  }
}
