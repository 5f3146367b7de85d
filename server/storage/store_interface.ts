// The storage the routes, the job pipeline, downloads and housekeeping use,
// as one interface with two adapters: SQLite (store.ts, synchronous, the
// default) and PostgreSQL (pg/pg_store.ts, asynchronous). Every method may
// answer directly or with a promise, so the SQLite adapter implements it
// unchanged and callers `await` whatever comes back.
import type { EnrichmentField } from "../../shared/enrichment_fields.ts";
import type { JobSummary } from "../../shared/summary.ts";
import type { JobStatus, RegistrationLookups } from "../../shared/wire.ts";
import type { JobRecord, NewJob, UploadRecord } from "./job_rows.ts";
import type { PreviewFilter } from "./preview_filters.ts";
import type { Counters, SqlValue, StoredResult } from "./result_rows.ts";

export type Awaitable<T> = T | Promise<T>;

export interface JobStore {
  // uploads
  addUpload(upload: UploadRecord): Awaitable<void>;
  getUpload(fileName: string): Awaitable<UploadRecord | null>;
  /** Uploads older than the cut-off that no job refers to. */
  unusedUploadsBefore(cutoff: string): Awaitable<UploadRecord[]>;
  deleteUpload(fileName: string): Awaitable<void>;
  /** Whether any job still refers to an uploaded file. */
  uploadInUse(fileName: string): Awaitable<boolean>;

  // jobs
  createJob(job: NewJob): Awaitable<JobRecord>;
  getJob(id: number): Awaitable<JobRecord | null>;
  /** Newest first: all, or only `owner`'s when given. */
  listJobs(owner?: string): Awaitable<JobRecord[]>;
  /** Oldest first. */
  jobsWithStatus(...statuses: JobStatus[]): Awaitable<JobRecord[]>;
  /** Moves a job to `to` only from one of `from`; false when it was not. */
  setStatus(
    id: number,
    to: JobStatus,
    from: JobStatus[],
    error?: string | null,
  ): Awaitable<boolean>;
  setTotal(id: number, total: number): Awaitable<void>;
  /** Adds to the job's counts of how its RDAP lookups ended. */
  addRegistrationLookups(
    id: number,
    add: RegistrationLookups,
  ): Awaitable<void>;
  /**
   * Stores a checkpoint's results and the job's counters atomically. Throws
   * JobStopped when the job is no longer processing, CheckpointMoved when
   * processed_ips is not `counters.processed - results.length`. Host-name
   * lookup counts are stored when `counters` has them. (Jobs commit
   * through ChunkProgressStore; this stores rows as one stream, for tests
   * and tools.)
   */
  commitBatch(
    jobId: number,
    results: StoredResult[],
    counters: Counters,
  ): Awaitable<void>;
  /**
   * Deletes jobs in `status` (only `owner`'s when given) with their results
   * and summary counts; returns them.
   */
  deleteJobs(status: JobStatus, owner?: string): Awaitable<JobRecord[]>;

  // results
  /**
   * The download's fields of kept rows with row_index in [from, to), in
   * order, as arrays: original row JSON, `columns`, success (1/0), error.
   */
  keptRowValues(
    jobId: number,
    from: number,
    to: number,
    columns: readonly EnrichmentField[],
  ): Awaitable<SqlValue[][]>;
  /** Rows with row_index in [from, to), in order. */
  resultsBetween(
    jobId: number,
    from: number,
    to: number,
    onlyKept?: boolean,
  ): Awaitable<StoredResult[]>;

  /** The job's summary over the rows stored so far. */
  jobSummary(job: JobRecord): Awaitable<JobSummary>;
  /**
   * One page (1-based) of a job's rows matching a preview filter, in input
   * order, with how many rows match (capped for a text search).
   */
  previewRows(
    jobId: number,
    filter: PreviewFilter,
    page: number,
    pageSize: number,
  ): Awaitable<PreviewRows>;

  close(): Awaitable<void>;
}

export interface PreviewRows {
  rows: StoredResult[];
  /** Rows matching the filter, for the page count. */
  total: number;
  /** True when a text search stopped counting at COUNT_CAP matches. */
  totalAtLeast: boolean;
}

/** What the routes ask of whatever runs jobs (in-process or a queue). */
export interface JobControl {
  /** Announces that a job (this one, when given) waits for work. */
  enqueue(jobId?: number): Promise<void>;
  /** Cancels a pending or processing job; false when it was neither. */
  cancel(jobId: number): Awaitable<boolean>;
  /** Puts a failed job back in line; false when it was not failed. */
  restart(jobId: number): Promise<boolean>;
}
