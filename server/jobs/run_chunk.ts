// The unit of work of both modes: a chunk of a job's upload, run from the
// chunk's last committed checkpoint to its end. The embedded mode runs it on
// a pool of job threads (runner.ts, job_worker.ts); the scale-out mode in
// worker processes fed by the shared queue (queue_runner.ts). Also where a
// job is cut into its chunks, once, when it is first queued.
import { join } from "node:path";
import type { Engine } from "../enrichment/engine.ts";
import type { RegistrationLookup } from "../rdap/registration_lookup.ts";
import { chunksOfStoredCsv } from "../routes/csv_upload_reader.ts";
import type {
  ChunkProgress,
  ChunkProgressStore,
} from "../storage/chunk_progress.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobStore } from "../storage/store_interface.ts";
import { ChunkWriter } from "./chunk_writer.ts";
import { processJob, type ProcessOutcome } from "./process_job.ts";

export interface ChunkRunner {
  store: JobStore;
  chunks: ChunkProgressStore;
  engine: Engine;
  uploadsDir: string;
  /** Rows per committed checkpoint (<= 100). */
  checkpointRows: number;
  /** A job's registration lookup (RDAP), or null or absent: off. */
  registrationLookup?: () => RegistrationLookup | null;
  /** Who runs the chunk (host and process), recorded with it. */
  worker: string;
}

/** This process, as recorded with the chunks it commits. */
export const THIS_PROCESS = `${Deno.hostname()}:${Deno.pid}`;

/**
 * Runs one chunk from its last checkpoint. "completed" once its last
 * checkpoint is committed (which completes the job when it was the last
 * open chunk); throws what stopped it otherwise (JobStopped when the job was
 * cancelled or failed meanwhile).
 */
export function runChunk(
  runner: ChunkRunner,
  jobId: number,
  chunk: ChunkProgress,
  cancelled: () => boolean,
  onProgress: (job: JobRecord) => void,
): Promise<ProcessOutcome> {
  const { store, chunks, worker } = runner;
  return processJob({
    store,
    engine: runner.engine,
    uploadsDir: runner.uploadsDir,
    jobId,
    checkpointRows: runner.checkpointRows,
    writer: new ChunkWriter(store, chunks, chunk.chunk, worker),
    registrationLookup: runner.registrationLookup,
    range: {
      start: chunk.start,
      end: chunk.end,
      firstRow: chunk.firstRow,
      resume: chunk.counters,
    },
    cancelled,
    onProgress,
  });
}

/**
 * The job's chunks, planned when it has none: as its upload's reader cut
 * the upload, or for an upload stored before its chunks were noted, by
 * reading it again. The upload must be in `uploadsDir`.
 */
export async function planJobChunks(
  store: JobStore,
  chunks: ChunkProgressStore,
  job: JobRecord,
  uploadsDir: string,
  chunkRows: number,
): Promise<ChunkProgress[]> {
  const planned = await chunks.chunks(job.id);
  if (planned.length > 0) return planned;
  const ranges = (await store.getUpload(job.fileName))?.chunks ??
    await chunksOfStoredCsv(
      join(uploadsDir, job.fileName),
      job.delimiter,
      chunkRows,
    );
  return await chunks.planChunks(
    job.id,
    ranges.map((range, chunk) => ({ chunk, ...range })),
  );
}
