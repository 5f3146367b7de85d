// A job's summary, the preview's filters and the .xlsx "Summary" sheet over
// real HTTP against the real server. The seeded file is built from
// addresses whose company, AS, country and network type the bundled
// databases give (each noted below), so every count is known.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import ExcelJS from "exceljs";
import type { JobSummary } from "../../shared/summary.ts";
import type { Job, PreviewResponse } from "../../shared/wire.ts";
import {
  getJob,
  getJson,
  postJson,
  uploadAndStart,
  waitForJob,
} from "../helpers/client.ts";
import { sessionFetch } from "../helpers/cookie_jar.ts";
import { startSlowDnsServer } from "../helpers/server_with_dns.ts";

// The summary grows a chunk at a time; after its first two (100 and 800
// rows), a Domain job's chunks are DNS_CHUNK_ROWS.
const fixture = await startSlowDnsServer({ DNS_CHUNK_ROWS: "2000" });
const { server } = fixture;

/** Rows of the seeded file: [address, copies]. */
const SEED: [string, number][] = [
  ["8.8.8.8", 6], // Google LLC, AS15169, US, hosting
  ["8.8.4.4", 4], // Google LLC, AS15169, US, hosting
  ["81.2.69.142", 5], // Andrews & Arnold Ltd, AS20712, GB, business
  ["1.1.1.1", 3], // Cloudflare, Inc., AS13335, AU, hosting
  ["23.24.0.1", 4], // Comcast (no company), AS7922, US, consumer: filtered
  ["73.162.0.1", 3], // Comcast, AS7922, US, consumer: filtered
  ["128.32.0.1", 2], // University of California at Berkeley, US, education
  ["bogus", 3], // invalid
  ["10.0.0.1", 2], // private
];

function seededCsv(): string {
  const rows = ["ip,n"];
  let n = 0;
  // Interleaved, so no count depends on the file's order.
  for (let round = 0; round < 6; round++) {
    for (const [ip, copies] of SEED) {
      if (round < copies) rows.push(`${ip},${n++}`);
    }
  }
  return rows.join("\n") + "\n";
}

/** n rows of distinct addresses, each a DNS round trip, one at a time. */
function slowCsv(n: number): string {
  const rows = ["ip,n"];
  for (let i = 0; i < n; i++) {
    rows.push(`81.2.${(i >> 8) & 255}.${i & 255},${i}`);
  }
  return rows.join("\n") + "\n";
}

const summaryOf = async (id: number) => {
  const { status, body } = await getJson<JobSummary>(
    server,
    `/api/jobs/${id}/summary`,
  );
  assertEquals(status, 200);
  return body;
};

