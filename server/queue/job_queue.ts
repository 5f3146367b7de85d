// The queue of work units when a job is split across processes: a job is cut
// into chunks (byte ranges of its upload aligned to row starts) that any
// worker may take. Redelivery after a worker dies is the queue's business;
// stopping a running chunk on cancel is the worker's (it checks the job's
// status at its progress commits).

/** One unit of work: rows [firstRow, firstRow + rows) of a job's upload. */
export interface ChunkMessage {
  jobId: number;
  /** 0-based position of the chunk within its job. */
  chunk: number;
  /** Byte range of the upload, end exclusive, both at row starts. */
  start: number;
  end: number;
  /** Index of the chunk's first data row within the whole file. */
  firstRow: number;
}

export interface QueuedChunk extends ChunkMessage {
  /** The queue's id for this delivery's message. */
  messageId: string;
  /** 0 on first delivery; higher when the chunk is retried or redelivered. */
  attempt: number;
}

/**
 * Handles one chunk. Resolving marks it done; throwing retries it. `signal`
 * aborts when this process stops taking chunks (close).
 */
export type ChunkHandler = (
  chunk: QueuedChunk,
  signal: AbortSignal,
) => Promise<void>;

export interface WorkOptions {
  /** Chunks this process handles at once. */
  concurrency?: number;
}

export interface JobQueue {
  /** Queues chunks; returns once they are durable. */
  enqueue(chunks: ChunkMessage[]): Promise<void>;
  /** Starts taking chunks in this process until close(). */
  work(handler: ChunkHandler, options?: WorkOptions): Promise<void>;
  /** Removes a job's chunks that no worker has taken yet; returns how many. */
  cancel(jobId: number): Promise<number>;
  /** Chunks of a job still waiting or running. */
  pending(jobId: number): Promise<number>;
  /** Stops workers (running handlers are abandoned) and closes connections. */
  close(): Promise<void>;
}
