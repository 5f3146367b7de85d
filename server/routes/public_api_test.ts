// The public lookup API in process (the real app and engine): single
// lookups, batches, BigQuery remote-function calls and CORS.
// (Over 300 lines: its steps share one app, built once for the file.)
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { MODEL } from "../classification/model.ts";
import { NO_IP_GIVEN } from "./lookup_schemas.ts";
import { answer as call, startTestApp } from "../../tests/helpers/test_app.ts";

const INVALID = "Invalid IP address format";

const LOOKUP_KEYS = [
  "ip",
  "success",
  "country",
  "country_code",
  "region",
  "city",
  "latitude",
  "longitude",
  "hostname",
  "domain",
  "company",
  "network_type",
  "classification_reason",
  "classification_confidence",
  "isp",
  "asn",
  "ispFiltered",
  "hostname_lookup",
].sort();

type Lookup = Record<string, unknown>;

Deno.test({
  name: "public lookup API",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const test = await startTestApp({ RATE_LIMIT_PER_MINUTE: "0" });
    const server = test.app;
    try {
      await t.step(
        "single lookup: all fields, cacheable for a day",
        async () => {
          const { status, headers, body } = await call<Lookup>(
            server,
            "/api/lookup?ip=8.8.8.8",
            { headers: { Origin: "https://notebook.example" } },
          );
          assertEquals(status, 200);
          assertEquals(Object.keys(body).sort(), LOOKUP_KEYS);
          assertEquals(body.success, true);
          assertEquals(body.country_code, "US");
          assertEquals(body.country, "United States");
          assertEquals(body.asn, "AS15169 Google LLC");
          assertEquals(body.company, "Google LLC");
          assertEquals(body.network_type, "hosting");
          assertEquals(body.classification_reason, "curated hosting AS");
          // A curated list's answer: its measured share of right answers.
          assertEquals(
            body.classification_confidence,
            Math.round(MODEL.listConfidence * 100) / 100,
          );
          assertEquals(body.hostname, null, "no DNS server answers here");
          assertEquals(body.ispFiltered, false);
          assertEquals(headers.get("cache-control"), "public, max-age=86400");
          assertEquals(headers.get("access-control-allow-origin"), "*");
          assertEquals(headers.get("ratelimit-limit"), null, "limits are off");
        },
      );

      await t.step("single lookup: IPv6, ports, private ranges", async () => {
        const v6 = await call<Lookup>(
          server,
          "/api/lookup?ip=2001:4860:4860::8888",
        );
        assertEquals(v6.body.success, true);
        assertEquals(v6.body.asn, "AS15169 Google LLC");
        const port = await call<Lookup>(server, "/api/lookup?ip=8.8.8.8:443");
        assertEquals([port.body.ip, port.body.success], ["8.8.8.8", true]);
        const priv = await call<Lookup>(server, "/api/lookup?ip=10.1.1.1");
        assertEquals(priv.status, 200);
        assertEquals(priv.body.success, false);
        match(String(priv.body.error), /Private address/);
        assertEquals(Object.keys(priv.body).sort(), ["error", "ip", "success"]);
      });

      await t.step(
        "single lookup: text that is no address answers as a private one does",
        async () => {
          // One rule: an answer about the address is 200 and says in
          // success why it has no data, as that entry of a batch would.
          const batch = await call<Lookup[]>(server, "/api/lookup/batch", {
            json: ["not-an-ip", "1.2.3.4.5", "10.0.0.1"],
          });
          for (
            const [i, ip] of ["not-an-ip", "1.2.3.4.5", "10.0.0.1"].entries()
          ) {
            const { status, body } = await call<Lookup>(
              server,
              `/api/lookup?ip=${ip}`,
            );
            assertEquals(status, 200, ip);
            assertEquals(body, batch.body[i], ip);
            assertEquals(body.success, false);
          }
          assertEquals(batch.body[0].error, INVALID);
        },
      );

      await t.step("single lookup: no ip is a 400 that says so", async () => {
        for (const query of ["ip=", "", "ip=%20"]) {
          const { status, headers, body } = await call<Lookup>(
            server,
            `/api/lookup?${query}`,
          );
          assertEquals(status, 400, query);
          assertEquals(body.success, false);
          assertEquals(body.error, NO_IP_GIVEN);
          assertEquals(body.ip, "");
          ok(!headers.get("cache-control")?.includes("public"));
        }
      });

      await t.step(
        "batch: answers in order, bad entries fail alone",
        async () => {
          const ips = [
            "8.8.8.8",
            "not-an-ip",
            "81.2.69.142",
            "10.1.1.1",
            "8.8.8.8",
            " 1.1.1.1 ",
            "2001:4860:4860::8888",
          ];
          const { status, headers, body } = await call<Lookup[]>(
            server,
            "/api/lookup/batch",
            { json: ips },
          );
          assertEquals(status, 200);
          assertEquals(headers.get("cache-control"), "no-store");
          assertEquals(body.length, ips.length);
          assertEquals(
            body.map((r) => r.ip),
            ips.map((ip) => ip.trim()),
          );
          assertEquals(
            body.map((r) => r.success),
            [true, false, true, false, true, true, true],
          );
          assertEquals(body[1].error, INVALID);
          match(String(body[3].error), /Private address/);
          assertEquals(body[2].country_code, "GB");
          assertEquals(body[0], body[4], "a repeated address answers the same");
          assertEquals(Object.keys(body[0]).sort(), LOOKUP_KEYS);
          const single = await call<Lookup>(
            server,
            "/api/lookup?ip=81.2.69.142",
          );
          // The same but for how the host name went: port 9 never answers,
          // so the resolver may be resting by the single lookup.
          const { hostname_lookup: _, ...fromBatch } = body[2];
          const { hostname_lookup: __, ...alone } = single.body;
          assertEquals(fromBatch, alone, "same shape as a single lookup");
        },
      );

      await t.step('batch: { "ips": [...] } and the empty list', async () => {
        const wrapped = await call<Lookup[]>(server, "/api/lookup/batch", {
          json: { ips: ["1.1.1.1", "8.8.8.8"] },
        });
        assertEquals(wrapped.status, 200);
        assertEquals(wrapped.body.map((r) => r.asn), [
          "AS13335 Cloudflare, Inc.",
          "AS15169 Google LLC",
        ]);
        const empty = await call<Lookup[]>(server, "/api/lookup/batch", {
          json: [],
        });
        assertEquals([empty.status, empty.body], [200, []]);
      });

      await t.step("batch: 1,000 addresses pass, 1,001 are a 400", async () => {
        const ips = Array.from(
          { length: 1000 },
          (_, i) => `8.8.${i >> 8}.${i & 255}`,
        );
        const full = await call<Lookup[]>(server, "/api/lookup/batch", {
          json: ips,
        });
        assertEquals(full.status, 200);
        assertEquals(full.body.length, 1000);
        assertEquals(full.body[999].ip, ips[999]);
        for (
          const json of [[...ips, "1.1.1.1"], { ips: [...ips, "1.1.1.1"] }]
        ) {
          const over = await call<{ message: string }>(
            server,
            "/api/lookup/batch",
            { json },
          );
          assertEquals(over.status, 400);
          match(over.body.message, /at most 1000/);
        }
      });

      await t.step(
        "batch: malformed bodies are 400s that say why",
        async () => {
          const cases: [RequestInit & { json?: unknown }, RegExp][] = [
            [{ json: ["8.8.8.8", 42] }, /^\[1\]: Expected string/],
            [{ json: { ips: "8.8.8.8" } }, /^ips: Expected array/],
            [{ json: { addresses: [] } }, /^ips: Required/],
            [{ json: '"8.8.8.8"' }, /JSON array of IP addresses/],
            [{ json: "[not json" }, /Malformed JSON/],
            [
              { method: "POST", body: '["8.8.8.8"]' },
              /Content-Type: application\/json/,
            ],
          ];
          for (const [init, pattern] of cases) {
            const { status, body } = await call<{ message: string }>(
              server,
              "/api/lookup/batch",
              init,
            );
            assertEquals(status, 400, String(pattern));
            match(body.message, pattern);
          }
          const huge = await call<{ message: string }>(
            server,
            "/api/lookup/batch",
            { json: JSON.stringify(["8.8.8.8".repeat(200_000)]) },
          );
          assertEquals(huge.status, 413);
        },
      );

      await t.step(
        "BigQuery: the recorded request and its replies",
        async () => {
          const request = JSON.parse(
            await Deno.readTextFile(
              new URL(
                "../../tests/fixtures/bigquery_request.json",
                import.meta.url,
              ),
            ),
          );
          const { status, headers, body } = await call<{ replies: unknown[] }>(
            server,
            "/api/bigquery",
            { json: request },
          );
          assertEquals(status, 200);
          assertEquals(headers.get("content-type"), "application/json");
          assertEquals(Object.keys(body), ["replies"]);
          assertEquals(body.replies, [
            {
              country: "United States",
              company: "Google LLC",
              asn: "AS15169 Google LLC",
              success: true,
            },
            {
              country: "United Kingdom",
              company: "Andrews & Arnold Ltd",
              asn: "AS20712 Andrews & Arnold Ltd",
              success: true,
            },
            null,
            {
              country: null,
              company: null,
              asn: null,
              success: false,
              error: INVALID,
            },
            {
              country: null,
              company: null,
              asn: null,
              success: false,
              error: "Private address (RFC 1918), not on the public internet",
            },
            {
              country: "United States",
              company: "Google LLC",
              asn: "AS15169 Google LLC",
              success: true,
            },
          ]);
        },
      );

      await t.step(
        "BigQuery: without fields each reply is a full lookup",
        async () => {
          const { status, body } = await call<{ replies: Lookup[] }>(
            server,
            "/api/bigquery",
            { json: { requestId: "r1", calls: [["1.1.1.1"], ["8.8.8.8"]] } },
          );
          assertEquals(status, 200);
          assertEquals(body.replies.length, 2);
          assertEquals(Object.keys(body.replies[0]).sort(), LOOKUP_KEYS);
          assertEquals(body.replies[1].asn, "AS15169 Google LLC");
          const single = await call<Lookup>(server, "/api/lookup?ip=1.1.1.1");
          assertEquals(body.replies[0], single.body);
        },
      );

      await t.step(
        "BigQuery: a malformed request gets a non-200 errorMessage",
        async () => {
          const calls = Array.from({ length: 1001 }, () => ["8.8.8.8"]);
          const cases: [RequestInit & { json?: unknown }, RegExp][] = [
            [{ json: {} }, /^calls: Required/],
            [{ json: { calls: "8.8.8.8" } }, /^calls: Expected array/],
            [{ json: { calls: [[8]] } }, /^calls\[0\]\[0\]: Expected string/],
            [{ json: { calls: [[]] } }, /^calls\[0\]: /],
            [{ json: { calls } }, /at most 1000/],
            [
              {
                json: {
                  calls: [["8.8.8.8"]],
                  userDefinedContext: { fields: "country,colour" },
                },
              },
              /Unknown field "colour"/,
            ],
            [{ json: "[1,2]" }, /BigQuery request/],
            [{ json: "{oops" }, /Malformed JSON/],
            [{ method: "POST", body: "{}" }, /Content-Type: application\/json/],
          ];
          for (const [init, pattern] of cases) {
            const { status, body } = await call<Record<string, string>>(
              server,
              "/api/bigquery",
              init,
            );
            assertEquals(status, 400, String(pattern));
            assertEquals(Object.keys(body), ["errorMessage"]);
            match(body.errorMessage, pattern);
          }
        },
      );

      await t.step(
        "CORS: other origins may call the lookup routes",
        async () => {
          for (
            const path of ["/api/lookup", "/api/lookup/batch", "/api/bigquery"]
          ) {
            const response = await server.request(path, {
              method: "OPTIONS",
              headers: {
                Origin: "https://notebook.example",
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type",
              },
            });
            await response.body?.cancel();
            assertEquals(response.status, 204, path);
            assertEquals(
              response.headers.get("access-control-allow-origin"),
              "*",
            );
            match(
              response.headers.get("access-control-expose-headers") ?? "",
              /Retry-After/,
            );
          }
          const jobs = await server.request("/api/jobs", {
            headers: { Origin: "https://notebook.example" },
          });
          await jobs.body?.cancel();
          assertEquals(
            jobs.headers.get("access-control-allow-origin"),
            null,
            "job routes stay same-origin",
          );
        },
      );
    } finally {
      await test.close();
    }
  },
});
