// Choosing the blob store from the environment, and the errors a half-done
// S3 setup gets.
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import {
  BlobConfigError,
  blobConfigFromEnv,
  openBlobStore,
} from "./blob_config.ts";
import { LocalBlobStore } from "./local_blobs.ts";
import { S3BlobStore } from "./s3_blobs.ts";

const S3_ENV = {
  S3_ENDPOINT: "https://s3.example.test/",
  S3_BUCKET: "ip-uploads",
  S3_ACCESS_KEY_ID: "AKID",
  S3_SECRET_ACCESS_KEY: "secret",
};

Deno.test("without S3 settings uploads stay in DATA_DIR/uploads", () => {
  const config = blobConfigFromEnv({ S3_BUCKET: " " }, "/data/");
  assertEquals(config, { kind: "local", dir: "/data/uploads" });
  const store = openBlobStore(config);
  assertEquals(store instanceof LocalBlobStore && store.root, "/data/uploads");
});

Deno.test("complete S3 settings choose S3; region defaults to us-east-1", () => {
  const config = blobConfigFromEnv(S3_ENV, "/data");
  assertEquals(config, {
    kind: "s3",
    endpoint: "https://s3.example.test",
    bucket: "ip-uploads",
    region: "us-east-1",
    accessKeyId: "AKID",
    secretAccessKey: "secret",
  });
  assertEquals(openBlobStore(config) instanceof S3BlobStore, true);
  const region = blobConfigFromEnv({ ...S3_ENV, S3_REGION: "eu-west-1" }, "/d");
  assertEquals(region.kind === "s3" && region.region, "eu-west-1");
});

Deno.test("a partial or malformed S3 setup is an error naming what is wrong", () => {
  throws(
    () => blobConfigFromEnv({ S3_BUCKET: "ip-uploads" }, "/data"),
    (error: Error) =>
      error instanceof BlobConfigError &&
      error.message.includes(
        "S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY",
      ) && error.message.includes("S3_BUCKET is set"),
  );
  const cases: [Record<string, string>, string][] = [
    [{ ...S3_ENV, S3_ENDPOINT: "s3.example.test" }, "is not a URL"],
    [
      { ...S3_ENV, S3_ENDPOINT: "ftp://s3.example.test" },
      "http:// or https://",
    ],
    [{ ...S3_ENV, S3_ENDPOINT: "https://s3.test/?a=1" }, "query"],
    [{ ...S3_ENV, S3_BUCKET: "Bad_Bucket" }, "is not a bucket name"],
  ];
  for (const [env, text] of cases) {
    throws(
      () => blobConfigFromEnv(env, "/data"),
      (error: Error) =>
        error instanceof BlobConfigError && error.message.includes(text),
    );
  }
});
