// Scheduled housekeeping (Deno.cron): uploads no job used are removed after a
// day; every minute, a job left "processing" with a chunk the queue gave up
// on fails (JobLifecycle.sweep); registration answers past their age leave
// the RDAP cache once a day (lookups already ignore them; this keeps the
// table from only growing).
import { unlink } from "node:fs/promises";
import { join } from "node:path";
import type { BlobStore } from "../blobs/blob_store.ts";
import type { RdapCache } from "../storage/rdap_cache.ts";
import type { JobStore } from "../storage/store_interface.ts";
import { logInfo } from "../log.ts";

export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

export async function removeStaleUploads(
  store: JobStore,
  uploadsDir: string,
  now = Date.now(),
  blobs: BlobStore | null = null,
): Promise<number> {
  const stale = await store.unusedUploadsBefore(
    new Date(now - UPLOAD_TTL_MS).toISOString(),
  );
  for (const upload of stale) {
    await store.deleteUpload(upload.fileName);
    await unlink(join(uploadsDir, upload.fileName)).catch(() => {});
    await blobs?.delete(upload.fileName);
  }
  return stale.length;
}

export function scheduleHousekeeping(
  { store, stuckJobs, uploadsDir, blobs = null, rdapCache = null }: {
    store: JobStore;
    /** Fails jobs left processing with a chunk the queue gave up on. */
    stuckJobs: () => unknown;
    uploadsDir: string;
    /** Shared copies of uploads (S3), removed with the local files. */
    blobs?: BlobStore | null;
    /** The RDAP cache, when registration lookups are on. */
    rdapCache?: RdapCache | null;
  },
): void {
  Deno.cron("remove unused uploads", "17 * * * *", async () => {
    const removed = await removeStaleUploads(
      store,
      uploadsDir,
      Date.now(),
      blobs,
    );
    if (removed > 0) logInfo(`removed ${removed} unused upload(s)`);
  });
  Deno.cron("stuck jobs", "* * * * *", async () => {
    await stuckJobs();
  });
  if (rdapCache) {
    Deno.cron("prune the RDAP cache", "41 3 * * *", async () => {
      const pruned = await rdapCache.prune();
      if (pruned > 0) {
        logInfo(`pruned ${pruned} old registration answer(s)`);
      }
    });
  }
}
