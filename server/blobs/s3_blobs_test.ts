// S3's errors as a loopback server speaking S3's error documents gives them:
// a server error or a store that cannot be reached is asked again, with
// growing waits, before it stands; a full store (MinIO's XMinioStorageFull,
// 507) or a refusal stands at once. What stands names the store, the request,
// and S3's code and message, in plain words.
import {
  deepStrictEqual as assertEquals,
  match,
  ok,
  rejects,
} from "node:assert/strict";
import { BlobStoreError, BlobStoreUnreachable } from "./blob_store.ts";
import { S3BlobStore } from "./s3_blobs.ts";
import { failureOf, failureWords } from "../jobs/job_failure.ts";

/** An S3 stand-in answering each PUT with the next of `answers` (then 200). */
async function withServer(
  answers: [number, string][],
  fn: (store: S3BlobStore, puts: () => number) => Promise<void>,
) {
  let puts = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      await request.arrayBuffer();
      const [status, code] = answers[puts++] ?? [200, ""];
      if (status === 200) return new Response(null, { status });
      return new Response(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code>` +
          `<Message>${code} &amp; more</Message></Error>`,
        { status, headers: { "content-type": "application/xml" } },
      );
    },
  );
  const endpoint = `http://127.0.0.1:${server.addr.port}`;
  try {
    await fn(
      new S3BlobStore({
        endpoint,
        bucket: "b",
        region: "us-east-1",
        accessKeyId: "k",
        secretAccessKey: "s",
        retryMs: 1000,
      }),
      () => puts,
    );
  } finally {
    await server.shutdown();
  }
}

const body = () => ReadableStream.from([new Uint8Array([1, 2, 3])]);

Deno.test("S3: a server error is asked again, and may pass", () =>
  withServer(
    [[500, "InternalError"], [503, "SlowDown"]],
    async (store, puts) => {
      assertEquals(await store.put("a/b.csv", body()), 3);
      assertEquals(puts(), 3);
    },
  ));

Deno.test("S3: an error that stands says what it was, and a full store says so", async () => {
  await withServer(
    Array(4).fill([507, "XMinioStorageFull"]),
    async (store, puts) => {
      const error = await store.put("results/1/0.csv", body()).catch((e) => e);
      ok(error instanceof BlobStoreError, String(error));
      assertEquals(puts(), 1); // full does not pass by itself

      assertEquals(error.full, true);
      ok(error.store.startsWith("S3 at http://127.0.0.1:"));
      assertEquals(
        failureWords(failureOf(error), "/data"),
        `The blob store (${error.store}) is full: free some space, then ` +
          "press Restart; rows saved so far are kept",
      );
    },
  );
  await withServer([[403, "AccessDenied"]], async (store, puts) => {
    await rejects(
      () => store.put("results/1/0.csv", body()),
      (error: BlobStoreError) => {
        assertEquals(puts(), 1); // not a server error: not asked again
        assertEquals(error.full, false);
        assertEquals(
          error.message,
          `${error.store}: PUT results/1/0.csv answered 403 AccessDenied: ` +
            "AccessDenied & more",
        );
        assertEquals(
          failureWords(failureOf(error), "/data"),
          `The blob store (${error.store}) refused access (403 ` +
            "AccessDenied): check S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY " +
            "and the bucket's permissions, then press Restart; rows saved " +
            "so far are kept",
        );
        return true;
      },
    );
  });
});

Deno.test("a full disk, or another error, as a stopped job says it", () => {
  const enospc = Object.assign(new Error("No space left on device"), {
    code: "ENOSPC",
  });
  assertEquals(
    failureWords(failureOf(enospc), "/data"),
    "The disk holding the data directory (/data) is full: free some space, " +
      "then press Restart; rows saved so far are kept",
  );
  // From SQLite, as a job thread meets it.
  const sqliteFull = Object.assign(new Error("database or disk is full"), {
    errcode: 13,
  });
  assertEquals(failureOf(sqliteFull), { kind: "diskFull" });
  assertEquals(
    failureWords(failureOf(new Error("boom")), "/d"),
    "Processing stopped: boom",
  );
});

/** A loopback port nothing listens on (yet). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

const storeAt = (port: number, retryMs: number) =>
  new S3BlobStore({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: "b",
    region: "us-east-1",
    accessKeyId: "k",
    secretAccessKey: "s",
    retryMs,
  });

Deno.test("S3: a store that cannot be reached is waited for, and may come back", async () => {
  const port = freePort();
  const store = storeAt(port, 10_000);
  const put = store.put("results/1/0.csv", body());
  let server: Deno.HttpServer | null = null;
  // It comes back once the store has tried and failed.
  await new Promise((resolve) => setTimeout(resolve, 300));
  server = Deno.serve(
    { hostname: "127.0.0.1", port, onListen: () => {} },
    async (request) => {
      await request.arrayBuffer();
      return new Response(null, { status: 200 });
    },
  );
  try {
    assertEquals(await put, 3);
  } finally {
    await server.shutdown();
  }
});

Deno.test("S3: one that stays away stops the job in plain words", async () => {
  const store = storeAt(freePort(), 400);
  const error = await store.put("results/1/0.csv", body()).catch((e) => e);
  ok(error instanceof BlobStoreUnreachable, String(error));
  assertEquals(error.request, "PUT results/1/0.csv");
  match(
    failureWords(failureOf(error), "/data"),
    new RegExp(
      `^Processing stopped: the blob store \\(S3 at http://127\\.0\\.0\\.1:\\d+\\) ` +
        "could not be reached for 0 s \\(.+\\): check that it runs, then " +
        "press Restart; rows saved so far are kept$",
    ),
  );
});
