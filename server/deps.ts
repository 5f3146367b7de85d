// What the HTTP app is built from. Each router takes the part it uses
// (Pick<AppDeps, ...>), so routes never import the app that mounts them.
import type { BlobStore } from "./blobs/blob_store.ts";
import type { Access } from "./access/install_access.ts";
import type { Config } from "./config.ts";
import type { Engine } from "./enrichment/engine.ts";
import type { JobEvents } from "./jobs/job_events.ts";
import type { JobResults } from "./results/job_results.ts";
import type { JobStore } from "./storage/store_interface.ts";
import type { JobLifecycle } from "./jobs/job_lifecycle.ts";
import type { Pacer } from "./rdap/rate_limiter.ts";
import type { RdapCache } from "./storage/rdap_cache.ts";

export interface AppDeps {
  config: Config;
  store: JobStore;
  engine: Engine;
  runner: JobLifecycle;
  events: JobEvents;
  /** Where uploads are copied for other machines (S3); absent: local only. */
  blobs?: BlobStore | null;
  /** Jobs' results: their chunks' parts and counts. */
  results: JobResults;
  /** Sessions, ownership rules, the lock, lookup API keys. */
  access: Access;
  /** The process's RDAP rate limit (null or absent: RDAP is off). */
  rdapPacer?: Pacer | null;
  /** The store's RDAP cache (SQLite or PostgreSQL; null or absent: off). */
  rdapCache?: RdapCache | null;
}
