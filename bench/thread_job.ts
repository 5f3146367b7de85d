// The seeded file's job run in this thread (no HTTP, no job thread pool),
// its chunks one after another, each committed from this thread as a job
// thread commits its chunk: bench/profile_job.ts and bench/chunk_output_ab.ts.
import { join } from "node:path";
import { loadConfig } from "../server/config.ts";
import { Engine, loadEngineData } from "../server/enrichment/engine.ts";
import { planJobChunks, runChunk } from "../server/jobs/run_chunk.ts";
import { SqliteChunkProgress } from "../server/storage/sqlite_chunks.ts";
import { LocalBlobStore } from "../server/blobs/local_blobs.ts";
import { JobResults } from "../server/results/job_results.ts";
import { Store } from "../server/storage/store.ts";
import type { ChunkProgress } from "../server/storage/chunk_progress.ts";
import type { ChunkOutcome } from "../server/jobs/enrich_chunk.ts";
import { JOB_OPTIONS } from "./baselines.ts";
import { generateCsv, HEADER, IP_COLUMN } from "./generate.ts";

export interface ThreadJob {
  store: Store;
  results: JobResults;
  jobId: number;
  /** The job's chunks, as planned. */
  chunks: ChunkProgress[];
  /** Runs one of them to its end. */
  run(chunk: ChunkProgress): Promise<ChunkOutcome>;
  /** Closes the store and removes the job's data directory. */
  remove(): Promise<void>;
}

/** A processing job of the seeded file of `rows` rows, in `outDir`. */
export async function threadJob(
  rows: number,
  outDir: string,
): Promise<ThreadJob> {
  await Deno.mkdir(outDir, { recursive: true });
  const file = await generateCsv(rows, outDir);
  const dataDir = await Deno.makeTempDir({ dir: outDir, prefix: "job-" });
  const uploadsDir = join(dataDir, "uploads");
  await Deno.mkdir(uploadsDir);
  await Deno.copyFile(file.path, join(uploadsDir, "bench.csv"));
  const store = new Store(join(dataDir, "enrichment.db"));
  const engine = new Engine(await loadEngineData(loadConfig({})), {
    servers: [],
    timeoutMs: 1000,
    concurrency: 1,
  }, 0);
  const { id } = store.createJob({
    fileName: "bench.csv",
    originalFileName: "bench.csv",
    ipColumnName: IP_COLUMN,
    ipColumnIndex: HEADER.indexOf(IP_COLUMN),
    headers: HEADER,
    dialect: null,
    totalIPs: rows,
    options: JOB_OPTIONS,
  });
  store.setStatus(id, "processing", ["pending"]);
  const progress = new SqliteChunkProgress(store);
  const results = new JobResults(new LocalBlobStore(dataDir), progress);
  const runner = {
    store,
    chunks: progress,
    results,
    engine,
    uploadsDir,
    progressRows: 100,
    worker: "bench",
  };
  return {
    store,
    results,
    jobId: id,
    chunks: await planJobChunks(
      store,
      progress,
      store.getJob(id)!,
      uploadsDir,
      loadConfig({}).chunkSizes,
    ),
    run: (chunk) => runChunk(runner, id, chunk, () => false, () => {}),
    async remove() {
      store.close();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}
