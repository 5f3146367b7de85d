// Databases written by earlier versions open migrated (uploads without cuts,
// jobs stored before dialects were kept); one older than the base schema is
// refused.
import {
  deepStrictEqual as assertEquals,
  throws as assertThrows,
} from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { LocalBlobStore } from "../blobs/local_blobs.ts";
import { DIALECT_MIGRATION } from "../csv/dialect.ts";
import { planJobChunks } from "../jobs/run_chunk.ts";
import { JobResults } from "../results/job_results.ts";
import { SqliteChunkProgress } from "./sqlite_chunks.ts";
import { BASE_SCHEMA, BASE_VERSION, MIGRATIONS } from "./migrations.ts";
import { Store } from "./store.ts";

/** A database at `path` as it was before migration `step` (an index). */
function databaseBefore(path: string, step: number): DatabaseSync {
  const old = new DatabaseSync(path);
  old.exec(BASE_SCHEMA);
  for (const migration of MIGRATIONS.slice(0, step)) old.exec(migration);
  old.exec(`PRAGMA user_version = ${BASE_VERSION + step}`);
  return old;
}

Deno.test("a database older than the base schema is refused in words", () => {
  const dir = Deno.makeTempDirSync();
  const path = join(dir, "old.db");
  try {
    const old = new DatabaseSync(path);
    old.exec(`PRAGMA user_version = ${BASE_VERSION - 1}`);
    old.close();
    assertThrows(() => new Store(path), /early development version/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("an upload stored before chunks were noted reads with none", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "old.db");
  try {
    const old = databaseBefore(path, 0);
    old.exec(
      `INSERT INTO uploads (file_name, original_file_name, size, headers,
        row_count, delimiter, created_at) VALUES ('f.csv', 'f.csv', 10,
        '["ip"]', 1, ',', 'now')`,
    );
    old.close();

    const store = new Store(path, { check: true });
    const upload = store.getUpload("f.csv")!;
    assertEquals([upload.rowCount, upload.chunks], [1, undefined]);
    const chunks = [{ start: 0, end: 10, firstRow: 0, rows: 1 }];
    store.addUpload({ ...upload, fileName: "g.csv", chunks });
    assertEquals(store.getUpload("g.csv")!.chunks, chunks);
    store.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// A data directory from before dialects were kept: a finished job keeps its
// parts (comma-separated CRLF lines) and its download's header is written the
// same way; an unfinished one runs again from its first row, its upload's
// dialect found once when it is queued.
const PART = '8.8.8.8,"a;b",US,true,\r\n';

Deno.test("jobs stored before dialects: finished ones keep their download, others run again", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const old = databaseBefore(
      join(dir, "enrichment.db"),
      MIGRATIONS.indexOf(DIALECT_MIGRATION),
    );
    old.exec(
      `INSERT INTO uploads (file_name, original_file_name, size, headers,
        row_count, delimiter, created_at) VALUES ('f.csv', 'f.csv', 31,
        '["ip","note"]', 2, ';', 'now')`,
    );
    for (const [id, status] of [[1, "completed"], [2, "processing"]]) {
      old.exec(
        `INSERT INTO jobs (id, file_name, original_file_name, status,
          ip_column_name, ip_column_index, headers, delimiter,
          include_geolocation, include_domain, include_company,
          include_network, processed_ips, successful_ips, created_at,
          updated_at) VALUES (${id}, 'f.csv', 'f.csv', '${status}', 'ip', 0,
          '["ip","note"]', ';', 1, 0, 0, 0, 1, 1, 'now', 'now')`,
      );
      old.exec(
        `INSERT INTO job_chunks (job_id, chunk, first_row, row_count,
          start_byte, end_byte, processed, successful, done, run, kept_bytes,
          meta) VALUES (${id}, 0, 0, 2, 0, 31, 1, 1, 1, 'r', ${PART.length},
          '{"rows":1,"keptRows":1,"kinds":[]}')`,
      );
    }
    old.close();
    await Deno.mkdir(join(dir, "uploads"));
    await Deno.writeTextFile(
      join(dir, "uploads", "f.csv"),
      'ip;note\n8.8.8.8;"a;b"\n1.1.1.1;c\n',
    );
    await Deno.mkdir(join(dir, "results", "1"), { recursive: true });
    await Deno.writeTextFile(join(dir, "results", "1", "0.csv"), PART);

    const store = new Store(join(dir, "enrichment.db"), { check: true });
    const chunks = new SqliteChunkProgress(store);
    const results = new JobResults(new LocalBlobStore(dir), chunks);
    // The finished job: its parts and a header in their format.
    const done = store.getJob(1)!;
    assertEquals(done.dialect, null);
    const download = await new Response(await results.csvBody(done)).text();
    assertEquals(download.split("\r\n")[1] + "\r\n", PART);
    assertEquals(download.split("\r\n")[0].split(",").slice(0, 3), [
      "ip",
      "note",
      "country",
    ]);
    // The unfinished one: no chunk, no count, until it is planned again
    // with its file's dialect.
    const open = store.getJob(2)!;
    assertEquals([open.processedIPs, await chunks.chunks(2)], [0, []]);
    const planned = await planJobChunks(
      store,
      chunks,
      open,
      join(dir, "uploads"),
      {
        rows: 100,
        dnsRows: 100,
      },
    );
    assertEquals(planned.map((c) => [c.start, c.end, c.rows]), [[0, 32, 2]]);
    const dialect = store.getJob(2)!.dialect!;
    assertEquals([dialect.delimiter, dialect.newline, dialect.bom], [
      ";",
      "\n",
      false,
    ]);
    store.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
