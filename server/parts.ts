// What the server runs on, the same parts in either mode: openEmbedded
// (embedded.ts: SQLite, the Deno KV queue, job threads in this process) or
// openScaleOut (scale_out.ts: PostgreSQL, pg-boss, LISTEN/NOTIFY, uploads
// in S3 or DATA_DIR). main.ts and the route tests build the app from them
// one way.
import type { BlobStore } from "./blobs/blob_store.ts";
import type { DataFollow } from "./databases/scheduled_update.ts";
import type { Engine } from "./enrichment/engine.ts";
import type { JobEvents } from "./jobs/job_events.ts";
import type { JobResults } from "./results/job_results.ts";
import type { RateLimiter } from "./rdap/rate_limiter.ts";
import type { RdapCache } from "./storage/rdap_cache.ts";
import type { JobStore } from "./storage/store_interface.ts";
import type { JobLifecycle } from "./jobs/job_lifecycle.ts";

export interface Parts {
  store: JobStore;
  /** Queues, cancels and restarts jobs. */
  runner: JobLifecycle;
  /** This process's feed of job changes (WebSocket subscribers). */
  events: JobEvents;
  /** Where uploads are copied for other machines (S3), or null. */
  blobs: BlobStore | null;
  /** Jobs' results: part files in the blob store, counts with the chunks. */
  results: JobResults;
  /** The engine of this process's lookups, its bundled data loaded. */
  engine: Engine;
  /** RDAP on: this process's rate limit and the cache (else null). */
  rdapPacer: RateLimiter | null;
  rdapCache: RdapCache | null;
  /** What this mode adds to the settings printed at start. */
  settings: Record<string, string | number>;
  /** Starts taking jobs in this process (and resumes unfinished ones). */
  startJobs(): Promise<void>;
  /**
   * Starts looking for updated data (update-databases) and taking it up
   * without a restart: this process's DATA_DIR (embedded), or the release
   * recorded in PostgreSQL (scaled out).
   */
  followDataUpdates(): DataFollow;
  /** Starts the hourly removals (and the stuck-job sweep, embedded). */
  scheduleHousekeeping(): void;
  /** Stops taking jobs and closes the connections. */
  close(): Promise<void>;
}
