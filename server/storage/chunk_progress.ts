// Progress of a job cut into chunks (in both modes several threads or
// workers run one job's chunks at once): each chunk keeps its own counters,
// which are its resume position; the job's counters are their sum, kept by
// adding each checkpoint's counts in the same transaction. Only the runners
// use this; the routes see jobs through JobStore. Adapters:
// sqlite_chunks.ts, pg/pg_chunks.ts.
import type { Row } from "./job_rows.ts";
import type { Counters, StoredResult } from "./result_rows.ts";

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
  /** The chunk's counters at its last committed checkpoint. */
  counters: Counters;
  done: boolean;
  /** The worker that committed its last checkpoint (null: none yet). */
  worker: string | null;
}

export interface ChunkCheckpoint {
  jobId: number;
  chunk: number;
  results: StoredResult[];
  /** The chunk's counters including these results. */
  counters: Counters;
  /** The chunk's last checkpoint: the chunk is done with it. */
  last: boolean;
  /** Who commits it (host and process), recorded with the chunk. */
  worker: string;
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
   * One transaction: refuses with CheckpointMoved unless the chunk's stored
   * `processed` is `counters.processed - results.length` (and the chunk not
   * done), with JobStopped unless the job is processing; replaces the
   * chunk's rows from that position on with `results`; stores the chunk's
   * counters and adds the difference to the job's. With `last`, marks the
   * chunk done and, when it was the job's last open chunk, sets the job's
   * total to the rows processed and completes it.
   */
  commitChunk(checkpoint: ChunkCheckpoint): Promise<ChunkCommitted>;
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
