// What the HTTP app is built from. Each router takes the part it uses
// (Pick<AppDeps, ...>), so routes never import the app that mounts them.
import type { Access } from "./access/install_access.ts";
import type { Config } from "./config.ts";
import type { Engine } from "./enrichment/engine.ts";
import type { JobEvents } from "./jobs/job_events.ts";
import type { JobRunner } from "./jobs/runner.ts";
import type { Store } from "./storage/store.ts";
import type { Pacer } from "./rdap/rate_limiter.ts";

export interface AppDeps {
  config: Config;
  store: Store;
  engine: Engine;
  runner: JobRunner;
  events: JobEvents;
  /** Sessions, ownership rules, the lock, lookup API keys. */
  access: Access;
  /** The process's RDAP rate limit (null or absent: RDAP is off). */
  rdapPacer?: Pacer | null;
}
