import {
  deepStrictEqual as assertEquals,
  notDeepStrictEqual,
} from "node:assert/strict";
import { join } from "node:path";
import { Store } from "./store.ts";
import {
  backfillSql,
  deleteSummary,
  ensureSummaryTable,
  rebuildSummary,
  summarize,
  SummaryCounter,
} from "./summary_sql.ts";
import { repeat, seedResults, type SeedRow } from "./summary_seed.ts";

async function withDb(fn: (store: Store) => void) {
  const dir = await Deno.makeTempDir();
  const store = new Store(join(dir, "summary.db"));
  try {
    ensureSummaryTable(store.db);
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
const invalid: SeedRow = { success: false, failure: { kind: "invalid" } };
const privateAddr: SeedRow = {
  success: false,
  failure: { kind: "reserved", range: "private" },
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
      { reason: "Invalid IP address", count: 5 },
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

Deno.test("counts rebuilt from stored rows equal the writer's counts", () =>
  withDb((store) => {
    seedKnownJob(store);
    const kept = summarize(store.db, 1);
    // Rows stored before the counts table existed: the migration's backfill.
    let i = seedResults(store.db, 5, repeat(30, google), 0, false);
    i = seedResults(store.db, 5, repeat(25, comcast), i, false);
    i = seedResults(store.db, 5, repeat(12, acme), i, false);
    i = seedResults(store.db, 5, repeat(2, springfieldCa), i, false);
    i = seedResults(store.db, 5, repeat(5, invalid), i, false);
    i = seedResults(store.db, 5, repeat(3, privateAddr), i, false);
    seedResults(
      store.db,
      5,
      [{ country: "Japan", country_code: "JP" }],
      i,
      false,
    );
    assertEquals(summarize(store.db, 5).rows.total, 0);
    store.db.exec(backfillSql("WHERE job_id = 5"));
    assertEquals(summarize(store.db, 5), { ...kept, jobId: 5 });
  }));

Deno.test("a deleted job's counts go with it", () =>
  withDb((store) => {
    seedKnownJob(store);
    deleteSummary(store.db, 1);
    assertEquals(summarize(store.db, 1).rows.total, 0);
    assertEquals(summarize(store.db, 2).rows.total, 100);
  }));

Deno.test("the writer's counter flushes every FLUSH_ROWS rows and at the end", () =>
  withDb((store) => {
    const counter = new SummaryCounter(250);
    const batch = (n: number) =>
      Array.from({ length: n }, () => ({
        success: true,
        failure: null,
        ispFiltered: false,
        network_type: "hosting",
        company: "Google LLC",
        asn: "AS15169 Google LLC",
        country: "United States",
        country_code: "US",
        city: "Mountain View",
      }));
    counter.add(batch(100));
    counter.flush(store.db, 4);
    assertEquals(summarize(store.db, 4).rows.total, 0);
    assertEquals(counter.pending, 100);
    counter.add(batch(200));
    counter.flush(store.db, 4);
    assertEquals(summarize(store.db, 4).rows.total, 300);
    assertEquals(counter.pending, 0);
    counter.add(batch(50));
    counter.flush(store.db, 4, true); // the job's last commit
    const s = summarize(store.db, 4);
    assertEquals(s.rows.total, 350);
    assertEquals(s.topCompanies, [{ company: "Google LLC", count: 350 }]);
  }));

Deno.test("a resumed job rebuilds its counts from its rows", () =>
  withDb((store) => {
    seedKnownJob(store);
    const exact = summarize(store.db, 1);
    // A crash after rows were stored but before their counts were flushed.
    seedResults(store.db, 1, repeat(40, acme), 1000, false);
    assertEquals(summarize(store.db, 1).rows.total, exact.rows.total);
    rebuildSummary(store.db, 1);
    const rebuilt = summarize(store.db, 1);
    assertEquals(rebuilt.rows.total, exact.rows.total + 40);
    assertEquals(rebuilt.topCompanies[0], { company: "Acme GmbH", count: 52 });
    assertEquals(summarize(store.db, 2).rows.total, 100);
  }));

/** A row of `company` in `city` (the counted fields of a stored row). */
const input = (company: string, city = "Berlin") => ({
  success: true,
  failure: null,
  ispFiltered: false,
  network_type: "business",
  company,
  asn: `AS1 ${company}`,
  country: "Germany",
  country_code: "DE",
  city,
});

/** Every count a job has in result_summary, in key order. */
const storedCounts = (store: Store, jobId: number) =>
  store.db.prepare(
    `SELECT dim, key, code, n FROM result_summary WHERE job_id = ?
      ORDER BY dim, key, code`,
  ).all(jobId);

Deno.test("a running job's flushes write only what its summary shows, exactly", () =>
  withDb((store) => {
    // Job 5 flushes as a running job does; job 6 writes every count.
    const running = new SummaryCounter(1);
    const full = new SummaryCounter(1);
    let seed = 3;
    const random = (n: number) =>
      Math.floor((seed = (seed * 16807) % 2147483647) / 2147483647 * n);
    for (let batch = 0; batch < 12; batch++) {
      const rows = [];
      // 60 companies and cities with uneven counts, ties included; from
      // batch 6 on, a late company grows into the top list.
      for (let i = 0; i < 200; i++) {
        const k = Math.min(random(60), random(60));
        rows.push(input(`Company ${k}`, `City ${k % 45}`));
      }
      if (batch >= 6) { for (let i = 0; i < 40; i++) rows.push(input("Late")); }
      running.add(rows);
      full.add(rows);
      running.flush(store.db, 5, true, true);
      full.flush(store.db, 6, true);
      const shown = summarize(store.db, 5);
      const exact = summarize(store.db, 6);
      assertEquals({ ...shown, jobId: 6 }, exact, `batch ${batch}`);
    }
    // Counts held back (stale or missing): the job's last flush writes them.
    const counts = (jobId: number) =>
      storedCounts(store, jobId).map((row) => ({ ...row, job_id: 0 }));
    notDeepStrictEqual(counts(5), counts(6));
    running.flush(store.db, 5, true);
    assertEquals(counts(5), counts(6));
  }));

Deno.test("a resumed job's flushes rank keys by their counts before the crash", () =>
  withDb((store) => {
    // Stored before the crash and rebuilt: Acme 10 rows.
    seedResults(store.db, 7, repeat(10, acme));
    rebuildSummary(store.db, 7);
    const counter = new SummaryCounter(1);
    counter.load(store.db, 7);
    // Then one more Acme row and 25 other companies of 2 rows each.
    const rows = [input("Acme GmbH")];
    for (let k = 0; k < 25; k++) {
      rows.push(input(`Other ${k}`), input(`Other ${k}`));
    }
    counter.add(rows);
    counter.flush(store.db, 7, true, true);
    assertEquals(summarize(store.db, 7).topCompanies[0], {
      company: "Acme GmbH",
      count: 11,
    });
  }));
