// Web Worker entry of a job thread (embedded mode): runs chunks of jobs off
// the HTTP thread, one at a time (run_chunk.ts, as PostgreSQL-mode workers
// do), committing them through its own SQLite connection; what stopped one
// goes back as a named failure. thread_pool.ts keeps a pool of these, so
// the engine and the connection are set up once per thread, not per chunk.
/// <reference lib="deno.worker" />
// The node:sqlite types of the rest of the program (StatementSync's
// setReturnArrays), for when this worker is type-checked on its own.
/// <reference types="npm:@types/node@^24" />
import { Engine } from "../enrichment/engine.ts";
import { JOB_CACHE_ENTRIES } from "../enrichment/reverse_dns.ts";
import { Store } from "../storage/store.ts";
import { SqliteChunkProgress } from "../storage/sqlite_chunks.ts";
import { LocalBlobStore } from "../blobs/local_blobs.ts";
import { JobResults } from "../results/job_results.ts";
import { lowerThisThread } from "./background_priority.ts";
import type { FromWorker, ToWorker } from "./thread_pool.ts";
import { failureOf } from "./job_failure.ts";
import { registrationLookupFor } from "../rdap/rdap_setup.ts";
import { PortPacer } from "../rdap/shared_pacer.ts";
import { SqliteRdapCache } from "../storage/rdap_cache.ts";
import { type ChunkRunner, runChunk, THIS_PROCESS } from "./run_chunk.ts";

let setup: ChunkRunner | null = null;
let current: { jobId: number; cancelled: boolean } | null = null;
const post = (message: FromWorker) => self.postMessage(message);

lowerThisThread();

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "init") {
    const store = new Store(message.dbPath);
    const results = new JobResults(
      new LocalBlobStore(message.dataDir),
      new SqliteChunkProgress(store),
    );
    const pacer = message.rdapPort ? new PortPacer(message.rdapPort) : null;
    const rdapCache = new SqliteRdapCache(store.db, {
      maxAgeDays: message.rdap.cacheDays,
    });
    setup = {
      store,
      chunks: results.chunks,
      results,
      engine: new Engine(
        message.engineData,
        { ...message.dns, cacheEntries: JOB_CACHE_ENTRIES },
        0,
      ),
      uploadsDir: message.uploadsDir,
      progressRows: message.progressRows,
      registrationLookup: () =>
        pacer ? registrationLookupFor(message.rdap, rdapCache, pacer) : null,
      worker: THIS_PROCESS,
    };
    return;
  }
  if (message.type === "cancel") {
    if (current?.jobId === message.jobId) current.cancelled = true;
    return;
  }
  const run = { jobId: message.jobId, cancelled: false };
  current = run;
  try {
    if (!setup) throw new Error("job thread used before init");
    const outcome = await runChunk(
      setup,
      run.jobId,
      message.chunk,
      () => run.cancelled,
      (record) => post({ type: "progress", job: record }),
      message.addsSummary,
    );
    post({ type: "done", outcome });
  } catch (error) {
    post({ type: "failed", failure: failureOf(error) });
  } finally {
    current = null;
  }
};
