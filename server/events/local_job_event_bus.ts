// The single-process JobEventBus: the in-process listener set of
// server/jobs/job_events.ts (synchronous delivery, one failing listener does
// not stop the others) with the bus's size limit and per-job throttle. There
// is no connection to lose, so resync listeners are never called.
import {
  ChangeThrottle,
  DEFAULT_MIN_INTERVAL_MS,
  deliver,
  encodeChange,
  type JobChange,
  type JobChangeListener,
  type JobEventBus,
} from "./job_event_bus.ts";

export class LocalJobEventBus implements JobEventBus {
  #listeners = new Set<JobChangeListener>();
  #throttle: ChangeThrottle;

  constructor(minIntervalMs = DEFAULT_MIN_INTERVAL_MS) {
    this.#throttle = new ChangeThrottle((jobId, change) => {
      deliver(this.#listeners, jobId, change);
      return Promise.resolve();
    }, minIntervalMs);
  }

  publish(jobId: number, change: JobChange): Promise<void> {
    // Same limit as across processes, so code that works here works there.
    const copy = JSON.parse(encodeChange(jobId, change)).change;
    return this.#throttle.push(jobId, copy);
  }

  subscribe(listener: JobChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  onResync(_listener: () => void): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    await this.#throttle.flush();
    this.#listeners.clear();
  }
}
