// The chunks of a job, in both modes (several threads or workers run one
// job's chunks at once): a chunk is done or not. A run of a chunk starts
// from its first row, reports its counters as it goes (the job's counters
// are the sum of its chunks'), and ends by storing its parts
// (results/job_results.ts) and then, in one transaction, its counts, its
// counters and its being done; a crash redoes only the chunks not done.
// Only the runners and the results reader use this; the routes see jobs
// through JobStore. Adapters: sqlite_chunks.ts, pg/pg_chunks.ts.
import type { ChunkMeta, KeyCount } from "../results/chunk_output.ts";
import type { Row } from "./job_rows.ts";
import { type Counters, emptyLookups, zeroCounters } from "./result_rows.ts";

/** Fewest milliseconds between two progress announcements of one job. */
export const ANNOUNCE_MS = 250;

/** A chunk as planned: rows [firstRow, firstRow + rows) at bytes [start, end). */
export interface ChunkPlan {
  chunk: number;
  start: number;
  end: number;
  firstRow: number;
  rows: number;
}

export interface ChunkProgress extends ChunkPlan {
  /** The chunk's counters as its run last reported them. */
  counters: Counters;
  done: boolean;
  /** The worker that runs (or ran) it (null: none yet). */
  worker: string | null;
}

/** A chunk whose parts are stored (a done chunk). */
export interface ChunkOutputRecord {
  chunk: number;
  firstRow: number;
  /** The run that stored the parts (names them in caches). */
  run: string;
  keptBytes: number;
  done: boolean;
  meta: ChunkMeta;
}

export interface ChunkCommit {
  jobId: number;
  chunk: number;
  /** The run (startChunk) this commit belongs to. */
  run: string;
  /** The chunk's counters so far. */
  counters: Counters;
  /** Who runs it (host and process), recorded with the chunk. */
  worker: string;
  /** With `last`: the chunk's parts are stored, their kept bytes and counts. */
  output?: { keptBytes: number; meta: ChunkMeta };
  /** Without `last`: the rows of `counters` by kind (ChunkMeta.kinds). */
  kinds?: KeyCount[];
  /** The chunk is done. */
  last: boolean;
}

export interface ChunkCommitted {
  /** This commit may announce the job's progress (a few a second per job). */
  announce: boolean;
  /** This commit completed the job (its last open chunk is done). */
  completed: boolean;
}

export interface ChunkProgressStore {
  /**
   * Stores a job's chunks unless it has them already (a restart keeps the
   * first plan); returns the job's chunks, in order.
   */
  planChunks(jobId: number, plan: ChunkPlan[]): Promise<ChunkProgress[]>;
  /** The job's chunks, in order (none before it was planned). */
  chunks(jobId: number): Promise<ChunkProgress[]>;
  getChunk(jobId: number, chunk: number): Promise<ChunkProgress | null>;
  /**
   * Starts a run of a chunk from its first row: its counters back to zero
   * (the job's less them) and any stored output forgotten. False when the
   * chunk is done or the job is not processing.
   */
  startChunk(
    jobId: number,
    chunk: number,
    run: string,
    worker: string,
  ): Promise<boolean>;
  /**
   * One transaction: refuses with JobStopped unless the job is processing,
   * with ChunkTaken when another run took the chunk (or it is done);
   * stores the chunk's counters, adds the difference to the job's and
   * records `output`. With `last`, marks the chunk done and, when it was
   * the job's last open chunk, sets the job's total to the rows processed
   * and completes it.
   */
  commitChunk(commit: ChunkCommit): Promise<ChunkCommitted>;
  /**
   * A job that stopped (cancelled, failed) keeps the rows of its done
   * chunks: the counters of the others go back to zero, the job's less
   * them, so its counts are those of the rows it has.
   */
  dropUnfinished(jobId: number): Promise<void>;
  /** The job's chunks with stored parts, in order. */
  outputs(jobId: number): Promise<ChunkOutputRecord[]>;
  /** Replaces the meta of a chunk with stored parts (part_migration.ts). */
  setMeta(jobId: number, chunk: number, meta: ChunkMeta): Promise<void>;
  /**
   * The rows by kind of the job's running chunks, as their last commit
   * reported them (with the counters it added to the job's).
   */
  runningKinds(jobId: number): Promise<RunningKinds[]>;
}

