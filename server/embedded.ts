// The parts of the default mode (no DATABASE_URL): jobs, results and the
// RDAP cache in SQLite (DATA_DIR/enrichment.db), the Deno KV queue
// (DATA_DIR/queue.kv), and a pool of job threads in this process running
// jobs a chunk at a time.
import { mkdir } from "node:fs/promises";
import { logError } from "./log.ts";
import { join } from "node:path";
import type { Config } from "./config.ts";
import {
  Engine,
  type EngineData,
  loadEngineData,
} from "./enrichment/engine.ts";
import { scheduleHousekeeping } from "./jobs/housekeeping.ts";
import { JobEvents } from "./jobs/job_events.ts";
import { JobLifecycle } from "./jobs/job_lifecycle.ts";
import { ThreadPool } from "./jobs/thread_pool.ts";
import { KvQueue } from "./queue/kv_queue.ts";
import type { Parts } from "./parts.ts";
import { filesSource, watchData } from "./databases/data_watch.ts";
import { rdapProcessParts } from "./rdap/rdap_setup.ts";
import { SqliteRdapCache } from "./storage/rdap_cache.ts";
import { Store } from "./storage/store.ts";
import { LocalBlobStore } from "./blobs/local_blobs.ts";
import { JobResults } from "./results/job_results.ts";
import { migrateParts } from "./results/part_migration.ts";
import { SqliteChunkProgress } from "./storage/sqlite_chunks.ts";

export interface EmbeddedOptions {
  /** The bundled data, when the caller has it loaded (tests share it). */
  engineData?: EngineData;
  /** Run SQLite's quick_check on the database first (the server does). */
  check?: boolean;
}

export async function openEmbedded(
  config: Config,
  options: EmbeddedOptions = {},
): Promise<Parts> {
  const uploadsDir = join(config.dataDir, "uploads");
  await mkdir(uploadsDir, { recursive: true });
  const dbPath = join(config.dataDir, "enrichment.db");
  const store = new Store(dbPath, { check: options.check });
  const engineData = options.engineData ?? await loadEngineData(config);
  const { dns } = config;
  const kvPath = join(config.dataDir, "queue.kv");
  const kv = await Deno.openKv(kvPath).catch((error) => {
    store.close();
    throw new Error(
      `cannot open the job queue at ${kvPath}: ${(error as Error).message}. ` +
        "Move the file aside to start with an empty queue (jobs themselves " +
        "are kept in the database and resume).",
    );
  });
  const events = new JobEvents();
  const { rdapPacer, rdapCache } = rdapProcessParts(
    config.rdap,
    (options) => new SqliteRdapCache(store.db, options),
  );
  // Results in DATA_DIR/results (part files of each job's chunks).
  const results = new JobResults(
    new LocalBlobStore(config.dataDir),
    new SqliteChunkProgress(store),
  );
  await migrateParts(store, results);
  const queue = new KvQueue(kv, config.jobConcurrency);
  const threads = new ThreadPool({
    store,
    dbPath,
    uploadsDir,
    progressRows: config.progressRows,
    engineData,
    dns,
    results,
    rdap: config.rdap,
    rdapPacer,
    idleWorkerMs: config.jobWorkerIdleSeconds * 1000,
    retireRows: config.jobWorkerRetireRows,
    waiting: () => queue.waiting(),
  });
  const runner = new JobLifecycle({
    store,
    chunks: results.chunks,
    queue,
    uploadsDir,
    dataDir: config.dataDir,
    chunkSizes: config.chunkSizes,
    announce: (job) => events.emit(job),
    blobs: null,
    stallMs: config.jobStallSeconds * 1000,
    // Room to record the failure itself.
    beforeFail: (failure) => {
      if (failure.kind === "diskFull") threads.releaseReserve();
    },
  });
  const engine = new Engine(engineData, dns);
  return {
    store,
    runner,
    events,
    blobs: null,
    results,
    engine,
    rdapPacer,
    rdapCache,
    settings: {
      JOB_CONCURRENCY: config.jobConcurrency,
      JOB_THREADS: config.jobThreads,
      CHUNK_ROWS: config.chunkSizes.rows,
      DNS_CHUNK_ROWS: config.chunkSizes.dnsRows,
    },
    async startJobs() {
      await runner.work(threads.run, config.jobThreads);
      // Meanwhile the server answers.
      runner.resume().catch((error) => logError("resuming jobs:", error));
    },
    followDataUpdates() {
      // Lookups answer from the new data at once; jobs under way finish on
      // theirs (threads.useData).
      const watch = watchData(
        filesSource(config),
        config.databaseCheckSeconds * 1000,
        (data) => {
          engine.useData(data);
          threads.useData(data);
        },
      );
      return {
        claimSchedule: () => Promise.resolve(true),
        updated: () => watch.check(),
      };
    },
    scheduleHousekeeping() {
      scheduleHousekeeping({
        store,
        stuckJobs: () => runner.sweep(),
        uploadsDir,
        rdapCache,
      });
    },
    async close() {
      runner.close();
      await queue.close();
      threads.close();
      kv.close();
      store.close();
    },
  };
}
