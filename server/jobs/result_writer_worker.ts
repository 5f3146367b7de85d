// Worker entry of a ThreadedWriter's thread: commits a job worker's
// checkpoints through its own Store, in the order they arrive on its port.
/// <reference lib="deno.worker" />
// The node:sqlite types of the rest of the program (StatementSync's
// setReturnArrays), for when this worker is type-checked on its own.
/// <reference types="npm:@types/node@^24" />
import { Store } from "../storage/store.ts";
import { copyCounters, type Counters } from "../storage/result_rows.ts";
import { type Checkpoint, CheckpointReader } from "./checkpoint_codec.ts";
import { SummaryTally } from "./summary_tally.ts";
import { lowerThisThread } from "./background_priority.ts";
import type { FromWriter, ToWriter, WriterInit } from "./worker_protocol.ts";

type Commit = Extract<ToWriter, { type: "commit" }>;

lowerThisThread();

self.onmessage = (event: MessageEvent<WriterInit>) => {
  const { dbPath, port } = event.data;
  const store = new Store(dbPath);
  // Bulk writes: checkpoint the WAL every ~40 MB rather than every 4 MB,
  // since each WAL checkpoint syncs the files.
  store.db.exec("PRAGMA wal_autocheckpoint = 10000");
  let reader: CheckpointReader | null = null;
  const summary = new SummaryTally();
  const post = (message: FromWriter) => port.postMessage(message);

  /**
   * Commits checkpoints that came together in one transaction: a commit
   * (and a page written to the WAL) per 100-row checkpoint was a third of
   * this thread's time. Each is answered with the job as it stands after it.
   */
  const commitAll = (commits: Commit[]) => {
    const after: Counters[] = [];
    const jobId = commits[0].checkpoint.jobId;
    try {
      store.transaction(() => {
        for (const commit of commits) {
          if (!reader) throw new Error("a checkpoint before its job began");
          // One checkpoint at a time, its rows let go before the next: a
          // group's rows all alive at once outlived the young generation.
          const { checkpoint } = commit;
          (commit as { checkpoint: Checkpoint | null }).checkpoint = null;
          const results = reader.read(checkpoint);
          store.commitRows(jobId, results, reader.counters);
          summary.add(store.db, results, !!checkpoint.last, reader.summaryKeys);
          after.push(copyCounters(reader.counters));
        }
      });
      const job = store.getJob(jobId)!;
      commits.forEach(({ gen, seq }, i) => {
        const counters = after[i];
        post({
          type: "committed",
          gen,
          seq,
          job: {
            ...job,
            processedIPs: counters.processed,
            successfulIPs: counters.successful,
            failedIPs: counters.failed,
            filteredIPs: counters.filtered,
            partialSaveAvailable: counters.processed > 0,
            hostnameLookups: counters.hostnameLookups ?? job.hostnameLookups,
          },
        });
      });
    } catch (error) {
      for (const { gen, seq } of commits) {
        post({ type: "error", gen, seq, message: (error as Error).message });
      }
    }
  };

  // The job worker posts what it wrote in one go as a list (see
  // ThreadedWriter): commits between two begins are committed together.
  port.onmessage = (event: MessageEvent<ToWriter[]>) => {
    let commits: Commit[] = [];
    for (const message of event.data) {
      if (message.type === "commit") {
        commits.push(message);
        continue;
      }
      if (commits.length > 0) commitAll(commits);
      commits = [];
      reader = new CheckpointReader(message.start);
      summary.begin(store.db, message.start);
    }
    if (commits.length > 0) commitAll(commits);
  };
};
