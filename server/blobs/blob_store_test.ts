// The BlobStore contract against the local directory adapter and the S3
// adapter (npm:s3rver on loopback), and the S3 adapter's multipart upload.
import { startS3 } from "../../tests/helpers/s3_server.ts";
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  blobStoreContract,
  pattern,
} from "../../tests/contracts/blob_store_contract.ts";
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

Deno.test("s3: a body larger than one part goes up as a multipart upload", async () => {
  const s3 = await startS3();
  const requests: string[] = [];
  const realFetch = globalThis.fetch;
  // Watch the requests the adapter makes: it signs with aws4fetch, which
  // sends through the global fetch.
  globalThis.fetch = (input, init) => {
    const request = new Request(input, init);
    const { search } = new URL(request.url);
    requests.push(`${request.method} ${search.replace(/=[^&]*/g, "")}`);
    return realFetch(request);
  };
  try {
    const store = new S3BlobStore({ ...s3, partSize: 5 * 1024 * 1024 });
    const size = 12 * 1024 * 1024;
    const body = new Blob([pattern(size)]).stream();
    assertEquals(await store.put("uploads/multi.csv", body), size);
    assertEquals(requests, [
      "POST ?uploads",
      "PUT ?partNumber&uploadId",
      "PUT ?partNumber&uploadId",
      "PUT ?partNumber&uploadId",
      "POST ?uploadId",
    ]);
    const stored = await new Response(await store.get("uploads/multi.csv"))
      .arrayBuffer();
    assertEquals(new Uint8Array(stored), pattern(size));
  } finally {
    globalThis.fetch = realFetch;
    await s3.stop();
  }
});
