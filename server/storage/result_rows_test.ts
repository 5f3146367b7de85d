// Results go into and come out of the results table by field name: the
// order of the field table (or of a column list) cannot put a value into
// another field's column.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  ENRICHMENT_FIELD_TABLE,
  ENRICHMENT_FIELDS,
} from "../../shared/enrichment_fields.ts";
import { emptyEnrichment, type Enrichment } from "../enrichment/types.ts";
import { MIGRATIONS } from "./migrations.ts";
import {
  insertResultsSql,
  resultPusher,
  type SqlValue,
  type StoredResult,
} from "./result_rows.ts";
import { Store } from "./store.ts";

/** An enrichment whose every field holds a value of its own. */
function distinctValues(ip: string): Enrichment {
  const e = emptyEnrichment(ip);
  const values = e as unknown as Record<string, SqlValue>;
  ENRICHMENT_FIELD_TABLE.forEach(({ name, sql }, i) => {
    values[name] = sql === "REAL" ? i + 0.5 : `${name} of ${ip}`;
  });
  e.success = true;
  return e;
}

const newJob = {
  fileName: "f.csv",
  originalFileName: "f.csv",
  ipColumnName: "ip",
  ipColumnIndex: 0,
  headers: ["ip"],
  delimiter: ",",
  totalIPs: 3,
  options: { geolocation: true, domain: true, company: true, network: true },
};

async function withStore(fn: (store: Store) => void) {
  const dir = await Deno.makeTempDir();
  const store = new Store(join(dir, "test.db"));
  try {
    fn(store);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("every field comes back from the store in its own column", () =>
  withStore((store) => {
    const job = store.createJob(newJob);
    store.setStatus(job.id, "processing", ["pending"]);
    const failed = emptyEnrichment("10.0.0.1");
    failed.failure = { kind: "reserved", range: "private" };
    const results: StoredResult[] = [
      {
        rowIndex: 0,
        original: ["8.8.8.8"],
        enrichment: distinctValues("8.8.8.8"),
      },
      { rowIndex: 1, original: ["10.0.0.1"], enrichment: failed },
    ];
    store.commitBatch(job.id, results, {
      processed: 2,
      successful: 1,
      failed: 1,
      filtered: 0,
    });
    assertEquals(store.resultsBetween(job.id, 0, 2), results);
    // The download's read names its columns too.
    const [row] = store.keptRowValues(job.id, 0, 1, ENRICHMENT_FIELDS);
    assertEquals(
      row.slice(1, 1 + ENRICHMENT_FIELDS.length),
      ENRICHMENT_FIELDS.map((field) => results[0].enrichment[field]),
    );
  }));

Deno.test("a reordered field list writes each value into its own column", () =>
  withStore((store) => {
    const job = store.createJob(newJob);
    const reordered = [...ENRICHMENT_FIELDS].reverse();
    const values: SqlValue[] = [];
    const result = {
      rowIndex: 0,
      original: ["8.8.8.8"],
      enrichment: distinctValues("8.8.8.8"),
    };
    resultPusher(reordered)(values, job.id, result);
    store.db.prepare(insertResultsSql(reordered, 1)).run(...values);
    assertEquals(store.resultsBetween(job.id, 0, 1), [result]);
  }));

Deno.test("rows stored before failure kinds get their kind from their words", () => {
  const db = new DatabaseSync(":memory:");
  db.exec(MIGRATIONS[0]);
  const insert = db.prepare(
    `INSERT INTO results (job_id, row_index, original, ip, success, error,
      isp_filtered) VALUES (1, ?, '[]', 'x', 0, ?, 0)`,
  );
  const words = [
    "Invalid IP address",
    "No data found for this address",
    "Private address (RFC 1918), not on the public internet",
    "Reserved address (amt), not on the public internet",
    null,
  ];
  words.forEach((text, i) => insert.run(i, text));
  db.exec(MIGRATIONS[1]);
  const kinds = db.prepare(
    "SELECT failure_kind, failure_range FROM results ORDER BY row_index",
  ).all().map((row) => [row.failure_kind, row.failure_range]);
  assertEquals(kinds, [
    ["invalid", null],
    ["no_data", null],
    ["reserved", "private"],
    ["reserved", "amt"],
    [null, null],
  ]);
  db.close();
});
