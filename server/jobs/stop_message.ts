// What a job stopped by an error says, in both modes: a full disk, a blob
// store that is full, refuses access or cannot be reached, in plain words and
// what to do; any other error as it is.
import { BlobStoreError, BlobStoreUnreachable } from "../blobs/blob_store.ts";
import { isDiskFull, jobDiskFullMessage } from "../storage/disk_full.ts";

/** The job's error for `error` (or its text, from a job thread). */
export function jobStoppedMessage(error: unknown, dataDir: string): string {
  if (isDiskFull(error)) return jobDiskFullMessage(dataDir);
  const then = "then press Restart; rows saved so far are kept";
  if (error instanceof BlobStoreUnreachable) {
    return `Processing stopped: the blob store (${error.store}) could not ` +
      `be reached for ${error.seconds} s (${error.reason}): check that it ` +
      `runs, ${then}`;
  }
  if (error instanceof BlobStoreError) {
    if (error.status === 401 || error.status === 403) {
      return `The blob store (${error.store}) refused access (` +
        `${error.status} ${error.code}): check S3_ACCESS_KEY_ID, ` +
        `S3_SECRET_ACCESS_KEY and the bucket's permissions, ${then}`;
    }
    return error.full
      ? `The blob store (${error.store}) is full: free some space, ${then}`
      : `Processing stopped: the blob store (${error.store}) did not take ` +
        `the job's results (it answered ${error.status} ${error.code}: ` +
        `${error.detail}): check that it has room and works, ${then}`;
  }
  return `Processing stopped: ${
    typeof error === "string" ? error : (error as Error).message
  }`;
}
