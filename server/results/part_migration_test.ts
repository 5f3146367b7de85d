// Parts named by their chunk alone (before runs named them) read as they
// did. Chunks stored a blob per section (rows kept as lines, or as cells
// before lines; with or without `.addrs`) are rewritten once as one index,
// and read as they did; a pass stopped before the old blobs went is finished by the
// next; in the data directory and in S3 (npm:s3rver on loopback).
// tests/http/old_data_dir_test.ts starts the server on a real data
// directory of an earlier version.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import type { BlobStore } from "../blobs/blob_store.ts";
import { LocalBlobStore } from "../blobs/local_blobs.ts";
import { S3BlobStore } from "../blobs/s3_blobs.ts";
import { startS3 } from "../../tests/helpers/s3_server.ts";
import { emptyEnrichment } from "../enrichment/types.ts";
import type { StoredResult } from "../storage/result_rows.ts";
import { SqliteChunkProgress } from "../storage/sqlite_chunks.ts";
import { Store } from "../storage/store.ts";
import { newJob, seedRows } from "../../tests/helpers/seed_results.ts";
import {
  storeAsSections,
  storeUnnamed,
} from "../../tests/helpers/old_parts.ts";
import { JobResults } from "./job_results.ts";
import { migrateParts } from "./part_migration.ts";

function row(i: number): StoredResult {
  const ip = `203.0.113.${i % 40}`;
  const enrichment = emptyEnrichment(ip);
  Object.assign(enrichment, {
    success: i % 9 !== 0,
    ispFiltered: i % 3 === 0,
    company: `Company ${i % 5}, "Ltd"`,
    asn: `AS${i % 5}`,
    city: `City ${i % 700}`,
    country_code: "DE",
    network_type: i % 3 === 0 ? "consumer_isp" : "business",
  });
  return { rowIndex: i, original: [`name ${i}`, ip, `=n;${i}`], enrichment };
}

const blobStores: Record<
  string,
  (dir: string) => Promise<{ blobs: BlobStore; close(): Promise<void> }>
> = {
  "data directory": (dir) =>
    Promise.resolve({ blobs: new LocalBlobStore(dir), close: async () => {} }),
  s3: async () => {
    const s3 = await startS3();
    return { blobs: new S3BlobStore(s3), close: s3.stop };
  },
};

for (const [where, open] of Object.entries(blobStores)) {
  Deno.test(`${where}: chunks stored a blob per section become one index and read the same`, () =>
    migrateIn(open));
}

async function migrateIn(open: (typeof blobStores)[string]) {
  const dir = await Deno.makeTempDir({ prefix: "part-migration-" });
  const store = new Store(join(dir, "test.db"));
  const { blobs, close } = await open(dir);
  try {
    const results = new JobResults(blobs, new SqliteChunkProgress(store));
    const job = store.createJob({ ...newJob, totalIPs: 1300 });
    const rows = Array.from({ length: 1300 }, (_, i) => row(i));
    await seedRows(store, results, job.id, rows, { chunkRows: 650 });
    const done = store.getJob(job.id)!;
    const read = async () => {
      await results.blobs.delete(`results/${job.id}/summary.json`);
      const fresh = new JobResults(results.blobs, results.chunks);
      return {
        csv: await new Response(await fresh.csvBody(done)).text(),
        summary: await fresh.summary(done),
        page: await fresh.preview(done, { text: "company" }, 2, 100),
        live: await fresh.between(done, 600, 700),
      };
    };
    const before = await read();
    const keys = async () =>
      (await results.blobs.listOlderThan(new Date(Date.now() + 1e9), "results"))
        .map((b) => b.key).sort();
    // Parts named by their chunk alone read the same.
    await storeUnnamed(results, job.id);
    assertEquals(await read(), before);
    const indexed = await keys();
    // Chunk 0 as c7df1dc stored it, chunk 1 as 604f446 did.
    await storeAsSections(results, job.id, [0]);
    ok((await keys()).includes(`results/${job.id}/0.rows`));
    await migrateParts(store, results);
    assertEquals(await keys(), [...indexed, "results/format"].sort());
    assertEquals(await read(), before);
    // Stopped after the index was recorded, before the old blobs went.
    await results.blobs.delete("results/format");
    await results.blobs.put(
      `results/${job.id}/1.rows`,
      ReadableStream.from([new Uint8Array([1])]),
    );
    await migrateParts(store, results);
    assertEquals(await keys(), [...indexed, "results/format"].sort());
    assertEquals(await read(), before);
  } finally {
    await close();
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}
