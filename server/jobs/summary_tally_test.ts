import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { emptyEnrichment } from "../enrichment/types.ts";
import { Store } from "../storage/store.ts";
import { type StoredResult } from "../storage/result_rows.ts";
import { seedResults } from "../storage/summary_seed.ts";
import { summarize } from "../storage/summary_sql.ts";
import { SUMMARY_LAG_MS, SummaryTally } from "./summary_tally.ts";

function results(n: number, company: string): StoredResult[] {
  return Array.from({ length: n }, (_, i) => {
    const enrichment = emptyEnrichment(`8.8.${i >> 8}.${i & 255}`);
    enrichment.success = true;
    enrichment.company = company;
    enrichment.network_type = "hosting";
    return { rowIndex: i, original: [enrichment.ip], enrichment };
  });
}

const start = (jobId: number, processed: number) => ({
  jobId,
  options: { geolocation: true, domain: false, company: true, network: true },
  counters: { processed, successful: processed, failed: 0, filtered: 0 },
});

async function withStore(fn: (store: Store) => Promise<void> | void) {
  const dir = await Deno.makeTempDir();
  const store = new Store(join(dir, "tally.db"));
  try {
    await fn(store);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the first batch shows at once, later ones within SUMMARY_LAG_MS, the last at once", () =>
  withStore(async (store) => {
    const tally = new SummaryTally();
    tally.begin(store.db, start(1, 0));
    const total = () => summarize(store.db, 1).rows.total;
    tally.add(store.db, results(100, "Google LLC"), false);
    assertEquals(total(), 100);
    tally.add(store.db, results(100, "Google LLC"), false);
    assertEquals(total(), 100, "held back: the last write is fresh");
    await new Promise((r) => setTimeout(r, SUMMARY_LAG_MS + 50));
    tally.add(store.db, results(100, "Google LLC"), false);
    assertEquals(total(), 300);
    tally.add(store.db, results(50, "Acme"), true);
    assertEquals(total(), 350);
    assertEquals(summarize(store.db, 1).topCompanies, [
      { company: "Google LLC", count: 300 },
      { company: "Acme", count: 50 },
    ]);
  }));

Deno.test("a resumed job recounts its stored rows; a fresh one starts empty", () =>
  withStore((store) => {
    // Rows stored before a crash whose counts were never written.
    seedResults(
      store.db,
      2,
      Array(40).fill({ company: "Acme", network_type: "business" }),
      0,
      false,
    );
    const tally = new SummaryTally();
    tally.begin(store.db, start(2, 40));
    assertEquals(summarize(store.db, 2).rows.total, 40);
    tally.add(store.db, results(10, "Acme"), true);
    assertEquals(summarize(store.db, 2).topCompanies, [
      { company: "Acme", count: 50 },
    ]);
    // Started over from row 0: old counts go.
    tally.begin(store.db, start(2, 0));
    assertEquals(summarize(store.db, 2).rows.total, 0);
  }));

Deno.test("a resumed job's running summary counts its stored rows too", () =>
  withStore((store) => {
    seedResults(
      store.db,
      3,
      Array(10).fill({ company: "Acme", network_type: "business" }),
      0,
      false,
    );
    const tally = new SummaryTally();
    tally.begin(store.db, start(3, 10));
    // One more Acme row, and 25 companies of 2 rows each: Acme's new row
    // alone would rank below them, its 11 rows in all above.
    const rows = results(1, "Acme");
    for (let k = 0; k < 25; k++) rows.push(...results(2, `Other ${k}`));
    tally.add(store.db, rows, false);
    assertEquals(summarize(store.db, 3).topCompanies[0], {
      company: "Acme",
      count: 11,
    });
  }));
