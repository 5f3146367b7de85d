import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { Store } from "./store.ts";
import { ensureSummaryIndexes, summarize } from "./summary_sql.ts";
import { repeat, seedResults, type SeedRow } from "./summary_seed.ts";

async function withDb(fn: (store: Store) => void) {
  const dir = await Deno.makeTempDir();
  const store = new Store(join(dir, "summary.db"));
  try {
    ensureSummaryIndexes(store.db);
    fn(store);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const google: SeedRow = {
  company: "Google LLC",
  network_type: "hosting",
  asn: "AS15169 Google LLC",
  country: "United States",
  country_code: "US",
  city: "Mountain View",
};
const comcast: SeedRow = {
  company: null,
  network_type: "consumer_isp",
  asn: "AS7922 Comcast Cable Communications, LLC",
  country: "United States",
  country_code: "US",
  city: "Springfield",
  filtered: true,
};
const acme: SeedRow = {
  company: "Acme GmbH",
  network_type: "business",
  asn: "AS3320 Deutsche Telekom AG",
  country: "Germany",
  country_code: "DE",
  city: "Berlin",
};
const springfieldCa: SeedRow = {
  ...acme,
  city: "Springfield",
  country: "Canada",
  country_code: "CA",
  company: "Maple Inc",
};
const invalid: SeedRow = { success: false, error: "Invalid IP address format" };
const privateAddr: SeedRow = {
  success: false,
  error: "Private address (RFC 1918), not on the public internet",
};

/** Job 1's rows: 30 Google, 25 Comcast, 12 Acme, 2 Maple, 5+3 failures, 1 unknown type. */
function seedKnownJob(store: Store) {
  let i = seedResults(store.db, 1, repeat(30, google));
  i = seedResults(store.db, 1, repeat(25, comcast), i);
  i = seedResults(store.db, 1, repeat(12, acme), i);
  i = seedResults(store.db, 1, repeat(2, springfieldCa), i);
  i = seedResults(store.db, 1, repeat(5, invalid), i);
  i = seedResults(store.db, 1, repeat(3, privateAddr), i);
  seedResults(store.db, 1, [{ country: "Japan", country_code: "JP" }], i);
  // Another job's rows must not count.
  seedResults(store.db, 2, repeat(100, acme));
}

Deno.test("summary figures of a seeded job whose counts are known", () =>
  withDb((store) => {
    seedKnownJob(store);
    const s = summarize(store.db, 1);
    assertEquals(s.jobId, 1);
    assertEquals(s.rows, {
      total: 78,
      successful: 70,
      failed: 8,
      filtered: 25,
      kept: 53,
    });
    assertEquals(s.networkTypes, [
      { network_type: "hosting", count: 30, filtered: 0 },
      { network_type: "consumer_isp", count: 25, filtered: 25 },
      { network_type: "business", count: 14, filtered: 0 },
      { network_type: null, count: 1, filtered: 0 },
    ]);
    assertEquals(s.failedByReason, [
      { reason: "Invalid IP address format", count: 5 },
      {
        reason: "Private address (RFC 1918), not on the public internet",
        count: 3,
      },
    ]);
    // Filtered rows (Comcast) have no company and are not among kept rows.
    assertEquals(s.topCompanies, [
      { company: "Google LLC", count: 30 },
      { company: "Acme GmbH", count: 12 },
      { company: "Maple Inc", count: 2 },
    ]);
    assertEquals(s.topAsns, [
      { asn: "AS15169 Google LLC", count: 30 },
      { asn: "AS7922 Comcast Cable Communications, LLC", count: 25 },
      { asn: "AS3320 Deutsche Telekom AG", count: 14 },
    ]);
    assertEquals(s.topCountries, [
      { country: "United States", country_code: "US", count: 55 },
      { country: "Germany", country_code: "DE", count: 12 },
      { country: "Canada", country_code: "CA", count: 2 },
      { country: "Japan", country_code: "JP", count: 1 },
    ]);
    // Springfield, US and Springfield, CA are two cities.
    assertEquals(s.topCities, [
      { city: "Mountain View", country_code: "US", count: 30 },
      { city: "Springfield", country_code: "US", count: 25 },
      { city: "Berlin", country_code: "DE", count: 12 },
      { city: "Springfield", country_code: "CA", count: 2 },
    ]);
  }));

Deno.test("top lists stop at 20, largest first, ties by name", () =>
  withDb((store) => {
    let i = 0;
    for (let c = 0; c < 30; c++) {
      const name = `Company ${String(c).padStart(2, "0")}`;
      i = seedResults(
        store.db,
        7,
        repeat(c < 25 ? 5 : 50 - c, { company: name, asn: `AS${c}` }),
        i,
      );
    }
    const s = summarize(store.db, 7);
    assertEquals(s.topCompanies.length, 20);
    assertEquals(s.topCompanies[0], { company: "Company 25", count: 25 });
    assertEquals(s.topCompanies[5], { company: "Company 00", count: 5 });
    assertEquals(s.topCompanies[19].company, "Company 14");
    assertEquals(s.topAsns.length, 20);
  }));

Deno.test("a job with no rows yet has an empty summary", () =>
  withDb((store) => {
    const s = summarize(store.db, 42);
    assertEquals(s.rows.total, 0);
    assertEquals(s.topCountries, []);
  }));

Deno.test("a running job's summary grows with each committed batch", () =>
  withDb((store) => {
    seedResults(store.db, 3, repeat(100, google));
    assertEquals(summarize(store.db, 3).rows.total, 100);
    seedResults(store.db, 3, repeat(100, acme), 100);
    const s = summarize(store.db, 3);
    assertEquals(s.rows.total, 200);
    assertEquals(s.topCompanies.map((c) => c.count), [100, 100]);
  }));

Deno.test("every summary query reads a covering index, never the table", () =>
  withDb((store) => {
    seedKnownJob(store);
    store.db.exec("ANALYZE");
    const plans: string[] = [];
    const original = store.db.prepare.bind(store.db);
    // Record the plan of each statement summarize prepares.
    const spy = Object.create(store.db);
    spy.prepare = (sql: string) => {
      const params = sql.includes("LIMIT ?") ? [1, 20] : [1];
      const plan = original(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as {
        detail: string;
      }[];
      plans.push(plan.map((p) => p.detail).join(" | "));
      return original(sql);
    };
    summarize(spy, 1);
    assertEquals(plans.length, 5);
    for (const plan of plans) {
      ok(/USING COVERING INDEX results_summary_/.test(plan), plan);
      ok(!/USE TEMP B-TREE FOR GROUP BY/.test(plan), plan);
    }
  }));
