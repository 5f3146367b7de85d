// A database written before the classification reason and the job's keep
// list existed opens with both added, its old rows and jobs intact.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { MIGRATIONS } from "./migrations.ts";
import { Store } from "./store.ts";

Deno.test("an older database gains classification_reason and always_keep", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "old.db");
  try {
    const old = new DatabaseSync(path);
    old.exec(MIGRATIONS[0]);
    old.exec(MIGRATIONS[1]);
    // As the version before this field: no classification_reason column.
    old.exec("ALTER TABLE results DROP COLUMN classification_reason");
    old.exec("PRAGMA user_version = 2");
    old.exec(
      `INSERT INTO jobs (file_name, original_file_name, status, ip_column_name,
        ip_column_index, headers, delimiter, include_geolocation,
        include_domain, include_company, include_network, created_at,
        updated_at) VALUES ('f.csv', 'f.csv', 'completed', 'ip', 0, '["ip"]',
        ',', 1, 0, 1, 1, 'now', 'now')`,
    );
    old.close();

    const store = new Store(path, { check: true });
    const columns = (table: string) =>
      store.db.prepare(`PRAGMA table_info(${table})`).all().map((c) => c.name);
    assertEquals(columns("results").includes("classification_reason"), true);
    assertEquals(columns("jobs").includes("always_keep"), true);
    assertEquals(store.getJob(1)?.alwaysKeep, null);
    const job = store.createJob({
      fileName: "g.csv",
      originalFileName: "g.csv",
      ipColumnName: "ip",
      ipColumnIndex: 0,
      headers: ["ip"],
      dialect: null,
      totalIPs: 1,
      options: {
        geolocation: true,
        domain: false,
        company: true,
        network: true,
      },
      alwaysKeep: "AS64500\n203.0.113.0/24",
    });
    assertEquals(store.getJob(job.id)?.alwaysKeep, "AS64500\n203.0.113.0/24");
    store.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an upload stored before chunks were noted reads with none", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "old.db");
  try {
    const old = new DatabaseSync(path);
    const before = MIGRATIONS.findIndex((step) => step.includes("row_chunks"));
    for (const step of MIGRATIONS.slice(0, before)) old.exec(step);
    old.exec(`PRAGMA user_version = ${before}`);
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
