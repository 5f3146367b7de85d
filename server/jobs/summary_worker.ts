// Web Worker entry: adds a completed job's summary up and keeps it beside
// its parts, for a job thread that ended with the job (thread_pool.ts), so
// its grown heap is not held while the job is downloaded.
/// <reference lib="deno.worker" />
/// <reference types="npm:@types/node@^24" />
import { answerOnThread } from "../one_shot_thread.ts";
import { LocalBlobStore } from "../blobs/local_blobs.ts";
import { JobResults } from "../results/job_results.ts";
import { SqliteChunkProgress } from "../storage/sqlite_chunks.ts";
import { Store } from "../storage/store.ts";
import { prepareSummary } from "./chunk_writer.ts";
import { lowerThisThread } from "./background_priority.ts";

/** The job, and where its database and results are. */
export interface SummaryInput {
  dbPath: string;
  dataDir: string;
  jobId: number;
}

// Background work, as the job threads' is.
lowerThisThread();

answerOnThread(async ({ dbPath, dataDir, jobId }: SummaryInput) => {
  const store = new Store(dbPath);
  try {
    const job = await store.getJob(jobId);
    if (job?.status !== "completed") return;
    const results = new JobResults(
      new LocalBlobStore(dataDir),
      new SqliteChunkProgress(store),
    );
    await prepareSummary(results, job);
  } finally {
    store.close();
  }
});
