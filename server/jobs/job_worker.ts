// Web Worker entry: runs one job off the HTTP thread, then closes.
/// <reference lib="deno.worker" />
import { Engine } from "../enrichment/engine.ts";
import { Store } from "../storage/store.ts";
import { processJob } from "./process_job.ts";
import type { FromWorker, ToWorker } from "./worker_protocol.ts";

let cancelled = false;
const post = (message: FromWorker) => self.postMessage(message);

self.onmessage = async (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "cancel") {
    cancelled = true;
    return;
  }
  let store: Store | null = null;
  try {
    store = new Store(message.dbPath);
    const outcome = await processJob({
      store,
      engine: new Engine(message.engineData, message.dns),
      uploadsDir: message.uploadsDir,
      jobId: message.jobId,
      checkpointRows: message.checkpointRows,
      cancelled: () => cancelled,
      onProgress: (job) => post({ type: "progress", job }),
    });
    post({ type: "done", outcome });
  } catch (error) {
    post({ type: "error", message: (error as Error).message });
  } finally {
    store?.close();
  }
};
