// Host names in the lookup API from a real DNS server (dnsmasq) on loopback.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  EXAMPLE_LOOKUP,
  EXAMPLE_LOOKUP_IP,
} from "../../shared/lookup_example.ts";
import { reverseV4 } from "../helpers/dnsmasq.ts";
import { startServerWithDns } from "../helpers/server_with_dns.ts";
import { call } from "../helpers/http.ts";

type Lookup = Record<string, unknown>;

/** dnsmasq's query log arrives through a pipe: give it a moment. */
async function settled(read: () => number): Promise<number> {
  let last = read();
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const now = read();
    if (now === last && i >= 2) break;
    last = now;
  }
  return last;
}

Deno.test({
  name: "lookup API: reverse DNS",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const fixture = await startServerWithDns({
      records: {
        "8.8.8.8": "dns.google",
        "81.2.69.142": "mail.shop.example.co.uk",
        "1.0.0.1": "one.one.one.one",
      },
    }, { RATE_LIMIT_PER_MINUTE: "0" });
    const { server, dns } = fixture;
    try {
      await t.step(
        "the example answer shown in the docs is this server's answer",
        async () => {
          const { body } = await call<Lookup>(
            server,
            `/api/lookup?ip=${EXAMPLE_LOOKUP_IP}`,
          );
          assertEquals(body, EXAMPLE_LOOKUP);
          // The API page renders EXAMPLE_LOOKUP; the OpenAPI document and
          // docs/API.md show it too.
          const openapi = await call<
            { components: { schemas: Record<string, { example?: unknown }> } }
          >(server, "/api/openapi.json");
          assertEquals(
            openapi.body.components.schemas.LookupSuccess.example,
            EXAMPLE_LOOKUP,
          );
          const apiMd = await Deno.readTextFile(
            new URL("../../docs/API.md", import.meta.url),
          );
          const single = apiMd.slice(apiMd.indexOf("## Single lookup"));
          const block = /```json\n([\s\S]*?)```/.exec(single)?.[1];
          assertEquals(JSON.parse(block ?? "null"), EXAMPLE_LOOKUP);
        },
      );

      await t.step(
        "single lookup: hostname and registrable domain",
        async () => {
          const { body } = await call<Lookup>(
            server,
            "/api/lookup?ip=81.2.69.142",
          );
          assertEquals(body.hostname, "mail.shop.example.co.uk");
          assertEquals(body.domain, "example.co.uk");
        },
      );

      await t.step(
        "batch: host names in order, each address asked once",
        async () => {
          const before = await settled(() =>
            dns.queriesFor(reverseV4("8.8.8.8"))
          );
          const { body } = await call<Lookup[]>(server, "/api/lookup/batch", {
            json: ["8.8.8.8", "81.2.69.142", "1.1.1.1", "8.8.8.8"],
          });
          assertEquals(body.map((r) => r.hostname), [
            "dns.google",
            "mail.shop.example.co.uk",
            null,
            "dns.google",
          ]);
          const after = await settled(() =>
            dns.queriesFor(reverseV4("8.8.8.8"))
          );
          assertEquals(after - before, 1);
        },
      );

      await t.step(
        "BigQuery: DNS only when a DNS field is selected",
        async () => {
          const ask = (fields: string) =>
            call<{ replies: Lookup[] }>(server, "/api/bigquery", {
              json: {
                userDefinedContext: { fields },
                calls: [["1.0.0.1"]],
              },
            });
          const country = await ask("country,asn");
          assertEquals(country.body.replies, [{
            country: "Australia",
            asn: "AS13335 Cloudflare, Inc.",
            success: true,
          }]);
          assertEquals(
            await settled(() => dns.queriesFor(reverseV4("1.0.0.1"))),
            0,
          );
          const host = await ask("hostname,domain");
          assertEquals(host.body.replies, [{
            hostname: "one.one.one.one",
            domain: "one.one",
            success: true,
          }]);
          assertEquals(
            await settled(() => dns.queriesFor(reverseV4("1.0.0.1"))),
            1,
          );
        },
      );
    } finally {
      await fixture.stop();
    }
  },
});
