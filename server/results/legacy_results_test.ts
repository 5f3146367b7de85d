// A database of an earlier version, whose jobs' rows are in its results
// table (SQLite's, or PostgreSQL's partition per job): at start a completed
// job's rows become its parts (its download, preview and summary read as
// before) and the table is emptied; a job left processing starts again from
// its first row. The same checks on both stores.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { startPostgres } from "../../tests/helpers/postgres.ts";
import { LocalBlobStore } from "../blobs/local_blobs.ts";
import type { ChunkProgressStore } from "../storage/chunk_progress.ts";
import { sqliteLegacyTable } from "../storage/legacy_table.ts";
import { pgLegacyTable } from "../storage/pg/pg_legacy_table.ts";
import { partitionName } from "../storage/pg/pg_schema.ts";
import { PgStore } from "../storage/pg/pg_store.ts";
import { SqliteChunkProgress } from "../storage/sqlite_chunks.ts";
import { Store } from "../storage/store.ts";
import type { JobStore } from "../storage/store_interface.ts";
import { JobResults } from "./job_results.ts";
import { type LegacyTable, moveLegacyResults } from "./legacy_results.ts";

const newJob = {
  fileName: "f.csv",
  originalFileName: "f.csv",
  ipColumnName: "ip",
  ipColumnIndex: 0,
  headers: ["ip", "n"],
  dialect: null,
  totalIPs: 3,
  options: { geolocation: true, domain: false, company: true, network: true },
};

/** A row as an earlier version stored it (column, value). */
function oldRow(jobId: number, i: number): [string, unknown][] {
  const filtered = i === 1;
  return [
    ["job_id", jobId],
    ["row_index", i],
    ["original", JSON.stringify([`8.8.8.${i}`, `row ${i}`])],
    ["ip", `8.8.8.${i}`],
    ["success", 1],
    ["isp_filtered", filtered ? 1 : 0],
    ["country", "United States"],
    ["company", filtered ? "Comcast" : "Google LLC"],
    ["network_type", filtered ? "consumer_isp" : "hosting"],
  ];
}

interface OldDatabase {
  store: JobStore;
  chunks: ChunkProgressStore;
  table: LegacyTable;
  /** Stores rows 0-2 of a job, and its counters, as an earlier version. */
  insertOld(jobId: number): Promise<void>;
  oldRows(): Promise<number>;
  close(): Promise<void>;
}

function legacyContract(name: string, open: () => Promise<OldDatabase>) {
  Deno.test(`${name}: rows of an earlier version become parts once, at start`, async () => {
    const db = await open();
    const { store } = db;
    const dir = await Deno.makeTempDir({ prefix: "legacy-" });
    const results = new JobResults(new LocalBlobStore(dir), db.chunks);
    try {
      const done = await store.createJob(newJob);
      const running = await store.createJob(newJob);
      for (const job of [done, running]) {
        await store.setStatus(job.id, "processing", ["pending"]);
        await db.insertOld(job.id);
      }
      await store.setStatus(done.id, "completed", ["processing"]);
      await moveLegacyResults(store, db.table, results);
      // Once: nothing left to move.
      await moveLegacyResults(store, db.table, results);

      const job = (await store.getJob(done.id))!;
      assertEquals(job.processedIPs, 3);
      const rows = await results.between(job, 0, 10);
      assertEquals(
        rows.map((r) => r.original),
        [0, 1, 2].map((i) => [`8.8.8.${i}`, `row ${i}`]),
      );
      assertEquals(rows[1].enrichment.network_type, "consumer_isp");
      const csv = await new Response(await results.csvBody(job)).text();
      assertEquals(csv.trimEnd().split("\r\n").length, 1 + 2);
      const summary = await results.summary(job);
      assertEquals(summary.rows.total, 3);
      assertEquals(summary.topCompanies, [{ company: "Google LLC", count: 2 }]);

      // The job left processing runs again from its first row.
      const again = (await store.getJob(running.id))!;
      assertEquals([again.status, again.processedIPs], ["processing", 0]);
      assertEquals(await db.chunks.chunks(running.id), []);
      assertEquals(await db.oldRows(), 0);
    } finally {
      await db.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

const COUNTERS = `processed_ips = 3, successful_ips = 3, filtered_ips = 1`;

legacyContract("sqlite", async () => {
  const dir = await Deno.makeTempDir({ prefix: "legacy-db-" });
  const store = new Store(join(dir, "enrichment.db"));
  return {
    store,
    chunks: new SqliteChunkProgress(store),
    table: sqliteLegacyTable(store),
    insertOld(jobId) {
      for (const i of [0, 1, 2]) {
        const row = oldRow(jobId, i);
        store.db.prepare(
          `INSERT INTO results (${row.map(([c]) => c)})
            VALUES (${row.map(() => "?")})`,
        ).run(...row.map(([, v]) => v as string | number));
      }
      store.db.prepare(`UPDATE jobs SET ${COUNTERS} WHERE id = ?`).run(jobId);
      return Promise.resolve();
    },
    oldRows: () =>
      Promise.resolve(
        Number(store.db.prepare("SELECT count(*) AS n FROM results").get()?.n),
      ),
    async close() {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
});

const pg = await startPostgres("legacy");
legacyContract("postgres", async () => {
  const store = await PgStore.open(await pg.createDatabase("legacy_rows"), 2);
  const { sql } = store;
  return {
    store,
    chunks: store.chunkProgress,
    table: pgLegacyTable(sql),
    async insertOld(jobId) {
      // An earlier version made a partition per job.
      await sql.unsafe(
        `CREATE TABLE ${partitionName(jobId)} PARTITION OF results
          FOR VALUES IN (${jobId})`,
      );
      for (const i of [0, 1, 2]) {
        await sql`INSERT INTO results ${
          sql(Object.fromEntries(oldRow(jobId, i)) as Record<string, string>)
        }`;
      }
      await sql.unsafe(`UPDATE jobs SET ${COUNTERS} WHERE id = ${jobId}`);
    },
    oldRows: async () =>
      Number((await sql`SELECT count(*)::int AS n FROM results`)[0].n),
    close: () => store.close(),
  };
});

Deno.test({
  name: "postgres: stop the server",
  sanitizeResources: false,
  fn: () => pg.stop(),
});
