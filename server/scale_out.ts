// The parts of the scaled-out mode (DATABASE_URL set): PostgreSQL for jobs
// and their chunks (PgStore), the pg-boss queue, LISTEN/NOTIFY job events,
// and the blob store for uploads and results (S3-compatible when S3_* is
// set). ROLE decides whether this process takes jobs (main.ts).
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { blobConfigFromEnv, openBlobStore } from "./blobs/blob_config.ts";
import { LocalBlobStore } from "./blobs/local_blobs.ts";
import { JobResults } from "./results/job_results.ts";
import { migrateParts } from "./results/part_migration.ts";
import type { Config } from "./config.ts";
import { watchData } from "./databases/data_watch.ts";
import { JobEngines } from "./databases/job_engines.ts";
import { packagesInUse } from "./databases/installed.ts";
import {
  loadVersions,
  openRelease,
  releaseSource,
} from "./databases/release.ts";
import { Engine } from "./enrichment/engine.ts";
import { logError } from "./log.ts";
import { JOB_CACHE_ENTRIES } from "./enrichment/reverse_dns.ts";
import { JOB_CACHED_PLACES } from "./enrichment/geo_provider.ts";
import { PgJobEventBus } from "./events/pg_job_event_bus.ts";
import { scheduleHousekeeping } from "./jobs/housekeeping.ts";
import { JobEvents } from "./jobs/job_events.ts";
import { JobLifecycle } from "./jobs/job_lifecycle.ts";
import { type ChunkRunner, runChunk, THIS_PROCESS } from "./jobs/run_chunk.ts";
import type { Parts } from "./parts.ts";
import { PgBossQueue } from "./queue/pg_boss_queue.ts";
import { rdapProcessParts, registrationLookupFor } from "./rdap/rdap_setup.ts";
import type { Role } from "./scale_config.ts";
import { PgDataRelease } from "./storage/pg/pg_data_release.ts";
import { PgRdapCache } from "./storage/pg/pg_rdap_cache.ts";
import { PgStore } from "./storage/pg/pg_store.ts";

export async function openScaleOut(
  config: Config,
  databaseUrl: string,
  role: Role,
): Promise<Parts> {
  const uploadsDir = join(config.dataDir, "uploads");
  await mkdir(uploadsDir, { recursive: true });
  const connected = await connect(config, databaseUrl, role, uploadsDir)
    .catch((error) => {
      throw new Error(`cannot use DATABASE_URL: ${(error as Error).message}`);
    });
  const { store, runner, blobs, rdapCache } = connected;
  const release = new PgDataRelease(store.sql);
  const data = await openRelease(config, release);
  const { dns } = config;
  // Lookups; chunks run on engines of their jobs' data (JobEngines).
  const engine = new Engine(data, dns);
  const jobEngines = role === "api" ? null : new JobEngines(data, {
    // A process that runs chunks meets a job's addresses again in its
    // later chunks.
    make: (data) =>
      new Engine(
        data,
        { ...dns, cacheEntries: JOB_CACHE_ENTRIES },
        JOB_CACHED_PLACES,
      ),
    load: (versions) => loadVersions(config, versions),
  });
  return {
    ...connected,
    engine,
    settings: {
      DATABASE_URL: databaseUrl.replace(/\/\/[^@/]*@/, "//***@"),
      ROLE: role,
      JOB_CONCURRENCY: role === "api" ? "0 (api)" : config.jobConcurrency,
      CHUNK_ROWS: config.chunkSizes.rows,
      DNS_CHUNK_ROWS: config.chunkSizes.dnsRows,
    },
    // Each chunk runs on the data its job began on (JobEngines).
    startJobs: () => {
      const chunkRunner: Omit<ChunkRunner, "engine"> = {
        store,
        chunks: store.chunkProgress,
        results: connected.results,
        uploadsDir,
        progressRows: config.progressRows,
        registrationLookup: connected.registrationLookup,
        worker: THIS_PROCESS,
      };
      return runner.work(
        async ({ job, chunk, signal, onProgress }) => {
          const lease = await jobEngines!.forJob(job);
          try {
            return await runChunk(
              { ...chunkRunner, engine: lease.engine },
              job.id,
              chunk,
              () => signal.aborted,
              onProgress,
            );
          } finally {
            lease.release();
          }
        },
        config.jobConcurrency,
      );
    },
    followDataUpdates() {
      const watch = watchData(
        releaseSource(config, release),
        config.databaseCheckSeconds * 1000,
        (data) => {
          engine.useData(data);
          jobEngines?.useData(data);
        },
      );
      release.listen(() => watch.check()).catch((error) =>
        logError(
          "data release: LISTEN failed, looking every " +
            `${config.databaseCheckSeconds} s instead:`,
          error,
        )
      );
      return {
        claimSchedule: () => release.claimSchedule(),
        async updated() {
          await release.publish(packagesInUse(config));
          await watch.check();
        },
      };
    },
    scheduleHousekeeping() {
      // The queue hands a dead worker's chunk on; a chunk it gave up on
      // fails its job.
      scheduleHousekeeping({
        store,
        stuckJobs: () => runner.sweep(),
        uploadsDir,
        blobs,
        rdapCache,
      });
    },
  };
}

/** The connections: store, queue, event bus, blobs, RDAP cache. */
async function connect(
  config: Config,
  databaseUrl: string,
  role: Role,
  uploadsDir: string,
) {
  const blobConfig = blobConfigFromEnv(Deno.env.toObject(), config.dataDir);
  const blobs = blobConfig.kind === "s3" ? openBlobStore(blobConfig) : null;
  const store = await PgStore.open(databaseUrl);
  // Results with the uploads: S3, or the data directory on one machine.
  const results = new JobResults(
    blobs ?? new LocalBlobStore(config.dataDir),
    store.chunkProgress,
  );
  // Chunks stored a blob per section become one index, once.
  await migrateParts(store, results);
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
  const { rdapPacer, rdapCache } = rdapProcessParts(
    config.rdap,
    (options) => new PgRdapCache(store.sql, options),
  );
  const runner = new JobLifecycle({
    store,
    chunks: store.chunkProgress,
    queue,
    uploadsDir,
    dataDir: config.dataDir,
    chunkSizes: config.chunkSizes,
    // Small: every replica re-reads the job and tells its subscribers.
    announce: (job) =>
      bus.publish(job.id, {
        status: job.status,
        processedIPs: job.processedIPs,
      }),
    blobs,
    stallMs: config.jobStallSeconds * 1000,
  });
  const unsubscribe = [
    bus.subscribe((jobId, changed) => {
      // Cancelled on another replica: its chunks here stop.
      if (changed.status === "cancelled") runner.stopChunks(jobId);
      if (role === "worker") return;
      Promise.resolve(store.getJob(jobId)).then((job) => {
        if (job) events.emit(job);
      }).catch((error) => logError("job update:", error));
    }),
    // Changes may have been missed while the bus was reconnecting.
    bus.onResync(async () => {
      if (role === "worker") return;
      const jobs = await store.jobsWithStatus("pending", "processing");
      for (const job of jobs) events.emit(job);
    }),
  ];
  const registrationLookup = () =>
    rdapPacer && rdapCache
      ? registrationLookupFor(config.rdap, rdapCache, rdapPacer)
      : null;
  await bus.ready();
  return {
    store,
    runner,
    events,
    blobs,
    results,
    rdapPacer,
    rdapCache,
    registrationLookup,
    async close() {
      runner.close();
      for (const stop of unsubscribe) stop();
      await queue.close();
      await bus.close();
      await store.close();
    },
  };
}
