import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Hono } from "hono";
import { rateLimit, RateLimiter } from "../middleware/rate_limit.ts";
import { apiKeyRateKey, LookupApiKeys } from "./api_keys.ts";

const KEY_A = "team-a-0123456789abcdef";
const KEY_B = "team-b-0123456789abcdef";

async function appWith(keys: string[]) {
  const apiKeys = await LookupApiKeys.create(keys);
  const limiter = new RateLimiter({ perMinute: 60, burst: 2 });
  const app = new Hono();
  app.use(
    "/api/lookup",
    apiKeys.guard(),
    rateLimit(limiter, { trustProxy: 0, key: apiKeyRateKey }),
  );
  app.use(
    "/api/bigquery",
    apiKeys.guard({ body: (m) => ({ errorMessage: m }) }),
  );
  app.all("/api/*", (c) => c.json({ ok: true }));
  return app;
}

async function call(
  app: Hono,
  path: string,
  headers: Record<string, string> = {},
) {
  const response = await app.request(`http://app.test${path}`, { headers });
  return {
    status: response.status,
    body: await response.json(),
    headers: response.headers,
  };
}

Deno.test("without LOOKUP_API_KEYS the lookup API is open", async () => {
  const app = await appWith([]);
  assertEquals((await call(app, "/api/lookup?ip=8.8.8.8")).status, 200);
});

Deno.test("with keys: Bearer or ?key= is required, wrong keys refused", async () => {
  const app = await appWith([KEY_A, KEY_B]);
  const missing = await call(app, "/api/lookup?ip=8.8.8.8");
  assertEquals(missing.status, 401);
  assertEquals(
    missing.body.message,
    "This lookup API needs an API key: send it as 'Authorization: Bearer <key>' or '?key=<key>'",
  );
  assertEquals(
    missing.headers.get("www-authenticate"),
    'Bearer realm="lookup API"',
  );
  const wrong = await call(app, "/api/lookup?ip=1.1.1.1", {
    Authorization: "Bearer nope-nope-nope-nope",
  });
  assertEquals([wrong.status, wrong.body.message], [
    401,
    "The API key is not recognised",
  ]);
  assertEquals(
    (await call(app, "/api/lookup", { Authorization: `Bearer ${KEY_A}` }))
      .status,
    200,
  );
  assertEquals((await call(app, `/api/lookup?key=${KEY_B}`)).status, 200);
  // Basic credentials are not an API key.
  assertEquals(
    (await call(app, "/api/lookup", {
      Authorization: `Basic ${btoa(`x:${KEY_A}`)}`,
    })).status,
    401,
  );
  // BigQuery's error shape is kept.
  const bigquery = await call(app, "/api/bigquery");
  assertEquals([bigquery.status, Object.keys(bigquery.body)], [401, [
    "errorMessage",
  ]]);
});

Deno.test("the rate limit follows the key, not the address", async () => {
  const app = await appWith([KEY_A, KEY_B]);
  const asA = { Authorization: `Bearer ${KEY_A}` };
  // Every request here comes from the same (unknown) address.
  assertEquals((await call(app, "/api/lookup", asA)).status, 200);
  assertEquals((await call(app, `/api/lookup?key=${KEY_A}`)).status, 200);
  const limited = await call(app, "/api/lookup", asA);
  assertEquals(limited.status, 429); // A's bucket of 2 is spent
  // B has a bucket of its own.
  assertEquals(
    (await call(app, "/api/lookup", { Authorization: `Bearer ${KEY_B}` }))
      .status,
    200,
  );
});

Deno.test("without a key the limiter keeps counting by address", async () => {
  const limiter = new RateLimiter({ perMinute: 60, burst: 1 });
  const app = new Hono();
  app.use("*", rateLimit(limiter, { trustProxy: 1, key: apiKeyRateKey }));
  app.get("*", (c) => c.text("ok"));
  const from = (ip: string) =>
    app.request("/x", { headers: { "X-Forwarded-For": ip } });
  assertEquals((await from("192.0.2.1")).status, 200);
  assertEquals((await from("192.0.2.1")).status, 429);
  assertEquals((await from("192.0.2.2")).status, 200);
});
