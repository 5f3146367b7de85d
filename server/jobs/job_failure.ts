// Why a chunk stopped short, in both modes, as one of the kinds declared
// here with what follows and the words a failed job shows. The error is
// named where it is thrown (a job thread, a worker process); only its kind
// and facts cross to the lifecycle (job_lifecycle.ts), which acts on the
// kind. Nothing is told apart by its text.
import { BlobStoreError, BlobStoreUnreachable } from "../blobs/blob_store.ts";
import { isDiskFull, jobDiskFullMessage } from "../storage/disk_full.ts";
import {
  isConnectionLost,
  isLockNotAvailable,
} from "../storage/pg/connection_lost.ts";
import { ChunkTaken, JobStopped } from "../storage/result_rows.ts";

type Blob = { store: string; status: number; code: string };

export type JobFailure =
  | { kind: "diskFull" }
  | { kind: "blobUnreachable"; store: string; seconds: number; reason: string }
  | { kind: "blobRefused" } & Blob
  | { kind: "blobFull"; store: string }
  | { kind: "blobRejected"; detail: string } & Blob
  /** The database connection was lost. */
  | { kind: "connectionLost" }
  /** A row the chunk commits to stayed locked by another session. */
  | { kind: "lockNotAvailable" }
  /** Stopped though its job goes on (this process stops, or the queue gave up on it). */
  | { kind: "handedBack" }
  /** Another run took the chunk (the queue thought this one gone). */
  | { kind: "chunkTaken" }
  /** The job was cancelled or failed meanwhile. */
  | { kind: "jobStopped" }
  /** The queue gave up on a chunk that failed or lost its worker too often. */
  | { kind: "abandoned" }
  | { kind: "crashed"; detail: string }
  | { kind: "stalled"; seconds: number }
  | { kind: "error"; detail: string };

/**
 * What follows a chunk's stop: it runs again (the queue delivers it again),
 * nothing (the chunk is another run's, or its job ended), or the job fails.
 */
export type FailureEffect = "retry" | "none" | "failJob";

type Kinds = {
  [K in JobFailure["kind"]]: {
    effect: FailureEffect;
    words(failure: Extract<JobFailure, { kind: K }>, dataDir: string): string;
  };
};

const THEN = "then press Restart; rows saved so far are kept";
const STOPPED = "Processing stopped";

const KINDS: Kinds = {
  diskFull: {
    effect: "failJob",
    words: (_, dataDir) => jobDiskFullMessage(dataDir),
  },
  blobUnreachable: {
    effect: "failJob",
    words: (f) =>
      `${STOPPED}: the blob store (${f.store}) could not be reached for ` +
      `${f.seconds} s (${f.reason}): check that it runs, ${THEN}`,
  },
  blobRefused: {
    effect: "failJob",
    words: (f) =>
      `The blob store (${f.store}) refused access (${f.status} ${f.code}): ` +
      "check S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and the bucket's " +
      `permissions, ${THEN}`,
  },
  blobFull: {
    effect: "failJob",
    words: (f) =>
      `The blob store (${f.store}) is full: free some space, ${THEN}`,
  },
  blobRejected: {
    effect: "failJob",
    words: (f) =>
      `${STOPPED}: the blob store (${f.store}) did not take the job's ` +
      `results (it answered ${f.status} ${f.code}: ${f.detail}): check that ` +
      `it has room and works, ${THEN}`,
  },
  connectionLost: {
    effect: "retry",
    words: () => `${STOPPED}: the connection to the database was lost`,
  },
  lockNotAvailable: {
    effect: "retry",
    words: () =>
      `${STOPPED}: a part of the job stayed locked in the database by a ` +
      "worker that stopped answering",
  },
  handedBack: { effect: "retry", words: () => STOPPED },
  chunkTaken: { effect: "none", words: () => STOPPED },
  jobStopped: { effect: "none", words: () => STOPPED },
  abandoned: {
    effect: "failJob",
    words: () =>
      `${STOPPED}: a part of the file failed several times in a row (a ` +
      "worker stopped or lost its database while processing it). Restart " +
      "the job to try again; its finished rows are kept.",
  },
  crashed: { effect: "failJob", words: (f) => `${STOPPED}: ${f.detail}` },
  stalled: {
    effect: "failJob",
    words: ({ seconds }) =>
      `${STOPPED}: no rows were finished for ${
        seconds < 120
          ? `${seconds} seconds`
          : `${Math.round(seconds / 60)} minutes`
      } (JOB_STALL_SECONDS), so the job was stopped to let other jobs run. ` +
      "Restart it to continue from its last saved row.",
  },
  error: { effect: "failJob", words: (f) => `${STOPPED}: ${f.detail}` },
};

export const failureEffect = (failure: JobFailure): FailureEffect =>
  KINDS[failure.kind].effect;

/** The words a job that failed for `failure` shows. */
export function failureWords(failure: JobFailure, dataDir: string): string {
  const { words } = KINDS[failure.kind] as {
    words(failure: JobFailure, dataDir: string): string;
  };
  return words(failure, dataDir);
}

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
  if (isLockNotAvailable(error)) return { kind: "lockNotAvailable" };
  if (error instanceof ChunkTaken) return { kind: "chunkTaken" };
  if (error instanceof JobStopped) return { kind: "jobStopped" };
  return { kind: "error", detail: (error as Error)?.message ?? String(error) };
}
