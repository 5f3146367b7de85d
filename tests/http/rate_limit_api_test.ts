// Rate limits of the public lookup routes over real HTTP: the 429 path and
// its headers, a batch counted once, X-Forwarded-For only when trusted,
// and the job routes left alone.
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { startServer } from "../helpers/server.ts";
import { call, NO_DNS } from "../helpers/http.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const int = (headers: Headers, name: string) => Number(headers.get(name));

Deno.test({
  name: "rate limits per client address",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const [direct, proxied] = await Promise.all([
      startServer({
        env: { ...NO_DNS, RATE_LIMIT_PER_MINUTE: "30", RATE_LIMIT_BURST: "3" },
      }),
      startServer({
        env: {
          ...NO_DNS,
          // One token every 10 s: a slow machine cannot refill mid-step.
          RATE_LIMIT_PER_MINUTE: "6",
          RATE_LIMIT_BURST: "5",
          TRUST_PROXY: "1",
        },
      }),
    ]);
    try {
      await t.step("the burst passes, then 429 with Retry-After", async () => {
        for (const remaining of [2, 1, 0]) {
          const { status, headers } = await call(
            direct,
            "/api/lookup?ip=8.8.8.8",
          );
          assertEquals(status, 200);
          assertEquals(headers.get("ratelimit-limit"), "3");
          assertEquals(int(headers, "ratelimit-remaining"), remaining);
          assertEquals(headers.get("ratelimit-policy"), "3;w=6");
          ok(int(headers, "ratelimit-reset") >= 1);
        }
        const refused = await call<{ message: string }>(
          direct,
          "/api/lookup?ip=8.8.8.8",
          { headers: { Origin: "https://notebook.example" } },
        );
        assertEquals(refused.status, 429);
        const wait = int(refused.headers, "retry-after");
        ok(wait >= 1 && wait <= 2, `one token every 2 s: Retry-After ${wait}`);
        assertEquals(refused.headers.get("ratelimit-remaining"), "0");
        assertEquals(refused.headers.get("ratelimit-limit"), "3");
        ok(int(refused.headers, "ratelimit-reset") >= wait);
        match(refused.body.message, /30 requests per minute/);
        match(refused.body.message, /Retry after \d+ seconds?/);
        assertEquals(
          refused.headers.get("access-control-allow-origin"),
          "*",
          "a browser on another origin can read the 429",
        );
        // Waiting as told is enough.
        await sleep(wait * 1000);
        const again = await call(direct, "/api/lookup?ip=8.8.8.8");
        assertEquals(again.status, 200);
      });

      await t.step("X-Forwarded-For is ignored unless trusted", async () => {
        const statuses: number[] = [];
        for (let i = 1; i <= 4; i++) {
          const { status } = await call(direct, "/api/lookup?ip=8.8.8.8", {
            headers: { "X-Forwarded-For": `203.0.113.${i}` },
          });
          statuses.push(status);
        }
        assertEquals(statuses.at(-1), 429, `one bucket: ${statuses}`);
      });

      await t.step("job routes and the config are not limited", async () => {
        for (let i = 0; i < 10; i++) {
          const { status, headers } = await call(direct, "/api/jobs");
          assertEquals(status, 200);
          assertEquals(headers.get("ratelimit-limit"), null);
        }
        const config = await call<Record<string, number>>(
          direct,
          "/api/config",
        );
        assertEquals(config.body.rateLimitPerMinute, 30);
        assertEquals(config.body.rateLimitBurst, 3);
      });

      const from = (ip: string) => ({ headers: { "X-Forwarded-For": ip } });

      await t.step("a batch counts once, whatever it holds", async () => {
        const client = from("198.51.100.1");
        const ips = Array.from({ length: 20 }, (_, i) => `8.8.4.${i}`);
        for (const remaining of ["4", "3"]) {
          const batch = await call(proxied, "/api/lookup/batch", {
            ...client,
            json: ips,
          });
          assertEquals(batch.status, 200);
          assertEquals(batch.headers.get("ratelimit-remaining"), remaining);
        }
        assertEquals(
          (await call(proxied, "/api/lookup?ip=1.1.1.1", client)).headers
            .get("ratelimit-remaining"),
          "2",
          "the routes share one bucket",
        );
        assertEquals(
          (await call(proxied, "/api/lookup/batch", {
            ...client,
            json: { ips },
          })).headers.get("ratelimit-policy"),
          "5;w=50",
        );
      });

      await t.step(
        "BigQuery: each call counts once; 429 says errorMessage",
        async () => {
          const client = from("198.51.100.3");
          const calls = Array.from({ length: 5 }, () => ["8.8.8.8"]);
          for (let i = 0; i < 5; i++) {
            const allowed = await call(proxied, "/api/bigquery", {
              ...client,
              json: { calls },
            });
            assertEquals(allowed.status, 200);
          }
          const second = await call<Record<string, string>>(
            proxied,
            "/api/bigquery",
            { ...client, json: { calls } },
          );
          assertEquals(second.status, 429);
          assertEquals(Object.keys(second.body), ["errorMessage"]);
          match(second.body.errorMessage, /Rate limit exceeded/);
          ok(int(second.headers, "retry-after") >= 1);
        },
      );

      await t.step("other clients keep their own bucket", async () => {
        const other = await call(
          proxied,
          "/api/lookup?ip=8.8.8.8",
          from("198.51.100.4"),
        );
        assertEquals(other.status, 200);
        assertEquals(other.headers.get("ratelimit-remaining"), "4");
        const spoofed = await call(proxied, "/api/lookup?ip=8.8.8.8", {
          // The proxy appends what it saw; only that last entry is trusted.
          headers: { "X-Forwarded-For": "198.51.100.4, 198.51.100.3" },
        });
        assertEquals(spoofed.status, 429);
      });

      await t.step(
        "a refused oversized batch costs one, not its size",
        async () => {
          const client = from("198.51.100.5");
          const over = Array.from({ length: 1001 }, () => "8.8.8.8");
          const refused = await call(proxied, "/api/lookup/batch", {
            ...client,
            json: over,
          });
          assertEquals(refused.status, 400);
          assertEquals(refused.headers.get("ratelimit-remaining"), "4");
        },
      );
    } finally {
      await Promise.all([direct.stop(), proxied.stop()]);
    }
  },
});
