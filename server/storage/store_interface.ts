// The storage of uploads and jobs the routes, the job pipeline and
// housekeeping use (a job's chunks are chunk_progress.ts, its results
// results/job_results.ts), as one interface with two adapters: SQLite
// (store.ts, synchronous, the default) and PostgreSQL (pg/pg_store.ts, asynchronous). Every method may
// answer directly or with a promise, so the SQLite adapter implements it
// unchanged and callers `await` whatever comes back.
import type { JobStatus, RegistrationLookups } from "../../shared/wire.ts";
import type { Dialect } from "../csv/dialect.ts";
import type { JobRecord, NewJob, UploadRecord } from "./job_rows.ts";

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
  /** Keeps the dialect found for a job stored before dialects were. */
  setDialect(id: number, dialect: Dialect): Awaitable<void>;
  /** Adds to the job's counts of how its RDAP lookups ended. */
  addRegistrationLookups(
    id: number,
    add: RegistrationLookups,
  ): Awaitable<void>;
  /**
   * Deletes jobs in `status` (only `owner`'s when given) with their chunks;
   * returns them (their results' parts are the caller's: JobResults).
   */
  deleteJobs(status: JobStatus, owner?: string): Awaitable<JobRecord[]>;

  close(): Awaitable<void>;
}
