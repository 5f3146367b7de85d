// The RDAP cache table in a real SQLite file: most specific range first,
// a stale specific range is a miss (not the broader range), pruning.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { parseAddress, parseCidr } from "../rdap/ip_span.ts";
import type { Registration } from "../rdap/rdap_parser.ts";
import { DatabaseSync } from "node:sqlite";
import { MIGRATIONS } from "./migrations.ts";
import { RDAP_CACHE_SCHEMA, RdapCache } from "./rdap_cache.ts";
import { Store } from "./store.ts";

const DAY = 86_400_000;

const registration = (org: string, network: string): Registration => ({
  org,
  orgIsRegistrant: true,
  name: null,
  handle: null,
  network,
  startAddress: "",
  endAddress: "",
  country: null,
  abuseEmail: null,
});

Deno.test("the most specific fresh range answers; a stale one is a miss", async () => {
  const dir = await Deno.makeTempDir();
  const store = new Store(join(dir, "t.db"));
  try {
    let now = 1_000 * DAY;
    const cache = new RdapCache(store.db, { maxAgeDays: 30, now: () => now });
    const at = (ip: string) => parseAddress(ip)!;
    const carrier = registration("Carrier", "12.0.0.0/8");
    // The carrier's /8, asked from two /24s: kept for those two /24s only.
    cache.put(at("12.34.56.100"), parseCidr("12.0.0.0/8")!, carrier);
    cache.put(at("12.34.57.1"), parseCidr("12.0.0.0/8")!, carrier);
    now += 10 * DAY;
    const acme = registration("Acme", "12.34.56.0/26");
    cache.put(at("12.34.56.1"), parseCidr("12.34.56.0/26")!, acme);
    cache.put(at("2001:db8::1"), null, null);
    // A network that does not hold the asked address is not kept.
    assertEquals(
      cache.put(at("9.9.9.9"), parseCidr("8.8.8.0/24")!, acme),
      false,
    );
    const org = (ip: string) => cache.lookup(at(ip))?.registration?.org;
    assertEquals(
      [org("12.34.56.5"), org("12.34.56.99"), org("12.34.57.5")],
      ["Acme", "Carrier", "Carrier"],
    );
    assertEquals([org("12.35.0.1"), org("9.9.9.9")], [undefined, undefined]);
    // A 404 covers the asked address's /48.
    assertEquals(cache.lookup(at("2001:db8::9"))?.registration, null);
    assertEquals(cache.lookup(at("2001:db8:1::9")), null);
    // 15 days on: the 404 (kept a day) and nothing else has expired.
    now += 15 * DAY;
    assertEquals(cache.lookup(at("2001:db8::9")), null);
    assertEquals(org("12.34.56.5"), "Acme");
    // 31 days after the /8: it is gone, the /26 (21 days old) answers.
    now += 6 * DAY;
    assertEquals([org("12.34.57.5"), org("12.34.56.5")], [undefined, "Acme"]);
    // 31 days after the /26: stale, and the carrier does not stand in for it.
    now += 10 * DAY;
    assertEquals(org("12.34.56.5"), undefined);
    assertEquals([cache.prune(), cache.count()], [4, 0]);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a database from before the cache gains its table on opening", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "old.db");
  const step = MIGRATIONS.indexOf(RDAP_CACHE_SCHEMA);
  const old = new DatabaseSync(path);
  for (const migration of MIGRATIONS.slice(0, step)) old.exec(migration);
  old.exec(`PRAGMA user_version = ${step}`);
  old.close();
  const store = new Store(path);
  try {
    const cache = new RdapCache(store.db, { maxAgeDays: 30 });
    cache.put(
      parseAddress("60.1.2.3")!,
      parseCidr("60.1.0.0/16")!,
      registration("Block", "60.1.0.0/16"),
    );
    assertEquals(
      cache.lookup(parseAddress("60.1.2.3")!)?.registration?.org,
      "Block",
    );
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
