// Single lookups with a DNS server that never answers (a UDP port that reads
// every query and answers none): after a few timeouts the server is rested,
// so lookups answer at once with no host name and say why; fields= without
// a host-name field sends no query at all. Timing targets live in
// bench/ (lookup_latency); these check the behaviour.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { startServer } from "../helpers/server.ts";
import { call } from "../helpers/http.ts";
import { startSilentResolver } from "../helpers/silent_resolver.ts";

type Lookup = Record<string, unknown>;

Deno.test({
  name: "lookup API with a silent DNS server: rested, and fields= skips DNS",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dns = startSilentResolver();
    const server = await startServer({
      env: {
        DNS_SERVERS: dns.address,
        DNS_TIMEOUT_MS: "200",
        RATE_LIMIT_PER_MINUTE: "0",
      },
    });
    try {
      await t.step(
        "fields= without a host-name field asks no DNS",
        async () => {
          const { status, body } = await call<Lookup>(
            server,
            "/api/lookup?ip=8.8.8.8&fields=country,asn",
          );
          assertEquals(status, 200);
          assertEquals(body, {
            country: "United States",
            asn: "AS15169 Google LLC",
            success: true,
          });
          const batch = await call<Lookup[]>(
            server,
            "/api/lookup/batch?fields=ip,country_code",
            { json: ["1.1.1.1", "not-an-ip"] },
          );
          assertEquals(batch.status, 200);
          assertEquals(batch.body, [
            { ip: "1.1.1.1", country_code: "AU", success: true },
            {
              ip: "not-an-ip",
              country_code: null,
              success: false,
              error: "Invalid IP address format",
            },
          ]);
          assertEquals(dns.received(), 0);
        },
      );

      await t.step("an unknown field is refused in words", async () => {
        const { status, body } = await call<Lookup>(
          server,
          "/api/lookup?ip=8.8.8.8&fields=country,color",
        );
        assertEquals(status, 400);
        assertEquals(body.success, false);
        ok(String(body.error).startsWith('fields: Unknown field "color"'));
        const batch = await call<{ message: string }>(
          server,
          "/api/lookup/batch?fields=color",
          { json: ["8.8.8.8"] },
        );
        assertEquals(batch.status, 400);
        ok(batch.body.message.includes('Unknown field "color"'));
      });

      await t.step(
        "after a few timeouts lookups are skipped, and say so",
        async () => {
          const outcomes: unknown[] = [];
          for (let i = 1; i <= 12; i++) {
            const { body } = await call<Lookup>(
              server,
              `/api/lookup?ip=8.8.${i}.8`,
            );
            assertEquals(body.hostname, null);
            outcomes.push(body.hostname_lookup);
          }
          const timedOut = outcomes.filter((o) => o === "timed_out").length;
          ok(timedOut >= 1 && timedOut <= 6, JSON.stringify(outcomes));
          // Once rested, every later lookup is skipped: none waits.
          const firstSkipped = outcomes.indexOf("skipped");
          ok(firstSkipped > 0, JSON.stringify(outcomes));
          assertEquals(
            outcomes.slice(firstSkipped).every((o) => o === "skipped"),
            true,
            JSON.stringify(outcomes),
          );
          const { body } = await call<Lookup>(
            server,
            "/api/lookup?ip=8.8.4.4&fields=country,hostname,hostname_lookup",
          );
          assertEquals(body, {
            country: "United States",
            hostname: null,
            hostname_lookup: "skipped",
            success: true,
          });
        },
      );
    } finally {
      await server.stop();
      await dns.close();
    }
  },
});
