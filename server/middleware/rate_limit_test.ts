import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Hono } from "hono";
import { policyHeader, rateLimit, RateLimiter } from "./rate_limit.ts";

function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => void (now += ms),
  };
}

Deno.test("a full bucket allows the burst, then refills at the rate", () => {
  const time = clock();
  const limiter = new RateLimiter({ perMinute: 60, burst: 3 }, time.now);
  assertEquals(limiter.take("a").remaining, 2);
  assertEquals(limiter.take("a").remaining, 1);
  const last = limiter.take("a");
  assertEquals([last.allowed, last.remaining, last.resetSeconds], [
    true,
    0,
    3,
  ]);
  const refused = limiter.take("a");
  assertEquals(refused.allowed, false);
  assertEquals(refused.retryAfterSeconds, 1);
  assertEquals(limiter.take("b").allowed, true, "clients are independent");
  time.advance(1000);
  assertEquals(limiter.take("a").allowed, true, "one token a second");
  assertEquals(limiter.take("a").allowed, false);
  time.advance(60_000);
  assertEquals(limiter.take("a").remaining, 2, "never more than the burst");
});

Deno.test("a request takes one token, however many addresses it holds", () => {
  const time = clock();
  const limiter = new RateLimiter({ perMinute: 60, burst: 2 }, time.now);
  limiter.take("a");
  limiter.take("a");
  const refused = limiter.take("a");
  assertEquals([refused.allowed, refused.retryAfterSeconds], [false, 1]);
  time.advance(1000);
  assertEquals(limiter.take("a").allowed, true);
});

Deno.test("zero per minute or zero burst turns the limit off", () => {
  ok(!new RateLimiter({ perMinute: 0, burst: 60 }).enabled);
  ok(!new RateLimiter({ perMinute: 600, burst: 0 }).enabled);
  ok(new RateLimiter({ perMinute: 600, burst: 60 }).enabled);
  assertEquals(policyHeader({ perMinute: 600, burst: 60 }), "60;w=6");
});

Deno.test("idle clients are forgotten once many are tracked", () => {
  const time = clock();
  const limiter = new RateLimiter({ perMinute: 600, burst: 5 }, time.now);
  for (let i = 0; i < 10_000; i++) limiter.take(`c${i}`);
  time.advance(1000);
  limiter.take("new");
  assertEquals(limiter.size, 1);
});

Deno.test("middleware: headers on answers, 429 with Retry-After", async () => {
  const limiter = new RateLimiter({ perMinute: 60, burst: 2 });
  const app = new Hono();
  app.use(
    "/x",
    rateLimit(limiter, {
      trustProxy: 0,
      refusalBody: (message) => ({ errorMessage: message }),
    }),
  );
  app.get("/x", (c) => c.text("ok"));
  const first = await app.request("/x");
  assertEquals(first.status, 200);
  assertEquals(first.headers.get("RateLimit-Limit"), "2");
  assertEquals(first.headers.get("RateLimit-Remaining"), "1");
  assertEquals(first.headers.get("RateLimit-Policy"), "2;w=2");
  await (await app.request("/x")).body?.cancel();
  const refused = await app.request("/x");
  assertEquals(refused.status, 429);
  assertEquals(refused.headers.get("Retry-After"), "1");
  assertEquals(refused.headers.get("RateLimit-Remaining"), "0");
  const body = await refused.json();
  ok(/Retry after 1 second\./.test(body.errorMessage), body.errorMessage);
});

Deno.test("middleware: off means no headers and no limit", async () => {
  const app = new Hono();
  app.use(
    "/x",
    rateLimit(new RateLimiter({ perMinute: 0, burst: 0 }), { trustProxy: 0 }),
  );
  app.get("/x", (c) => c.text("ok"));
  for (let i = 0; i < 5; i++) {
    const response = await app.request("/x");
    assertEquals(response.status, 200);
    assertEquals(response.headers.get("RateLimit-Limit"), null);
    await response.body?.cancel();
  }
});

Deno.test("a refund gives a token back, never past the bucket", () => {
  const time = clock();
  const limiter = new RateLimiter({ perMinute: 1, burst: 2 }, time.now);
  limiter.take("a");
  limiter.take("a");
  assertEquals(limiter.take("a").allowed, false);
  limiter.refund("a");
  assertEquals(limiter.take("a").allowed, true);
  time.advance(120_000);
  limiter.refund("a");
  assertEquals(limiter.take("a").remaining, 1, "never past the bucket");
});
