// More of the JobStore contract (store_contract.ts): what every adapter keeps
// for sessions (owners), the Resolve host names option and its lookup
// counts, Always keep, the ip_used and classification_reason fields, and,
// from a job's chunks (JobResults), its summary and the preview filters.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { emptyEnrichment } from "../../server/enrichment/types.ts";
import type { StoredResult } from "../../server/storage/result_rows.ts";
import { seedRows } from "../helpers/seed_results.ts";
import type { PreviewFilter } from "../../server/storage/preview_filters.ts";
import { contractTest, newJob, type OpenedStore } from "./store_contract.ts";

/** Row i with company, ASN and network type: every fourth one filtered. */
function companyRow(i: number): StoredResult {
  const ip = `198.51.100.${i}`;
  const e = { ...emptyEnrichment(ip), success: i % 5 !== 4 };
  if (!e.success) e.failure = { kind: "no_data" };
  else {
    e.company = i % 2 ? "Google LLC" : "Example_Co 100%";
    e.asn = i % 2 ? "AS15169 Google LLC" : "AS64500 Example";
    e.network_type = i % 3 === 0 ? "hosting" : i % 3 === 1 ? "business" : null;
    e.ispFiltered = i % 4 === 0;
    e.country = "Germany";
    e.country_code = "DE";
    e.city = i % 2 ? "Berlin" : "Bonn";
    e.ip_used = i % 2 ? ip : null;
    e.classification_reason = i % 2 ? "hosting AS" : null;
  }
  return { rowIndex: i, original: [ip], enrichment: e };
}

export function storeContractOwners(
  name: string,
  open: () => Promise<OpenedStore>,
): void {
  const test = contractTest(name, open);

  test("jobs list and clear by owner", async (s) => {
    const a = await s.createJob(newJob("a.csv", "alice"));
    const b = await s.createJob(newJob("b.csv", "bob"));
    assertEquals((await s.getJob(a.id))!.owner, "alice");
    assertEquals((await s.listJobs("alice")).map((j) => j.id), [a.id]);
    assertEquals((await s.listJobs()).map((j) => j.id), [b.id, a.id]);
    for (const job of [a, b]) {
      await s.setStatus(job.id, "processing", ["pending"]);
      await s.setStatus(job.id, "completed", ["processing"]);
    }
    assertEquals(await s.deleteJobs("completed", "nobody"), []);
    assertEquals(
      (await s.deleteJobs("completed", "bob")).map((j) => j.id),
      [b.id],
    );
    assertEquals((await s.listJobs()).map((j) => j.id), [a.id]);
  });

  test(
    "resolve host names, lookup counts and ip_used are kept",
    async (s, r) => {
      const made = newJob();
      made.options = {
        ...made.options,
        resolveHostnames: true,
        lowConfidence: "filter",
      };
      made.alwaysKeep = "AS64500\n203.0.113.0/24";
      const job = await s.createJob(made);
      assertEquals(job.options.resolveHostnames, true);
      assertEquals(job.options.lowConfidence, "filter");
      assertEquals(job.lowConfidence, "filter");
      assertEquals(job.alwaysKeep, "AS64500\n203.0.113.0/24");
      assertEquals(job.hostnameLookups, {
        answered: 0,
        noName: 0,
        timedOut: 0,
        skipped: 0,
      });
      const rows = [0, 1].map((i) => ({ ...companyRow(i + 1), rowIndex: i }));
      const hostnameLookups = {
        answered: 3,
        noName: 1,
        timedOut: 2,
        skipped: 4,
      };
      await seedRows(s, r, job.id, rows, { hostnameLookups });
      const done = (await s.getJob(job.id))!;
      assertEquals(done.hostnameLookups, hostnameLookups);
      const back = await r.between(done, 0, 10);
      assertEquals(back.map((r) => r.enrichment.ip_used), [
        rows[0].enrichment.ip_used,
        null,
      ]);
      assertEquals(back, rows);
    },
  );

  test("a job's summary counts its stored rows", async (s, r) => {
    const job = await s.createJob(newJob());
    const rows = Array.from({ length: 40 }, (_, i) => companyRow(i));
    // In chunks: the summary adds up theirs.
    await seedRows(s, r, job.id, rows, { chunkRows: 7 });
    const summary = await r.summary((await s.getJob(job.id))!);
    assertEquals(summary.rows, {
      total: 40,
      successful: 32,
      failed: 8,
      filtered: 8,
      kept: 32,
    });
    assertEquals(summary.failedByReason.map((f) => f.count), [8]);
    const types = Object.fromEntries(
      summary.networkTypes.map((t) => [String(t.network_type), t]),
    );
    assertEquals(
      [types.hosting.count, types.business.count, types.null.count],
      [
        rows.filter((r) => r.enrichment.network_type === "hosting").length,
        rows.filter((r) => r.enrichment.network_type === "business").length,
        rows.filter((r) => r.enrichment.success && !r.enrichment.network_type)
          .length,
      ],
    );
    // Companies of kept rows only; ASNs of every row that has one.
    assertEquals(summary.topCompanies, [
      { company: "Google LLC", count: 16 },
      { company: "Example_Co 100%", count: 8 },
    ]);
    assertEquals(summary.topAsns, [
      { asn: "AS15169 Google LLC", count: 16 },
      { asn: "AS64500 Example", count: 16 },
    ]);
    assertEquals(summary.topCountries, [
      { country: "Germany", country_code: "DE", count: 32 },
    ]);
    assertEquals(summary.topCities, [
      { city: "Berlin", country_code: "DE", count: 16 },
      { city: "Bonn", country_code: "DE", count: 16 },
    ]);
  });

  test(
    "preview filters: network type, kept or filtered, text",
    async (s, r) => {
      const job = await s.createJob(newJob());
      const rows = Array.from({ length: 40 }, (_, i) => companyRow(i));
      // In chunks: a page may span two.
      await seedRows(s, r, job.id, rows, { chunkRows: 7 });
      const done = (await s.getJob(job.id))!;
      const check = async (
        filter: PreviewFilter,
        keep: (r: StoredResult) => boolean,
      ) => {
        const expected = rows.filter(keep);
        const first = await r.preview(done, filter, 1, 5);
        assertEquals(first.total, expected.length);
        assertEquals(first.totalAtLeast, false);
        assertEquals(first.rows, expected.slice(0, 5));
        const second = await r.preview(done, filter, 2, 5);
        assertEquals(second.rows, expected.slice(5, 10));
      };
      const e = (r: StoredResult) => r.enrichment;
      await check(
        { networkType: "hosting" },
        (r) => e(r).network_type === "hosting",
      );
      await check(
        { networkType: "unknown" },
        (r) => e(r).success && e(r).network_type === null,
      );
      await check({ status: "filtered" }, (r) => e(r).ispFiltered);
      await check(
        { status: "kept", networkType: "business" },
        (r) => !e(r).ispFiltered && e(r).network_type === "business",
      );
      // Any case; % and _ are taken literally.
      await check({ text: "google" }, (r) => e(r).company === "Google LLC");
      await check(
        { text: "_co 100%" },
        (r) => e(r).company === "Example_Co 100%",
      );
      await check({ text: "co_1" }, () => false);
      await check({ text: "15169" }, (r) => e(r).asn === "AS15169 Google LLC");
    },
  );
}
