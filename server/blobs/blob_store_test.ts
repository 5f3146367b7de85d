// The BlobStore contract against the local directory adapter and the S3
// adapter (npm:s3rver on loopback).
import { startS3 } from "../../tests/helpers/s3_server.ts";
import { blobStoreContract } from "./blob_store_contract.ts";
import { LocalBlobStore } from "./local_blobs.ts";
import { S3BlobStore } from "./s3_blobs.ts";

blobStoreContract("local", async () => {
  const dir = await Deno.makeTempDir({ prefix: "blobs-test-" });
  return {
    store: new LocalBlobStore(`${dir}/uploads`),
    close: () => Deno.remove(dir, { recursive: true }),
  };
});

blobStoreContract("s3", async () => {
  const s3 = await startS3();
  // Small parts, so the 20 MB test sends a multipart upload of several parts.
  return {
    store: new S3BlobStore({ ...s3, partSize: 5 * 1024 * 1024 }),
    close: s3.stop,
  };
});
