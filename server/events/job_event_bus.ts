// Job change notifications between the processes that run jobs and the ones
// holding WebSocket subscribers. In one process this is a listener set
// (server/jobs/job_events.ts); with several replicas it is PostgreSQL
// LISTEN/NOTIFY. A change is small (the job id plus a few fields, under 8 kB
// as NOTIFY demands); a replica that needs the whole job re-reads it from
// storage.
import { logError } from "../log.ts";

/** A small JSON object describing what changed (status, counters). */
export type JobChange = Record<string, unknown>;

export type JobChangeListener = (jobId: number, change: JobChange) => void;

export interface JobEventBus {
  /**
   * Announces a change. Changes to one job are throttled: the first goes out
   * at once, later ones within the interval are coalesced into the newest,
   * which goes out when the interval ends. Rejects a payload over the limit.
   */
  publish(jobId: number, change: JobChange): Promise<void>;
  /** Listens to every job's changes; returns the unsubscribe function. */
  subscribe(listener: JobChangeListener): () => void;
  /**
   * Called after the bus lost and regained its connection, when changes may
   * have been missed: subscribers re-read the jobs they show.
   */
  onResync(listener: () => void): () => void;
  /** Sends coalesced changes still waiting, then releases connections. */
  close(): Promise<void>;
}

/** PostgreSQL's NOTIFY payload limit is 8000 bytes; keep a margin. */
export const MAX_CHANGE_BYTES = 7900;

/** Fewest milliseconds between two announced changes of one job. */
export const DEFAULT_MIN_INTERVAL_MS = 250;

export function encodeChange(jobId: number, change: JobChange): string {
  const text = JSON.stringify({ jobId, change });
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_CHANGE_BYTES) {
    throw new RangeError(
      `job ${jobId} change is ${bytes} bytes; at most ${MAX_CHANGE_BYTES}`,
    );
  }
  return text;
}

/** Calls every listener, isolating each one's failure from the others. */
export function deliver(
  listeners: Iterable<JobChangeListener>,
  jobId: number,
  change: JobChange,
): void {
  for (const listener of listeners) {
    try {
      listener(jobId, change);
    } catch (error) {
      logError("job change listener failed:", error);
    }
  }
}

/**
 * Per-job throttle: sends the first change at once and at most one more per
 * interval, always the newest, so a job's final state is never dropped.
 */
export class ChangeThrottle {
  #waiting = new Map<number, {
    change: JobChange | null;
    timer: ReturnType<typeof setTimeout>;
  }>();
  #send: (jobId: number, change: JobChange) => Promise<void>;
  #intervalMs: number;

  constructor(
    send: (jobId: number, change: JobChange) => Promise<void>,
    intervalMs = DEFAULT_MIN_INTERVAL_MS,
  ) {
    this.#send = send;
    this.#intervalMs = intervalMs;
  }

  async push(jobId: number, change: JobChange): Promise<void> {
    const window = this.#waiting.get(jobId);
    if (window) {
      window.change = change;
      return;
    }
    this.#open(jobId);
    await this.#send(jobId, change);
  }

  #open(jobId: number): void {
    const timer = setTimeout(async () => {
      const window = this.#waiting.get(jobId);
      this.#waiting.delete(jobId);
      if (window?.change) {
        // The coalesced change opens the next interval in turn.
        this.#open(jobId);
        await this.#send(jobId, window.change).catch((error) =>
          logError("job change not sent:", error)
        );
      }
    }, this.#intervalMs);
    this.#waiting.set(jobId, { change: null, timer });
  }

  /** Sends every coalesced change now and stops the timers. */
  async flush(): Promise<void> {
    const windows = [...this.#waiting.entries()];
    this.#waiting.clear();
    for (const [jobId, window] of windows) {
      clearTimeout(window.timer);
      if (window.change) await this.#send(jobId, window.change);
    }
  }
}
