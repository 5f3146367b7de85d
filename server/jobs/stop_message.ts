// What a job stopped by an error says, in both modes: a full disk or a blob
// store that will not take the job's results in plain words and what to
// do; any other error as it is.
import { BlobStoreError } from "../blobs/blob_store.ts";
import { isDiskFull, jobDiskFullMessage } from "../storage/disk_full.ts";

/** The job's error for `error` (or its text, from a job thread). */
export function jobStoppedMessage(error: unknown, dataDir: string): string {
  if (isDiskFull(error)) return jobDiskFullMessage(dataDir);
  const then = "then press Restart; rows saved so far are kept";
  if (error instanceof BlobStoreError) {
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
