// Worker entry of a ThreadedWriter's thread: commits a job worker's
// checkpoints through its own Store, in the order they arrive on its port.
/// <reference lib="deno.worker" />
// The node:sqlite types of the rest of the program (StatementSync's
// setReturnArrays), for when this worker is type-checked on its own.
/// <reference types="npm:@types/node@^24" />
import { Store } from "../storage/store.ts";
import { CheckpointReader } from "./checkpoint_codec.ts";
import { SummaryTally } from "./summary_tally.ts";
import type { FromWriter, ToWriter, WriterInit } from "./worker_protocol.ts";

self.onmessage = (event: MessageEvent<WriterInit>) => {
  const { dbPath, port } = event.data;
  const store = new Store(dbPath);
  // Bulk writes: checkpoint the WAL every ~40 MB rather than every 4 MB,
  // since each WAL checkpoint syncs the files.
  store.db.exec("PRAGMA wal_autocheckpoint = 10000");
  let reader: CheckpointReader | null = null;
  const summary = new SummaryTally();
  const post = (message: FromWriter) => port.postMessage(message);
  port.onmessage = (event: MessageEvent<ToWriter>) => {
    const message = event.data;
    if (message.type === "begin") {
      reader = new CheckpointReader(message.start);
      summary.begin(store.db, message.start);
      return;
    }
    const { gen, seq, checkpoint } = message;
    try {
      if (!reader) throw new Error("a checkpoint before its job began");
      const results = reader.read(checkpoint);
      store.commitBatch(
        checkpoint.jobId,
        results,
        reader.counters,
        () =>
          summary.add(
            store.db,
            results,
            !!checkpoint.last,
            reader!.summaryKeys,
          ),
      );
      post({
        type: "committed",
        gen,
        seq,
        job: store.getJob(checkpoint.jobId)!,
      });
    } catch (error) {
      post({ type: "error", gen, seq, message: (error as Error).message });
    }
  };
};
