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
    cache.put(parseCidr("12.0.0.0/8")!, registration("Carrier", "12.0.0.0/8"));
    now += 10 * DAY;
    cache.put(
      parseCidr("12.34.56.0/26")!,
      registration("Acme", "12.34.56.0/26"),
    );
    cache.put(parseCidr("2001:db8::/48")!, null);
    const org = (ip: string) =>
      cache.lookup(parseAddress(ip)!)?.registration?.org;
    assertEquals(
      [org("12.34.56.5"), org("12.34.57.5"), org("13.0.0.1")],
      ["Acme", "Carrier", undefined],
    );
    assertEquals(
      cache.lookup(parseAddress("2001:db8::9")!)?.registration,
      null,
    );
    // 15 days on: the 404 (kept a day) and nothing else has expired.
    now += 15 * DAY;
    assertEquals(cache.lookup(parseAddress("2001:db8::9")!), null);
    assertEquals(org("12.34.56.5"), "Acme");
    // 31 days after the /8: it is gone, the /26 (21 days old) answers.
    now += 6 * DAY;
    assertEquals([org("12.34.57.5"), org("12.34.56.5")], [undefined, "Acme"]);
    // 31 days after the /26: stale, and the /8 does not stand in for it.
    now += 10 * DAY;
    assertEquals(org("12.34.56.5"), undefined);
    assertEquals([cache.prune(), cache.count()], [3, 0]);
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
    cache.put(parseCidr("60.1.0.0/16")!, registration("Block", "60.1.0.0/16"));
    assertEquals(
      cache.lookup(parseAddress("60.1.2.3")!)?.registration?.org,
      "Block",
    );
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
