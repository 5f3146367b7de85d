// The unit of work of both modes: a chunk of a job's upload, run from the
// chunk's first row to its end. The embedded mode runs it on a pool of job
// threads (thread_pool.ts, job_worker.ts); the scale-out mode in worker
// processes fed by the shared queue; job_lifecycle.ts hands both their
// chunks. Also where a job is cut into its chunks, once, when it is first
// queued.
import { join } from "node:path";
import type { Engine } from "../enrichment/engine.ts";
import type { RegistrationLookup } from "../rdap/registration_lookup.ts";
import { countStoredCsv } from "../routes/csv_upload_reader.ts";
import { CUT_ROWS, type RowChunk } from "../csv/row_chunks.ts";
import type {
  ChunkProgress,
  ChunkProgressStore,
} from "../storage/chunk_progress.ts";
import type { ChunkSizes } from "../config.ts";
import type { JobRecord } from "../storage/job_rows.ts";
import type { JobStore } from "../storage/store_interface.ts";
import type { JobResults } from "../results/job_results.ts";
import { ChunkWriter } from "./chunk_writer.ts";
import { type ChunkOutcome, enrichChunk } from "./enrich_chunk.ts";

export interface ChunkRunner {
  store: JobStore;
  chunks: ChunkProgressStore;
  /** Where a chunk's parts go. */
  results: JobResults;
  engine: Engine;
  uploadsDir: string;
  /** Rows per progress commit (<= 100). */
  progressRows: number;
  /** A job's registration lookup (RDAP), or null or absent: off. */
  registrationLookup?: () => RegistrationLookup | null;
  /** Who runs the chunk (host and process), recorded with it. */
  worker: string;
}

/** This process, as recorded with the chunks it commits. */
export const THIS_PROCESS = `${Deno.hostname()}:${Deno.pid}`;

/**
 * Runs one chunk from its first row. "completed" once its parts are stored
 * and it is committed done (which completes the job when it was the last
 * open chunk); "lost" when the chunk was done or its job ended before it
 * started; throws what stopped it otherwise (JobStopped when the job was
 * cancelled or failed meanwhile). `addsSummary`: see ChunkWriter.
 */
export async function runChunk(
  runner: ChunkRunner,
  jobId: number,
  chunk: ChunkProgress,
  cancelled: () => boolean,
  onProgress: (job: JobRecord) => void,
  addsSummary = true,
): Promise<ChunkOutcome> {
  const { store, chunks, worker } = runner;
  const job = await store.getJob(jobId);
  if (!job) return "lost";
  const writer = new ChunkWriter(
    store,
    chunks,
    runner.results,
    chunk.chunk,
    worker,
    job,
    addsSummary,
  );
  if (!await writer.start()) return "lost";
  return await enrichChunk({
    store,
    engine: runner.engine,
    uploadsDir: runner.uploadsDir,
    progressRows: runner.progressRows,
    writer,
    registrationLookup: runner.registrationLookup,
    range: { start: chunk.start, end: chunk.end, firstRow: chunk.firstRow },
    cancelled,
    onProgress,
  });
}

/**
 * About this many chunks a job, of CUT_ROWS to CHUNK_ROWS rows each. Past
 * 64 x CHUNK_ROWS rows, more chunks rather than larger ones: what a job
 * thread holds, and so how far its heap grows, follows its chunk's size,
 * so a large job's peak memory stays a middling one's.
 */
const CHUNKS_A_JOB = 64;

/**
 * A job that looks host names up (Domain) has chunks of DNS_CHUNK_ROWS: a
 * chunk's reverse DNS ends waiting for its slowest addresses (up to
 * DNS_TIMEOUT_MS), a second or so a chunk whatever its size, so such a job
 * has few large chunks. Its first two are small (CUT_ROWS, then RAMP times
 * as many), so its rows and summary show early and grow.
 */
const RAMP = 8;

/**
 * Runs of the upload's cuts as a job's chunks, of even size: about
 * CHUNKS_A_JOB of them, of at least CUT_ROWS rows and at most `sizes.rows`;
 * `dns`: of `sizes.dnsRows`, the first ones smaller (see RAMP).
 */
export function groupCuts(
  cuts: RowChunk[],
  sizes: ChunkSizes,
  dns = false,
): RowChunk[] {
  if (dns) return rampRuns(cuts, sizes.dnsRows);
  const chunkRows = sizes.rows;
  const total = cuts.reduce((sum, cut) => sum + cut.rows, 0);
  let n = Math.max(
    Math.ceil(total / chunkRows),
    Math.min(CHUNKS_A_JOB, Math.floor(total / CUT_ROWS)),
    1,
  );
  // A chunk may pass its share by up to a cut: one more chunk until none
  // is over chunkRows.
  for (;; n++) {
    const chunks = evenRuns(cuts, n, total);
    if (n >= cuts.length || chunks.every((c) => c.rows <= chunkRows)) {
      return chunks;
    }
  }
}

/** Runs of CUT_ROWS, RAMP times as many, then `size` rows (give or take a cut). */
function rampRuns(cuts: RowChunk[], size: number): RowChunk[] {
  const chunks: RowChunk[] = [];
  let target = CUT_ROWS;
  for (const cut of cuts) {
    const last = chunks.at(-1);
    if (last && last.rows < target && last.rows + cut.rows <= size) {
      last.end = cut.end;
      last.rows += cut.rows;
    } else {
      // CUT_ROWS, RAMP times as many, then `size`.
      if (last) target = target === CUT_ROWS ? CUT_ROWS * RAMP : size;
      chunks.push({ ...cut });
    }
  }
  return chunks;
}

/** The cuts in n runs: each cut in the run its first row's share falls in. */
function evenRuns(cuts: RowChunk[], n: number, total: number): RowChunk[] {
  const chunks: RowChunk[] = [];
  let before = 0;
  for (const cut of cuts) {
    const k = Math.min(n - 1, Math.floor(before * n / total));
    before += cut.rows;
    const last = chunks.at(-1);
    if (last && chunks.length - 1 === k) {
      last.end = cut.end;
      last.rows += cut.rows;
    } else chunks.push({ ...cut });
  }
  return chunks;
}

/**
 * The job's chunks, planned when it has none: runs of the cuts its upload's
 * reader noted. A job stored before dialects were kept has its upload read
 * again once, here, for its dialect (and its cuts, when the upload has
 * none). The upload must be in `uploadsDir`.
 */
export async function planJobChunks(
  store: JobStore,
  chunks: ChunkProgressStore,
  job: JobRecord,
  uploadsDir: string,
  sizes: ChunkSizes,
): Promise<ChunkProgress[]> {
  const planned = await chunks.chunks(job.id);
  if (planned.length > 0) return planned;
  let cuts = (await store.getUpload(job.fileName))?.chunks;
  if (!job.dialect || !cuts) {
    const counted = await countStoredCsv(
      join(uploadsDir, job.fileName),
      CUT_ROWS,
    );
    cuts ??= counted.chunks;
    if (!job.dialect) await store.setDialect(job.id, counted.dialect);
  }
  return await chunks.planChunks(
    job.id,
    groupCuts(cuts, sizes, job.options.domain).map((range, chunk) => ({
      chunk,
      ...range,
    })),
  );
}
