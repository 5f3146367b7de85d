import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { TtlCache } from "./ttl_cache.ts";

Deno.test("entries expire after their TTL", () => {
  let now = 1000;
  const cache = new TtlCache<string | null>(10, () => now);
  cache.set("a", "x.example", 500);
  cache.set("b", null, 2000);
  assertEquals(cache.get("a"), "x.example");
  assertEquals(cache.get("b"), null, "a negative answer is a value");
  now += 500;
  assertEquals(cache.get("a"), undefined);
  assertEquals(cache.get("b"), null);
  now += 1500;
  assertEquals(cache.get("b"), undefined);
  assertEquals(cache.size, 0);
});

Deno.test("a TTL of zero keeps nothing; the oldest entry goes when full", () => {
  const cache = new TtlCache<number>(3);
  cache.set("zero", 1, 0);
  assertEquals(cache.get("zero"), undefined);
  for (const key of ["a", "b", "c", "d"]) cache.set(key, 1, 60_000);
  assertEquals(cache.size, 3);
  assertEquals(cache.get("a"), undefined);
  assertEquals(cache.get("d"), 1);
  // Writing a key again makes it the newest.
  cache.set("b", 2, 60_000);
  cache.set("e", 1, 60_000);
  assertEquals(cache.get("c"), undefined);
  assertEquals(cache.get("b"), 2);
});

Deno.test("a cache of no entries keeps nothing", () => {
  const cache = new TtlCache<number>(0);
  cache.set("a", 1, 60_000);
  assertEquals(cache.get("a"), undefined);
});