export interface RunningKinds {
  chunk: number;
  kinds: KeyCount[];
}

/** A job_chunks row's chunk and `kinds`, as read from either database. */
export function toRunningKinds(row: Row): RunningKinds {
  return {
    chunk: Number(row.chunk),
    kinds: typeof row.kinds === "string"
      ? JSON.parse(row.kinds)
      : row.kinds as unknown as KeyCount[],
  };
}

const NO_LOOKUPS = emptyLookups();
const lookupsOf = (counters: Counters) =>
  counters.hostnameLookups ?? NO_LOOKUPS;

/**
 * The counters a chunk keeps (its job_chunks column), the jobs column that
 * sums them over the job's chunks, and each one's value in a Counters (a
 * host-name count not given is 0).
 */
export const COUNTER_COLUMNS: readonly {
  chunk: string;
  job: string;
  of: (counters: Counters) => number;
}[] = [
  { chunk: "processed", job: "processed_ips", of: (c) => c.processed },
  { chunk: "successful", job: "successful_ips", of: (c) => c.successful },
  { chunk: "failed", job: "failed_ips", of: (c) => c.failed },
  { chunk: "filtered", job: "filtered_ips", of: (c) => c.filtered },
  ...([
    ["hostnames_answered", "answered"],
    ["hostnames_no_name", "noName"],
    ["hostnames_timed_out", "timedOut"],
    ["hostnames_skipped", "skipped"],
  ] as const).map(([column, kind]) => ({
    chunk: column,
    job: column,
    of: (c: Counters) => lookupsOf(c)[kind],
  })),
];

export const now = () => new Date().toISOString();

export const ZERO = zeroCounters();

/** Every status a job may be in while it has unfinished chunks. */
export const ANY_STATUS = ["cancelled", "failed", "processing", "pending"];

/** A planned chunk as its job_chunks row. */
export const planColumns = (jobId: number, chunk: ChunkPlan) => ({
  job_id: jobId,
  chunk: chunk.chunk,
  first_row: chunk.firstRow,
  row_count: chunk.rows,
  start_byte: chunk.start,
  end_byte: chunk.end,
  updated_at: now(),
});

/** What a run's start sets besides the counters: no output yet. */
export const startColumns = (run: string, worker: string) => ({
  run,
  worker,
  kept_bytes: 0,
  meta: null,
  kinds: null,
});

/** What a commit sets besides the counters and `done`. */
export function commitColumns(commit: ChunkCommit) {
  const { output, last, worker, kinds } = commit;
  return {
    worker,
    kinds: last || !kinds ? null : JSON.stringify(kinds),
    ...(output
      ? { kept_bytes: output.keptBytes, meta: JSON.stringify(output.meta) }
      : {}),
  };
}

/** A job_chunks row as read from either database. */
export function toChunk(row: Row): ChunkProgress {
  return {
    chunk: Number(row.chunk),
    start: Number(row.start_byte),
    end: Number(row.end_byte),
    firstRow: Number(row.first_row),
    rows: Number(row.row_count),
    counters: {
      processed: Number(row.processed),
      successful: Number(row.successful),
      failed: Number(row.failed),
      filtered: Number(row.filtered),
      hostnameLookups: {
        answered: Number(row.hostnames_answered),
        noName: Number(row.hostnames_no_name),
        timedOut: Number(row.hostnames_timed_out),
        skipped: Number(row.hostnames_skipped),
      },
    },
    done: Boolean(row.done),
    worker: row.worker === null ? null : String(row.worker),
  };
}

/** A job_chunks row with stored parts, as read from either database. */
export function toOutput(row: Row): ChunkOutputRecord {
  return {
    chunk: Number(row.chunk),
    firstRow: Number(row.first_row),
    run: String(row.run),
    keptBytes: Number(row.kept_bytes),
    done: Boolean(row.done),
    meta: typeof row.meta === "string"
      ? JSON.parse(row.meta)
      : row.meta as unknown as ChunkMeta,
  };
}
