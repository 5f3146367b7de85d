// The results table of earlier versions (results/legacy_results.ts reads
// it at start): rows stored before failure kinds were kept get theirs.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { MIGRATIONS } from "./migrations.ts";

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
