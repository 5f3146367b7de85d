// A worker whose data directory is its own copies a job's upload from the
// shared blob store (S3) before it runs the job's first chunk here.
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { BlobStore } from "./blob_store.ts";

/**
 * Copies the upload from the blob store when this machine lacks it; true
 * when the upload is here (then or already). A store that does not answer
 * is waited for by the store itself (S3BlobStore), the chunk held.
 */
export async function copyUploadHere(
  blobs: BlobStore | null,
  uploadsDir: string,
  fileName: string,
): Promise<boolean> {
  const path = join(uploadsDir, fileName);
  if (await Deno.stat(path).then(() => true, () => false)) return true;
  if (!blobs || !await blobs.head(fileName)) return false;
  const partial = `${path}.${crypto.randomUUID()}.part`;
  const file = await open(partial, "w");
  try {
    for await (const bytes of await blobs.get(fileName)) {
      await file.write(bytes);
    }
  } catch (error) {
    await file.close();
    await Deno.remove(partial).catch(() => {});
    throw error;
  }
  await file.close();
  await Deno.rename(partial, path);
  return true;
}
