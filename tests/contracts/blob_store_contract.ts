// The behaviour every BlobStore adapter must show, run against each one by
// blob_store_test.ts. Each test works under its own key prefix.
import {
  deepStrictEqual as assertEquals,
  ok,
  rejects,
} from "node:assert/strict";
import {
  BlobKeyError,
  BlobNotFound,
  type BlobStore,
  BlobTooLarge,
  type ByteRange,
  bytesOf,
} from "../../server/blobs/blob_store.ts";

/** Deterministic bytes, so any misplaced byte shows. */
export function pattern(size: number, offset = 0): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    const n = i + offset;
    bytes[i] = (n * 31 + (n >> 8)) & 255;
  }
  return bytes;
}

/** Streams `size` pattern bytes in pieces of `piece`, never all at once. */
function patternStream(size: number, piece = 64 * 1024) {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      const length = Math.min(piece, size - sent);
      controller.enqueue(pattern(length, sent));
      sent += length;
    },
  });
}

export function blobStoreContract(
  adapter: string,
  open: () => Promise<{ store: BlobStore; close(): Promise<void> }>,
): void {
  let tests = 0;
  const test = (
    name: string,
    body: (store: BlobStore, prefix: string) => Promise<void>,
  ) =>
    Deno.test(`${adapter}: ${name}`, async () => {
      const { store, close } = await open();
      try {
        await body(store, `t${++tests}-${crypto.randomUUID()}/`);
      } finally {
        await close();
      }
    });

  test("put, get, head, replace and delete", async (store, prefix) => {
    const key = `${prefix}uploads/1.csv`;
    assertEquals(await store.put(key, patternStream(1000)), 1000);
    assertEquals(await bytesOf(await store.get(key)), pattern(1000));
    const info = await store.head(key);
    assertEquals(info?.size, 1000);
    ok(Math.abs(info!.modifiedAt.getTime() - Date.now()) < 120_000);
    assertEquals(await store.put(key, patternStream(10)), 10);
    assertEquals(await bytesOf(await store.get(key)), pattern(10));
    await store.delete(key);
    assertEquals(await store.head(key), null);
    await rejects(() => store.get(key), BlobNotFound);
    await store.delete(key); // deleting a missing blob is fine
  });

  test("byte ranges for reading a job in chunks", async (store, prefix) => {
    const key = `${prefix}ranges.csv`;
    await store.put(key, patternStream(5000));
    const cases: [ByteRange, number, number][] = [
      [{ start: 0, end: 10 }, 0, 10],
      [{ start: 1234, end: 4321 }, 1234, 4321],
      [{ start: 4990 }, 4990, 5000],
      [{ start: 4995, end: 9000 }, 4995, 5000],
      [{ start: 300, end: 300 }, 300, 300],
      [{ start: 5000 }, 5000, 5000],
    ];
    for (const [range, from, to] of cases) {
      assertEquals(
        await bytesOf(await store.get(key, range)),
        pattern(5000).slice(from, to),
        JSON.stringify(range),
      );
      assertEquals(
        await store.bytes(key, range),
        pattern(5000).slice(from, to),
        `bytes ${JSON.stringify(range)}`,
      );
    }
    assertEquals(await store.bytes(key), pattern(5000));
    await rejects(() => store.bytes(`${prefix}none`), BlobNotFound);
    await rejects(
      () => store.bytes(`${prefix}none`, { start: 0, end: 10 }),
      BlobNotFound,
    );
    await rejects(() => store.get(key, { start: 10, end: 5 }), RangeError);
    await rejects(
      () => store.get(`${prefix}none`, { start: 0, end: 0 }),
      BlobNotFound,
    );
  });

  test(
    "a body over maxBytes is refused and nothing is stored",
    async (store, prefix) => {
      const key = `${prefix}big.csv`;
      await rejects(
        () => store.put(key, patternStream(1001, 100), { maxBytes: 1000 }),
        BlobTooLarge,
      );
      assertEquals(await store.head(key), null);
      assertEquals(
        await store.put(key, patternStream(1000), { maxBytes: 1000 }),
        1000,
      );
      // Refused after several parts have gone out (a multipart upload for S3):
      // the blob already there stays as it was, and no other blob appears.
      await rejects(
        () => store.put(key, patternStream(12 << 20), { maxBytes: 11 << 20 }),
        BlobTooLarge,
      );
      assertEquals(await bytesOf(await store.get(key)), pattern(1000));
      const listed = await store.listOlderThan(
        new Date(Date.now() + 60_000),
        prefix,
      );
      assertEquals(listed.map((blob) => [blob.key, blob.size]), [[key, 1000]]);
    },
  );

  test(
    "keys that could escape their place are refused",
    async (store, prefix) => {
      for (
        const key of [
          "../x",
          "/etc/passwd",
          `${prefix}a/../../b`,
          "a//b",
          "",
          "a/./b",
          "a\\b",
          `${prefix}`,
        ]
      ) {
        await rejects(
          () => store.put(key, patternStream(1)),
          BlobKeyError,
          key,
        );
        await rejects(() => store.get(key), BlobKeyError, key);
        await rejects(() => store.head(key), BlobKeyError, key);
        await rejects(() => store.delete(key), BlobKeyError, key);
      }
    },
  );

  test(
    "listOlderThan finds old blobs under a prefix",
    async (store, prefix) => {
      await store.put(`${prefix}uploads/a.csv`, patternStream(3));
      await store.put(`${prefix}uploads/b.csv`, patternStream(4));
      await store.put(`${prefix}other/c.csv`, patternStream(5));
      const future = new Date(Date.now() + 3_600_000);
      const past = new Date(Date.now() - 3_600_000);
      const found = await store.listOlderThan(future, `${prefix}uploads/`);
      assertEquals(found.map(({ key, size }) => ({ key, size })), [
        { key: `${prefix}uploads/a.csv`, size: 3 },
        { key: `${prefix}uploads/b.csv`, size: 4 },
      ]);
      assertEquals(await store.listOlderThan(past, prefix), []);
      assertEquals((await store.listOlderThan(future, prefix)).length, 3);
      await rejects(() => store.listOlderThan(future, "../"), BlobKeyError);
    },
  );

  test(
    "a 20 MB blob streams in and reads back by ranges",
    async (store, prefix) => {
      const key = `${prefix}large.csv`;
      const size = 20 * 1024 * 1024;
      assertEquals(await store.put(key, patternStream(size)), size);
      assertEquals((await store.head(key))?.size, size);
      const middle = { start: 9 * 1024 * 1024 - 7, end: 11 * 1024 * 1024 + 3 };
      assertEquals(
        await bytesOf(await store.get(key, middle)),
        pattern(middle.end - middle.start, middle.start),
      );
      assertEquals(await bytesOf(await store.get(key)), pattern(size));
      await store.delete(key);
    },
  );
}
