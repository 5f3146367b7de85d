// Why a chunk stopped short, as one of a declared list of kinds, in both
// modes. The error is named where it is thrown (a job thread, a worker
// process) and only its kind and facts cross to whoever decides what
// happens to the job: the lifecycle (job_lifecycle.ts) acts on the kind,
// and a job that fails shows the kind's words. Nothing is told apart by its
// text.
import { BlobStoreError, BlobStoreUnreachable } from "../blobs/blob_store.ts";
import { isDiskFull, jobDiskFullMessage } from "../storage/disk_full.ts";
import { isConnectionLost } from "../storage/pg/connection_lost.ts";
import { CheckpointMoved, JobStopped } from "../storage/result_rows.ts";

export type JobFailure =
  /** The disk under the data directory is full. */
  | { kind: "diskFull" }
  /** The blob store could not be reached for as long as it was retried. */
  | { kind: "blobUnreachable"; store: string; seconds: number; reason: string }
  /** The blob store refused access (401, 403). */
  | { kind: "blobRefused"; store: string; status: number; code: string }
  /** The blob store has no room. */
  | { kind: "blobFull"; store: string }
  /** The blob store answered another error that stood. */
  | {
    kind: "blobRejected";
    store: string;
    status: number;
    code: string;
    detail: string;
  }
  /** The database connection was lost: the chunk runs again. */
  | { kind: "connectionLost" }
  /** Another run took the chunk (the queue thought this one gone). */
  | { kind: "chunkTaken" }
  /** The job was cancelled or failed meanwhile. */
  | { kind: "jobStopped" }
  /**
   * The chunk stopped before its end though its job goes on (this process
   * is stopping, or the queue gave up on the delivery): it runs again.
   */
  | { kind: "handedBack" }
  /** The queue gave up on a chunk that failed or lost its worker too often. */
  | { kind: "abandoned" }
  /** The chunk's job thread ended abruptly. */
  | { kind: "crashed"; detail: string }
  /** The job finished no row for JOB_STALL_SECONDS. */
  | { kind: "stalled"; seconds: number }
  /** Anything else: its message as it is. */
  | { kind: "error"; detail: string };

export type JobFailureKind = JobFailure["kind"];

/** What happens after a chunk stopped for each kind. */
export type FailureEffect =
  /** The chunk runs again (the queue delivers it again). */
  | "retry"
  /** Nothing: the chunk is someone else's, or its job has ended. */
  | "none"
  /** The job fails with the failure's words. */
  | "failJob";

const EFFECTS: Record<JobFailureKind, FailureEffect> = {
  diskFull: "failJob",
  blobUnreachable: "failJob",
  blobRefused: "failJob",
  blobFull: "failJob",
  blobRejected: "failJob",
  connectionLost: "retry",
  handedBack: "retry",
  abandoned: "failJob",
  chunkTaken: "none",
  jobStopped: "none",
  crashed: "failJob",
  stalled: "failJob",
  error: "failJob",
};

export const failureEffect = (failure: JobFailure): FailureEffect =>
  EFFECTS[failure.kind];

/** A failure named where it happened, carried across a thread. */
export class ChunkFailed extends Error {
  constructor(readonly failure: JobFailure) {
    super(`chunk stopped: ${failure.kind}`);
    this.name = "ChunkFailed";
  }
}

/** The kind of `error`, where it was thrown. */
export function failureOf(error: unknown): JobFailure {
  if (error instanceof ChunkFailed) return error.failure;
  if (isDiskFull(error)) return { kind: "diskFull" };
  if (error instanceof BlobStoreUnreachable) {
    const { store, seconds, reason } = error;
    return { kind: "blobUnreachable", store, seconds, reason };
  }
  if (error instanceof BlobStoreError) {
    const { store, status, code, detail } = error;
    if (status === 401 || status === 403) {
      return { kind: "blobRefused", store, status, code };
    }
    return error.full
      ? { kind: "blobFull", store }
      : { kind: "blobRejected", store, status, code, detail };
  }
  if (isConnectionLost(error)) return { kind: "connectionLost" };
  if (error instanceof CheckpointMoved) return { kind: "chunkTaken" };
  if (error instanceof JobStopped) return { kind: "jobStopped" };
  return { kind: "error", detail: (error as Error)?.message ?? String(error) };
}

const THEN = "then press Restart; rows saved so far are kept";

/** The words a job that failed for `failure` shows. */
export function failureWords(failure: JobFailure, dataDir: string): string {
  switch (failure.kind) {
    case "diskFull":
      return jobDiskFullMessage(dataDir);
    case "blobUnreachable":
      return `Processing stopped: the blob store (${failure.store}) could ` +
        `not be reached for ${failure.seconds} s (${failure.reason}): ` +
        `check that it runs, ${THEN}`;
    case "blobRefused":
      return `The blob store (${failure.store}) refused access (` +
        `${failure.status} ${failure.code}): check S3_ACCESS_KEY_ID, ` +
        `S3_SECRET_ACCESS_KEY and the bucket's permissions, ${THEN}`;
    case "blobFull":
      return `The blob store (${failure.store}) is full: free some space, ${THEN}`;
    case "blobRejected":
      return `Processing stopped: the blob store (${failure.store}) did not ` +
        `take the job's results (it answered ${failure.status} ` +
        `${failure.code}: ${failure.detail}): check that it has room and ` +
        `works, ${THEN}`;
    case "stalled": {
      const { seconds } = failure;
      const time = seconds < 120
        ? `${seconds} seconds`
        : `${Math.round(seconds / 60)} minutes`;
      return `Processing stopped: no rows were finished for ${time} ` +
        "(JOB_STALL_SECONDS), so the job was stopped to let other jobs run. " +
        "Restart it to continue from its last saved row.";
    }
    case "abandoned":
      return "Processing stopped: a part of the file failed several times " +
        "in a row (a worker stopped or lost its database while processing " +
        "it). Restart the job to try again; its finished rows are kept.";
    case "connectionLost":
      return "Processing stopped: the connection to the database was lost";
    case "handedBack":
    case "chunkTaken":
    case "jobStopped":
      return "Processing stopped";
    case "crashed":
    case "error":
      return `Processing stopped: ${failure.detail}`;
  }
}
