// Reverse DNS in jobs and lookups against a real DNS server (dnsmasq) on
// loopback: one name answers, one is NXDOMAIN, one zone never answers.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { completedJob, getJson } from "../helpers/client.ts";
import { reverseV4 } from "../helpers/dnsmasq.ts";
import { startServerWithDns } from "../helpers/server_with_dns.ts";
import ExcelJS from "exceljs";
import { sessionFetch } from "../helpers/cookie_jar.ts";

const fixture = await startServerWithDns({
  records: {
    "8.8.8.8": "dns.google",
    "81.2.69.142": "mail.shop.example.co.uk",
    "1.0.0.1": "-cmd.example.com", // a PTR a spreadsheet would run
  },
  silentZones: ["9.9.9.in-addr.arpa"],
}, { DNS_TIMEOUT_MS: "300", DNS_CONCURRENCY: "8" });
const { server, dns } = fixture;

Deno.test({
  name: "reverse DNS",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await t.step("a job adds host name and registrable domain", async () => {
      const rows = [
        "ip,n",
        "8.8.8.8,1",
        "1.1.1.1,2",
        "9.9.9.9,3",
        "81.2.69.142,4",
        "1.0.0.1,5",
      ];
      // The same address many times is asked of DNS once.
      for (let i = 0; i < 50; i++) rows.push(`8.8.8.8,r${i}`);
      const asked = dns.queriesFor(reverseV4("8.8.8.8"));
      const started = Date.now();
      const { job, byN } = await completedJob(
        server,
        "dns.csv",
        rows.join("\n"),
        "ip",
        { includeDomain: 1 },
      );
      ok(
        Date.now() - started < 10_000,
        "a silent resolver does not stall the job",
      );
      assertEquals(byN["1"].hostname, "dns.google");
      assertEquals(byN["1"].domain, "dns.google");
      assertEquals(byN["2"].hostname, "", "NXDOMAIN: no host name");
      assertEquals(byN["2"].enrichment_success, "true");
      assertEquals(byN["3"].hostname, "", "timeout: no host name");
      assertEquals(byN["3"].enrichment_success, "true");
      assertEquals(byN["4"].hostname, "mail.shop.example.co.uk");
      assertEquals(byN["4"].domain, "example.co.uk");
      assertEquals(
        byN["5"].hostname,
        "'-cmd.example.com",
        "formula neutralised",
      );
      assertEquals(dns.queriesFor(reverseV4("8.8.8.8")) - asked, 1);
      // Each distinct address's lookup is counted once by how it ended: the
      // three names, 1.1.1.1's NXDOMAIN, the silent zone's 9.9.9.9.
      const { body } = await getJson<{ hostnameLookups: unknown }>(
        server,
        `/api/jobs/${job.id}`,
      );
      assertEquals(body.hostnameLookups, {
        answered: 3,
        noName: 1,
        timedOut: 1,
        skipped: 0,
      });
    });

    await t.step(
      "formula-like host names are neutralised in the .xlsx too",
      async () => {
        const jobs = await (await sessionFetch(`${server.url}/api/jobs`))
          .json();
        const response = await sessionFetch(
          `${server.url}/api/jobs/${jobs[0].id}/download?format=xlsx`,
        );
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(await response.arrayBuffer());
        const values: string[] = [];
        workbook.getWorksheet("Enriched")!.eachRow((row) =>
          values.push(...(row.values as unknown[]).map((v) => String(v ?? "")))
        );
        ok(values.includes("'-cmd.example.com"));
        ok(!values.includes("-cmd.example.com"));
      },
    );

    await t.step("single lookup returns the host name", async () => {
      const { body } = await getJson<Record<string, unknown>>(
        server,
        "/api/lookup?ip=81.2.69.142",
      );
      assertEquals(body.hostname, "mail.shop.example.co.uk");
      assertEquals(body.domain, "example.co.uk");
    });

    await t.step("a job without Domain counts no lookups", async () => {
      const { job } = await completedJob(
        server,
        "plain.csv",
        "ip\n8.8.8.8\n",
        "ip",
        {
          includeDomain: 0,
        },
      );
      assertEquals(job.hostnameLookups, {
        answered: 0,
        noName: 0,
        timedOut: 0,
        skipped: 0,
      });
    });
  },
});

addEventListener("unload", async () => {
  await fixture.stop();
});
