// Registration lookups as a job makes them: the cache by network in a real
// SQLite file (one query for many addresses of a block, reused by a later
// job), answers that expire, 404s kept for less, and a dead server that
// costs a few time-outs and never an exception.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { startRdapServer } from "../../tests/helpers/rdap_server.ts";
import { SqliteRdapCache } from "../storage/rdap_cache.ts";
import { Store } from "../storage/store.ts";
import { RateLimiter } from "./rate_limiter.ts";
import { RdapClient } from "./rdap_client.ts";
import { loadRdapConfig } from "./rdap_config.ts";
import { type Registration, registrationColumns } from "./rdap_parser.ts";
import { registrationLookupFor } from "./rdap_setup.ts";
import { registrantOverride } from "./registrant_override.ts";
import { RegistrationLookup } from "./registration_lookup.ts";

const DAY = 86_400_000;

/**
 * Each distinct address looked up, eight at a time; the answers by address
 * (a job starts all of its addresses' lookups at once: a bound here makes
 * the counts of a dead server exact).
 */
async function lookupMany(
  lookup: RegistrationLookup,
  ips: string[],
): Promise<Map<string, Registration | null>> {
  const queue = [...new Set(ips)];
  const answers = new Map<string, Registration | null>();
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const ip = queue[next++];
      answers.set(ip, await lookup.lookup(ip));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return answers;
}

async function withParts(
  fn: (parts: {
    server: ReturnType<typeof startRdapServer>;
    /** A lookup as a new job would make it: its own Store on the file. */
    job(options?: { baseUrl?: string; now?: () => number }): RegistrationLookup;
  }) => Promise<void>,
) {
  const dir = await Deno.makeTempDir();
  const server = startRdapServer();
  const stores: Store[] = [];
  const limiter = new RateLimiter(100);
  try {
    await fn({
      server,
      job(options = {}) {
        const store = new Store(join(dir, "enrich.db"));
        stores.push(store);
        return new RegistrationLookup({
          client: new RdapClient({
            baseUrl: options.baseUrl ?? server.url,
            limiter,
            timeoutMs: 300,
          }),
          cache: new SqliteRdapCache(store.db, {
            maxAgeDays: 30,
            now: options.now,
          }),
          failureLimit: 3,
        });
      },
    });
  } finally {
    await server.close();
    for (const store of stores) store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("one query for many addresses of a block; a later job asks nothing", () =>
  withParts(async ({ server, job }) => {
    const block = Array.from({ length: 20 }, (_, i) => `12.34.56.${i * 3}`);
    const first = job();
    const answers = await lookupMany(first, block);
    assertEquals(server.count(), 1);
    assertEquals(
      new Set([...answers.values()].map((r) => r?.org)),
      new Set(["ACME CORP"]),
    );
    assertEquals(first.outcomes, {
      answered: 1,
      cached: 19,
      notFound: 0,
      timedOut: 0,
      failed: 0,
      skipped: 0,
    });
    const later = job();
    const again = await later.lookup("12.34.56.40");
    assertEquals([again?.network, server.count()], ["12.34.56.0/26", 1]);
    assertEquals([later.outcomes.cached, later.outcomes.answered], [1, 0]);
  }));

Deno.test("the most specific network wins; a carrier's /8 is reused only near the asked address", () =>
  withParts(async ({ server, job }) => {
    const lookup = job();
    assertEquals((await lookup.lookup("12.34.56.1"))?.org, "ACME CORP");
    // Outside the customer's /26, inside the carrier's /8: asked once, and
    // the carrier's answer then serves the rest of this /24 ...
    assertEquals(
      (await lookup.lookup("12.34.56.100"))?.org,
      "AT&T Services, Inc.",
    );
    assertEquals(
      (await lookup.lookup("12.34.56.200"))?.org,
      "AT&T Services, Inc.",
    );
    // ... except the customer's /26, the more specific cached range.
    assertEquals((await lookup.lookup("12.34.56.2"))?.org, "ACME CORP");
    assertEquals(server.count(), 2);
    // Another /24 of the carrier's /8 is asked again (it may be a customer's).
    await lookup.lookup("12.99.0.1");
    assertEquals(server.count(), 3);
  }));

Deno.test("answers older than RDAP_CACHE_DAYS are asked again; a 404 is kept a day", () =>
  withParts(async ({ server, job }) => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const clock = () => now;
    await lookupMany(job({ now: clock }), ["60.7.0.1", "198.51.100.7"]);
    assertEquals(server.count(), 2);
    now += 2 * DAY;
    const soon = job({ now: clock });
    await lookupMany(soon, ["60.7.0.2", "198.51.100.8"]);
    // The network is fresh; the 404 is not.
    assertEquals([server.count(), soon.outcomes.cached], [3, 1]);
    assertEquals(soon.outcomes.notFound, 1);
    now += 29 * DAY;
    await job({ now: clock }).lookup("60.7.0.3");
    assertEquals(server.count(), 4);
  }));

Deno.test("a dead RDAP server costs a few bounded time-outs, counted, never thrown", () =>
  withParts(async ({ server, job }) => {
    const lookup = job({ baseUrl: server.deadUrl });
    const addresses = Array.from({ length: 40 }, (_, n) => `60.${n}.0.1`);
    const started = performance.now();
    const answers = await lookupMany(lookup, addresses);
    const took = performance.now() - started;
    assertEquals(answers.size, 40);
    ok([...answers.values()].every((a) => a === null));
    const { timedOut, skipped } = lookup.outcomes;
    // Eight in flight at once when the third failure in a row stops asking.
    ok(timedOut >= 3 && timedOut <= 10, `timed out ${timedOut}`);
    assertEquals(timedOut + skipped, 40);
    ok(took < 3000, `took ${took}ms`);
    ok(lookup.gaveUp);
    ok(/did not answer in time/.test(lookup.lastFailure ?? ""));
  }));

Deno.test("over the wire: a customer inside a carrier's consumer AS becomes the company", () =>
  withParts(async ({ job }) => {
    const lookup = job();
    const row = {
      asn: 7018,
      org: "ATT-INTERNET4",
      networkType: "consumer_isp",
    };
    const [customer, carrier] = await Promise.all([
      lookup.lookup("12.34.56.9"),
      lookup.lookup("12.77.0.1"),
    ]);
    assertEquals(registrantOverride(customer, row), {
      company: "ACME CORP",
      keep: true,
      reason: "registered to ACME CORP inside AS7018",
    });
    assertEquals(registrantOverride(carrier, row), null);
  }));

Deno.test("RDAP off gives no lookup; on, the configured server answers", () =>
  withParts(async ({ server }) => {
    const dir = await Deno.makeTempDir();
    const store = new Store(join(dir, "setup.db"));
    try {
      const pacer = new RateLimiter(10);
      const off = loadRdapConfig({});
      const cache = new SqliteRdapCache(store.db, { maxAgeDays: 30 });
      assertEquals(registrationLookupFor(off, cache, pacer), null);
      const on = loadRdapConfig({ RDAP: "on", RDAP_URL: server.url });
      const lookup = registrationLookupFor(on, cache, pacer)!;
      const found = await lookup.lookup("2001:db8::42");
      assertEquals(registrationColumns(found), {
        registered_org: "Joe User",
        registered_network: "2001:db8::/48",
        registered_country: "AU",
        abuse_email: "abuse@example.com",
      });
      assertEquals(registrationColumns(null).registered_org, null);
    } finally {
      store.close();
      await Deno.remove(dir, { recursive: true });
    }
  }));