Deno.test({
  name: "job summary, preview filters and the Summary sheet",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const created = await uploadAndStart(
      server,
      "seeded.csv",
      seededCsv(),
      "ip",
    );
    const job: Job = await waitForJob(server, created.id);
    assertEquals(job.status, "completed");
    assertEquals(job.processedIPs, 32);

    await t.step("the summary's figures are the seeded file's", async () => {
      const s = await summaryOf(job.id);
      assertEquals(s.jobId, job.id);
      assertEquals(s.rows, {
        total: 32,
        successful: 27,
        failed: 5,
        filtered: 7,
        kept: 25,
      });
      // 32 rows of 8 addresses (a private one too; "bogus" is none).
      assertEquals(s.distinctAddresses, 8);
      assertEquals(s.topCountries.slice(0, 3), [
        { country: "United States", country_code: "US", count: 19 },
        { country: "United Kingdom", country_code: "GB", count: 5 },
        { country: "Australia", country_code: "AU", count: 3 },
      ]);
      // Companies count kept rows only: Comcast's rows are filtered.
      assertEquals(s.topCompanies, [
        { company: "Google LLC", count: 10 },
        { company: "Andrews & Arnold Ltd", count: 5 },
        { company: "Cloudflare, Inc.", count: 3 },
        { company: "University of California at Berkeley", count: 2 },
      ]);
      assertEquals(s.topAsns.slice(0, 3), [
        { asn: "AS15169 Google LLC", count: 10 },
        { asn: "AS7922 Comcast Cable Communications, LLC", count: 7 },
        { asn: "AS20712 Andrews & Arnold Ltd", count: 5 },
      ]);
      assertEquals(s.networkTypes, [
        { network_type: "hosting", count: 13, filtered: 0 },
        { network_type: "consumer_isp", count: 7, filtered: 7 },
        { network_type: "business", count: 5, filtered: 0 },
        { network_type: "education", count: 2, filtered: 0 },
      ]);
      assertEquals(s.failedByReason, [
        { reason: "Invalid IP address", count: 3 },
        {
          reason: "Private address (RFC 1918), not on the public internet",
          count: 2,
        },
      ]);
    });

    await t.step("an unknown job is 404, a bad id 400", async () => {
      const missing = await getJson(server, "/api/jobs/99999/summary");
      assertEquals(missing.status, 404);
      const bad = await getJson(server, "/api/jobs/abc/summary");
      assertEquals(bad.status, 400);
    });

    const preview = async (query: string) => {
      const { status, body } = await getJson<PreviewResponse>(
        server,
        `/api/jobs/${job.id}/preview?${query}`,
      );
      assertEquals(status, 200, JSON.stringify(body));
      return body;
    };

    await t.step("preview filters narrow the rows, paged", async () => {
      const filtered = await preview("status=filtered&limit=5");
      assertEquals(filtered.totalResults, 7);
      assertEquals(filtered.totalPages, 2);
      ok(filtered.preview.every((r) => r.ispFiltered));
      ok(filtered.preview.every((r) => r.networkType === "consumer_isp"));
      const page2 = await preview("status=filtered&limit=5&page=2");
      assertEquals(page2.preview.length, 2);

      const kept = await preview("status=kept&limit=100");
      assertEquals(kept.totalResults, 25);
      ok(kept.preview.every((r) => !r.ispFiltered));

      // Failed rows, each with its reason (they are in the download too).
      const failed = await preview("status=failed&limit=100");
      assertEquals(failed.totalResults, 5);
      assertEquals(
        failed.preview.map((r) => [r.ip, r.success, r.error]).sort(),
        [
          ...Array(2).fill([
            "10.0.0.1",
            false,
            "Private address (RFC 1918), not on the public internet",
          ]),
          ...Array(3).fill(["bogus", false, "Invalid IP address"]),
        ],
      );
      ok(kept.preview.some((r) => !r.success && r.error !== null));
      ok(kept.preview.filter((r) => r.success).every((r) => r.error === null));

      const hosting = await preview("network_type=hosting&limit=100");
      assertEquals(hosting.totalResults, 13);
      assertEquals(
        new Set(hosting.preview.map((r) => r.ip)),
        new Set(["8.8.8.8", "8.8.4.4", "1.1.1.1"]),
      );

      const google = await preview("q=google&limit=100");
      assertEquals(google.totalResults, 10);
      ok(google.preview.every((r) => r.company === "Google LLC"));
      const byAsn = await preview("q=AS20712&limit=100");
      assertEquals(byAsn.totalResults, 5);
      const both = await preview("q=comcast&status=kept");
      assertEquals(both.totalResults, 0);
      assertEquals(both.preview, []);
    });

    await t.step("bad filter values are 400 with a message", async () => {
      for (
        const query of [
          "network_type=satellite",
          "status=maybe",
          `q=${"x".repeat(201)}`,
          "status=filtered&page=3&limit=5",
        ]
      ) {
        const { status, body } = await getJson<{ message: string }>(
          server,
          `/api/jobs/${job.id}/preview?${query}`,
        );
        assertEquals(status, 400, query);
        ok(body.message.length > 0);
      }
    });

    await t.step("the .xlsx opens on a Summary sheet", async () => {
      const response = await sessionFetch(
        `${server.url}/api/jobs/${job.id}/download?format=xlsx`,
      );
      assertEquals(response.status, 200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await response.arrayBuffer());
      assertEquals(workbook.worksheets[0].name, "Summary");
      const rows: string[] = [];
      workbook.worksheets[0].eachRow((row) => {
        const values = (row.values as unknown[]).slice(1);
        rows.push(values.map((v) => v ?? "").join("|"));
      });
      // The sheet's counts are the page's, and its kept rows the CSV's.
      ok(
        rows.includes("Rows|32|kept + left out; 8 distinct addresses"),
        rows.join("\n"),
      );
      ok(rows.includes(
        "Kept in the download|25|rows of the CSV and .xlsx; 5 of them failed",
      ));
      ok(rows.includes("Consumer ISP|7|left out of the download"));
      ok(rows.includes("Distinct addresses|8|an address may repeat"));
      ok(rows.includes("Google LLC|10"));
      ok(rows.includes("United States|US|19"));
      ok(rows.includes("Invalid IP address|3"));
      assertEquals(workbook.worksheets[1].name, "Enriched");
      assertEquals(workbook.worksheets[1].rowCount, 1 + 25);
    });

    await t.step("the summary grows while a job runs", async () => {
      const running = await uploadAndStart(
        server,
        "slow.csv",
        slowCsv(100_000),
        "ip",
        { includeDomain: 1 },
      );
      await waitForJob(server, running.id, (j) => j.processedIPs >= 200);
      // Counts lag committed rows by at most a second.
      let first = await summaryOf(running.id);
      const deadline = Date.now() + 30_000;
      while (first.rows.total === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        first = await summaryOf(running.id);
      }
      ok(first.rows.total >= 100, `total ${first.rows.total}`);
      assertEquals((await getJob(server, running.id)).status, "processing");
      // The summary counts the rows the progress counts, running chunks'
      // too: read between two reads of the job, it is between them.
      let before = await getJob(server, running.id);
      let later = await summaryOf(running.id);
      for (
        const end = Date.now() + 30_000;
        later.rows.total <= first.rows.total && Date.now() < end;
      ) {
        await new Promise((r) => setTimeout(r, 100));
        before = await getJob(server, running.id);
        later = await summaryOf(running.id);
      }
      const during = await getJob(server, running.id);
      ok(later.rows.total > first.rows.total, "the summary grew");
      // Distinct addresses are counted once the job is complete.
      assertEquals(later.distinctAddresses, undefined);
      assertEquals(during.status, "processing");
      ok(
        before.processedIPs <= later.rows.total &&
          later.rows.total <= during.processedIPs,
        `job ${before.processedIPs}..${during.processedIPs}, summary ` +
          later.rows.total,
      );
      ok(
        before.filteredIPs <= later.rows.filtered &&
          later.rows.filtered <= during.filteredIPs,
      );
      assertEquals(later.rows.kept + later.rows.filtered, later.rows.total);
      assertEquals(
        later.networkTypes.reduce((sum, t) => sum + t.filtered, 0),
        later.rows.filtered,
      );

      const cancel = await postJson(
        server,
        `/api/jobs/${running.id}/cancel`,
        {},
      );
      assertEquals(cancel.status, 200);
      await cancel.body?.cancel();
      const stopped = await waitForJob(server, running.id);
      // After the job stops, the summary counts every stored row.
      assertEquals(
        (await summaryOf(running.id)).rows.total,
        stopped.processedIPs,
      );
    });
  },
});

addEventListener("unload", () => fixture.stop());
