// The parts the program runs on when DATABASE_URL is set: PostgreSQL for jobs
// and results (PgStore), the pg-boss queue, LISTEN/NOTIFY job events, and the
// blob store for uploads (S3-compatible when S3_* is set).
import { blobConfigFromEnv, openBlobStore } from "./blobs/blob_config.ts";
import type { BlobStore } from "./blobs/blob_store.ts";
import type { Config } from "./config.ts";
import { PgJobEventBus } from "./events/pg_job_event_bus.ts";
import { JobEvents } from "./jobs/job_events.ts";
import { QueueRunner } from "./jobs/queue_runner.ts";
import { PgBossQueue } from "./queue/pg_boss_queue.ts";
import { RateLimiter } from "./rdap/rate_limiter.ts";
import { registrationLookupFor } from "./rdap/rdap_setup.ts";
import type { Role } from "./scale_config.ts";
import { PgRdapCache } from "./storage/pg/pg_rdap_cache.ts";
import { PgStore } from "./storage/pg/pg_store.ts";

export interface ScaleOut {
  store: PgStore;
  runner: QueueRunner;
  events: JobEvents;
  /** Set when uploads go to S3; null when they stay in DATA_DIR/uploads. */
  blobs: BlobStore | null;
  /** RDAP=on: this process's rate limit and the cache every replica shares. */
  rdapPacer: RateLimiter | null;
  rdapCache: PgRdapCache | null;
  close(): Promise<void>;
}

export async function openScaleOut(
  config: Config,
  databaseUrl: string,
  role: Role,
  uploadsDir: string,
): Promise<ScaleOut> {
  const blobConfig = blobConfigFromEnv(Deno.env.toObject(), config.dataDir);
  const blobs = blobConfig.kind === "s3" ? openBlobStore(blobConfig) : null;
  const store = await PgStore.open(databaseUrl);
  // Seconds without a heartbeat before a dead worker's job is handed on.
  const heartbeat = Number(Deno.env.get("QUEUE_HEARTBEAT_SECONDS") ?? 30);
  if (!Number.isInteger(heartbeat) || heartbeat < 10) {
    throw new Error("QUEUE_HEARTBEAT_SECONDS must be a whole number >= 10");
  }
  const queue = await PgBossQueue.open({
    databaseUrl,
    heartbeatSeconds: heartbeat,
    // How soon a lapsed heartbeat is noticed: a cheap query per process.
    monitorIntervalSeconds: 2,
  });
  const bus = new PgJobEventBus({ databaseUrl });
  const events = new JobEvents();
  // The rate limit is per process: RDAP_RATE holds for each replica and
  // worker, the cache table is shared (docs/SCALING.md).
  const rdapPacer = config.rdap.enabled
    ? new RateLimiter(config.rdap.rate)
    : null;
  const rdapCache = config.rdap.enabled
    ? new PgRdapCache(store.sql, { maxAgeDays: config.rdap.cacheDays })
    : null;
  const runner = new QueueRunner({
    store,
    queue,
    bus,
    events: role === "worker" ? null : events,
    blobs,
    uploadsDir,
    checkpointRows: config.checkpointRows,
    registrationLookup: () =>
      rdapPacer && rdapCache
        ? registrationLookupFor(config.rdap, rdapCache, rdapPacer)
        : null,
    chunks: store.chunkProgress,
    chunkRows: config.chunkRows,
  });
  await bus.ready();
  return {
    store,
    runner,
    events,
    blobs,
    rdapPacer,
    rdapCache,
    async close() {
      runner.close();
      await queue.close();
      await bus.close();
      await store.close();
    },
  };
}
