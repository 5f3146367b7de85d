// Web Worker entry: runs jobs off the HTTP thread, one at a time. The runner
// keeps a few of these alive, so the engine and the database connection are
// set up once per worker, not once per job.
/// <reference lib="deno.worker" />
import { Engine } from "../enrichment/engine.ts";
import { Store } from "../storage/store.ts";
import { processJob } from "./process_job.ts";
import { ThreadedWriter } from "./threaded_writer.ts";
import { lowerThisThread } from "./background_priority.ts";
import type { FromWorker, ToWorker } from "./worker_protocol.ts";
import { registrationLookupFor } from "../rdap/rdap_setup.ts";
import type { RegistrationLookup } from "../rdap/registration_lookup.ts";
import { PortPacer } from "../rdap/shared_pacer.ts";
import { SqliteRdapCache } from "../storage/rdap_cache.ts";

let setup: {
  store: Store;
  engine: Engine;
  uploadsDir: string;
  checkpointRows: number;
  /** A job's registration lookup (its own outcomes), or null: RDAP off. */
  registrationLookup: () => RegistrationLookup | null;
} | null = null;
// Checkpoints are committed on a thread of their own (threaded_writer.ts),
// started by the runner beside this worker and kept between jobs.
let writer: ThreadedWriter | null = null;
let current: { jobId: number; cancelled: boolean } | null = null;
const post = (message: FromWorker) => self.postMessage(message);

lowerThisThread();

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "init") {
    const store = new Store(message.dbPath);
    const pacer = message.rdapPort ? new PortPacer(message.rdapPort) : null;
    const rdapCache = new SqliteRdapCache(store.db, {
      maxAgeDays: message.rdap.cacheDays,
    });
    setup = {
      store,
      engine: new Engine(message.engineData, message.dns, true),
      uploadsDir: message.uploadsDir,
      checkpointRows: message.checkpointRows,
      registrationLookup: () =>
        pacer ? registrationLookupFor(message.rdap, rdapCache, pacer) : null,
    };
    writer = new ThreadedWriter(message.writerPort);
    return;
  }
  if (message.type === "cancel") {
    if (current?.jobId === message.jobId) current.cancelled = true;
    return;
  }
  const job = { jobId: message.jobId, cancelled: false };
  current = job;
  try {
    if (!setup || !writer) throw new Error("worker used before init");
    if (writer.failed) writer.reset();
    const outcome = await processJob({
      ...setup,
      writer,
      jobId: job.jobId,
      cancelled: () => job.cancelled,
      onProgress: (record) => post({ type: "progress", job: record }),
    });
    post({ type: "done", jobId: job.jobId, outcome });
  } catch (error) {
    post({
      type: "error",
      jobId: job.jobId,
      message: (error as Error).message,
    });
  } finally {
    current = null;
  }
};
