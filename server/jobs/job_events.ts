// In-process notifications of job changes, for the WebSocket hub.
import type { JobRecord } from "../storage/job_rows.ts";
import { logError } from "../log.ts";

export type JobListener = (job: JobRecord) => void;

export class JobEvents {
  #listeners = new Set<JobListener>();

  on(listener: JobListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(job: JobRecord): void {
    for (const listener of this.#listeners) {
      try {
        listener(job);
      } catch (error) {
        logError("job listener failed:", error);
      }
    }
  }
}
