// A data directory of an earlier version, whose jobs' rows are in SQLite's
// results table: at start a completed job's rows become its parts (its
// download, preview and summary read as before) and the table is emptied;
// a job left processing starts again from its first row.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { LocalBlobStore } from "../blobs/local_blobs.ts";
import { SqliteChunkProgress } from "../storage/sqlite_chunks.ts";
import { Store } from "../storage/store.ts";
import { JobResults } from "./job_results.ts";
import { moveLegacyResults } from "./legacy_results.ts";

const newJob = {
  fileName: "f.csv",
  originalFileName: "f.csv",
  ipColumnName: "ip",
  ipColumnIndex: 0,
  headers: ["ip", "n"],
  delimiter: ",",
  totalIPs: 3,
  options: { geolocation: true, domain: false, company: true, network: true },
};

/** A row as an earlier version stored it. */
function insertOld(store: Store, jobId: number, i: number, filtered: boolean) {
  const columns = [
    "job_id",
    "row_index",
    "original",
    "ip",
    "success",
    "error",
    "failure_kind",
    "failure_range",
    "isp_filtered",
    "country",
    "company",
    "network_type",
  ];
  store.db.prepare(
    `INSERT INTO results (${columns}) VALUES (${columns.map(() => "?")})`,
  ).run(
    jobId,
    i,
    JSON.stringify([`8.8.8.${i}`, `row ${i}`]),
    `8.8.8.${i}`,
    1,
    null,
    null,
    null,
    filtered ? 1 : 0,
    "United States",
    filtered ? "Comcast" : "Google LLC",
    filtered ? "consumer_isp" : "hosting",
  );
}

Deno.test("rows of an earlier version become parts once, at start", async () => {
  const dir = await Deno.makeTempDir({ prefix: "legacy-" });
  const store = new Store(join(dir, "enrichment.db"));
  const results = new JobResults(
    new LocalBlobStore(dir),
    new SqliteChunkProgress(store),
  );
  try {
    const done = store.createJob(newJob);
    const running = store.createJob(newJob);
    for (const job of [done, running]) {
      store.setStatus(job.id, "processing", ["pending"]);
      [0, 1, 2].forEach((i) => insertOld(store, job.id, i, i === 1));
      store.db.prepare(
        `UPDATE jobs SET processed_ips = 3, successful_ips = 3,
          filtered_ips = 1 WHERE id = ?`,
      ).run(job.id);
    }
    store.setStatus(done.id, "completed", ["processing"]);
    await moveLegacyResults(store, results);
    await moveLegacyResults(store, results); // once: nothing left to move

    const job = store.getJob(done.id)!;
    assertEquals(job.processedIPs, 3);
    const rows = await results.between(job, 0, 10);
    assertEquals(
      rows.map((r) => r.original),
      [0, 1, 2].map((i) => [
        `8.8.8.${i}`,
        `row ${i}`,
      ]),
    );
    assertEquals(rows[1].enrichment.network_type, "consumer_isp");
    const csv = await new Response(await results.csvBody(job)).text();
    assertEquals(csv.trimEnd().split("\r\n").length, 1 + 2);
    const summary = await results.summary(job);
    assertEquals(summary.rows.total, 3);
    assertEquals(summary.topCompanies, [{ company: "Google LLC", count: 2 }]);

    // The job left processing runs again from its first row.
    const again = store.getJob(running.id)!;
    assertEquals([again.status, again.processedIPs], ["processing", 0]);
    assertEquals(await results.chunks.chunks(running.id), []);
    assertEquals(
      store.db.prepare("SELECT count(*) AS n FROM results").get()?.n,
      0,
    );
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
