// Cells as logs hold them, in a job over real HTTP: X-Forwarded-For chains,
// quoted addresses, IPv4-mapped IPv6, and host names resolved forward
// through a real DNS server (dnsmasq on loopback) when the job asks for it.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { completedJob, getJson } from "../helpers/client.ts";
import { HOST_RECORDS } from "../helpers/dnsmasq.ts";
import { startServerWithDns } from "../helpers/server_with_dns.ts";

const fixture = await startServerWithDns(HOST_RECORDS);
const { server } = fixture;

const CSV = [
  "n,client",
  '1,"81.2.69.142, 10.0.0.1"',
  '2,"10.0.0.1, 192.168.1.1, 8.8.8.8"',
  '3,"""8.8.8.8"""',
  "4,::ffff:81.2.69.142",
  "5,mail.example.test",
  "6,v6only.example.test",
  "7,nothing.example.test",
  "8,office.example.test",
  "9,8.8.8.8",
  '10,"10.0.0.1, 192.168.1.1"',
  "11,<not an address> at all",
  "12,1.2.3.4:443",
  '13," 9.9.9.9 "',
  "14,[2001:db8::1]:80",
  "15,[8.8.8.8]",
].join("\n");

let lastJobId = 0;

async function rowsOf(resolveHostnames: number) {
  const { job, byN } = await completedJob(server, "cells.csv", CSV, "client", {
    resolveHostnames,
  });
  lastJobId = job.id;
  return byN;
}

Deno.test({
  name: "cells as logs hold them",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await t.step(
      "chains, quotes, mapped IPv6 and resolved host names",
      async () => {
        const byN = await rowsOf(1);
        const used = (n: string) => byN[n].ip_used;
        const ok = (n: string) => byN[n].enrichment_success;
        assertEquals(
          used("1"),
          "Forwarded chain of 2 addresses; used the first address, 81.2.69.142",
        );
        assertEquals(byN["1"].country_code, "GB");
        assertEquals(
          used("2"),
          "Forwarded chain of 3 addresses; used the first public address (entry 3), 8.8.8.8",
        );
        assertEquals(byN["2"].country_code, "US");
        assertEquals([used("3"), ok("3"), byN["3"].country_code], [
          "Quotes dropped; looked up as 8.8.8.8",
          "true",
          "US",
        ]);
        assertEquals(
          used("4"),
          "IPv4-mapped IPv6 address; looked up as 81.2.69.142",
        );
        assertEquals(
          used("5"),
          "Host name mail.example.test resolved (A) to 81.2.69.142",
        );
        assertEquals([ok("5"), byN["5"].country_code], ["true", "GB"]);
        assertEquals(
          used("6"),
          "Host name v6only.example.test resolved (AAAA) to 2001:4860:4860::8888",
        );
        assertEquals([ok("6"), byN["6"].asn.startsWith("AS15169")], [
          "true",
          true,
        ]);
        assertEquals([ok("7"), byN["7"].enrichment_error], [
          "false",
          "Host name has no address (no A or AAAA record)",
        ]);
        assertEquals(
          byN["8"].enrichment_error,
          "Host name resolves only to addresses not on the public internet",
        );
        assertEquals([used("9"), ok("9")], ["", "true"]);
        assertEquals([used("10"), ok("10"), byN["10"].enrichment_error], [
          "Forwarded chain of 2 addresses with no public one",
          "false",
          "Private address (RFC 1918), not on the public internet",
        ]);
        assertEquals(byN["11"].enrichment_error, "Invalid IP address");
        // Whenever the address is not the cell as it stands, ip_used says
        // which it is and what was dropped.
        assertEquals(
          ["12", "13", "14", "15"].map(used),
          [
            "Port 443 dropped; looked up as 1.2.3.4",
            "Spaces dropped; looked up as 9.9.9.9",
            "Brackets and port 80 dropped; looked up as 2001:db8::1",
            "Brackets dropped; looked up as 8.8.8.8",
          ],
        );
        assertEquals(ok("14"), "false");
        // The preview shows the address looked up, or the cell when none.
        const { body } = await getJson<{ preview: { ip: string }[] }>(
          server,
          `/api/jobs/${lastJobId}/preview?limit=20`,
        );
        assertEquals(body.preview.map((row) => row.ip), [
          "81.2.69.142",
          "8.8.8.8",
          "8.8.8.8",
          "81.2.69.142",
          "81.2.69.142",
          "2001:4860:4860::8888",
          "nothing.example.test",
          "office.example.test",
          "8.8.8.8",
          "10.0.0.1",
          "<not an address> at all",
          "1.2.3.4",
          "9.9.9.9",
          "2001:db8::1",
          "8.8.8.8",
        ]);
      },
    );

    await t.step(
      "without Resolve host names a host name fails and says so",
      async () => {
        const byN = await rowsOf(0);
        assertEquals([byN["5"].enrichment_success, byN["5"].enrichment_error], [
          "false",
          "A host name, not an IP address; tick Resolve host names to look it up",
        ]);
        assertEquals(byN["5"].ip_used, "");
        // Addresses are read the same way either way.
        assertEquals(byN["1"].country_code, "GB");
      },
    );
  },
});

addEventListener("unload", async () => {
  await fixture.stop();
});
