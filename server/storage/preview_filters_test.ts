import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { Store } from "./store.ts";
import {
  containsPattern,
  COUNT_CAP,
  filteredPage,
  parsePreviewFilter,
  type PreviewFilter,
} from "./preview_filters.ts";
import { repeat, seedResults } from "./summary_seed.ts";
import { ensureSummaryTable } from "./summary_sql.ts";

async function withSeeded(fn: (store: Store) => void) {
  const dir = await Deno.makeTempDir();
  const store = new Store(join(dir, "preview.db"));
  ensureSummaryTable(store.db);
  try {
    let i = seedResults(
      store.db,
      1,
      repeat(30, {
        company: "Google LLC",
        asn: "AS15169 Google LLC",
        network_type: "hosting",
      }),
    );
    i = seedResults(
      store.db,
      1,
      repeat(25, {
        asn: "AS7922 Comcast",
        network_type: "consumer_isp",
        filtered: true,
      }),
      i,
    );
    i = seedResults(
      store.db,
      1,
      repeat(12, {
        company: "100%_Pure Ltd",
        asn: "AS64500 Pure",
        network_type: "business",
      }),
      i,
    );
    i = seedResults(
      store.db,
      1,
      repeat(3, { success: false, failure: { kind: "no_data" } }),
      i,
    );
    seedResults(store.db, 1, repeat(2, { company: "Unknown Co" }), i);
    seedResults(store.db, 2, repeat(50, { company: "Google LLC" }));
    fn(store);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const page = (store: Store, filter: PreviewFilter, n = 1, size = 10) => {
  const result = filteredPage(store.db, 1, filter, n, size);
  return { total: result.total, first: result.rows[0]?.row_index ?? null };
};

Deno.test("filters by network type, kept or filtered, and text, paged", () =>
  withSeeded((store) => {
    assertEquals(page(store, {}), { total: 72, first: 0 });
    assertEquals(page(store, { networkType: "consumer_isp" }), {
      total: 25,
      first: 30,
    });
    assertEquals(page(store, { networkType: "unknown" }).total, 2);
    assertEquals(page(store, { status: "filtered" }).total, 25);
    assertEquals(page(store, { status: "kept" }).total, 47);
    assertEquals(page(store, { text: "google" }), { total: 30, first: 0 });
    assertEquals(page(store, { text: "15169" }).total, 30);
    assertEquals(page(store, { text: "as7922" }).total, 25);
    assertEquals(page(store, { text: "Google", status: "filtered" }).total, 0);
    // Page 3 of 10 rows of Google: rows 20..29.
    const third = filteredPage(store.db, 1, { text: "Google" }, 3, 10);
    assertEquals(third.totalAtLeast, false);
    assertEquals(third.rows.map((r) => r.row_index), [
      20,
      21,
      22,
      23,
      24,
      25,
      26,
      27,
      28,
      29,
    ]);
  }));

Deno.test("% and _ in the search text are literal", () =>
  withSeeded((store) => {
    assertEquals(page(store, { text: "100%_" }).total, 12);
    assertEquals(page(store, { text: "%" }).total, 12);
    assertEquals(page(store, { text: "_" }).total, 12);
    assertEquals(containsPattern("a%b_c\\"), "%a\\%b\\_c\\\\%");
  }));

Deno.test("a text search counts up to the cap", () =>
  withSeeded((store) => {
    seedResults(store.db, 9, repeat(COUNT_CAP + 5, { company: "Big Co" }));
    const result = filteredPage(store.db, 9, { text: "big" }, 1, 10);
    assertEquals([result.total, result.totalAtLeast], [COUNT_CAP, true]);
    assertEquals(result.rows.length, 10);
    const all = filteredPage(store.db, 9, {}, 1, 10);
    assertEquals([all.total, all.totalAtLeast], [COUNT_CAP + 5, false]);
  }));

Deno.test("query parameters are checked", () => {
  const parse = (q: string) => parsePreviewFilter(new URLSearchParams(q));
  assertEquals(parse("network_type=hosting&status=kept&q=%20acme%20"), {
    filter: { networkType: "hosting", status: "kept", text: "acme" },
  });
  assertEquals(parse(""), { filter: {} });
  assertEquals(
    "error" in parse("network_type=residential"),
    true,
  );
  assertEquals(parse("status=all"), {
    error: "status must be kept or filtered",
  });
  assertEquals("error" in parse(`q=${"x".repeat(201)}`), true);
});
