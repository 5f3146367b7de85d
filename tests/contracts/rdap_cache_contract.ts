// One behaviour for every RdapCache adapter: rdap_cache_contract_test.ts runs
// these against SQLite (a temp file) and PostgreSQL (a throwaway server).
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseAddress, parseCidr } from "../../server/rdap/ip_span.ts";
import type { Registration } from "../../server/rdap/rdap_parser.ts";
import type {
  RdapCache,
  RdapCacheOptions,
} from "../../server/storage/rdap_cache.ts";

const DAY = 86_400_000;

/** Fresh, empty storage with a way to open caches on it. */
export interface OpenedCacheStorage {
  /** A cache on its own connection to the same storage (another replica). */
  cache(options: RdapCacheOptions): RdapCache;
  close(): Promise<void>;
}

export const registration = (org: string, network: string): Registration => ({
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

const at = (ip: string) => parseAddress(ip)!;
const cidr = (text: string) => parseCidr(text)!;

export function rdapCacheContract(
  name: string,
  open: () => Promise<OpenedCacheStorage>,
): void {
  const test = (
    title: string,
    fn: (storage: OpenedCacheStorage) => Promise<void>,
  ) =>
    Deno.test(`${name}: ${title}`, async () => {
      const storage = await open();
      try {
        await fn(storage);
      } finally {
        await storage.close();
      }
    });

  test("the most specific fresh range answers; a stale one is a miss", async (storage) => {
    let now = 1_000 * DAY;
    const cache = storage.cache({ maxAgeDays: 30, now: () => now });
    const carrier = registration("Carrier", "12.0.0.0/8");
    // The carrier's /8, asked from two /24s: kept for those two /24s only.
    await cache.put(at("12.34.56.100"), cidr("12.0.0.0/8"), carrier);
    await cache.put(at("12.34.57.1"), cidr("12.0.0.0/8"), carrier);
    now += 10 * DAY;
    const acme = registration("Acme", "12.34.56.0/26");
    await cache.put(at("12.34.56.1"), cidr("12.34.56.0/26"), acme);
    await cache.put(at("2001:db8::1"), null, null);
    // A network that does not hold the asked address is not kept.
    assertEquals(
      await cache.put(at("9.9.9.9"), cidr("8.8.8.0/24"), acme),
      false,
    );
    const org = async (ip: string) =>
      (await cache.lookup(at(ip)))?.registration?.org;
    assertEquals(
      [
        await org("12.34.56.5"),
        await org("12.34.56.99"),
        await org("12.34.57.5"),
      ],
      ["Acme", "Carrier", "Carrier"],
    );
    assertEquals([await org("12.35.0.1"), await org("9.9.9.9")], [
      undefined,
      undefined,
    ]);
    // A 404 covers the asked address's /48.
    assertEquals((await cache.lookup(at("2001:db8::9")))?.registration, null);
    assertEquals(await cache.lookup(at("2001:db8:1::9")), null);
    // 15 days on: the 404 (kept a day) and nothing else has expired.
    now += 15 * DAY;
    assertEquals(await cache.lookup(at("2001:db8::9")), null);
    assertEquals(await org("12.34.56.5"), "Acme");
    // 31 days after the /8: it is gone, the /26 (21 days old) answers.
    now += 6 * DAY;
    assertEquals([await org("12.34.57.5"), await org("12.34.56.5")], [
      undefined,
      "Acme",
    ]);
    // 31 days after the /26: stale, and the carrier does not stand in for it.
    now += 10 * DAY;
    assertEquals(await org("12.34.56.5"), undefined);
    assertEquals([await cache.prune(), await cache.count()], [4, 0]);
  });

  test("a range's span and time come back as stored", async (storage) => {
    const cache = storage.cache({
      maxAgeDays: 30,
      now: () => 1_700_000_000_000,
    });
    await cache.put(at("2001:db8:ffff::1"), cidr("2001:db8:ffff::/48"), null);
    const found = await cache.lookup(at("2001:db8:ffff:1::2"));
    assertEquals(found, {
      span: cidr("2001:db8:ffff::/48"),
      fetchedAt: 1_700_000_000_000,
      registration: null,
    });
  });

  test("keys order by number: hex letters sort after digits", async (storage) => {
    const cache = storage.cache({ maxAgeDays: 30 });
    // Starts 0x00, 0x90 and 0xa0 within one /24; the most specific wins.
    await cache.put(
      at("12.34.56.1"),
      cidr("12.34.56.0/24"),
      registration("Whole", ""),
    );
    await cache.put(
      at("12.34.56.150"),
      cidr("12.34.56.144/28"),
      registration("Nine", ""),
    );
    await cache.put(
      at("12.34.56.165"),
      cidr("12.34.56.160/27"),
      registration("Ay", ""),
    );
    const org = async (ip: string) =>
      (await cache.lookup(at(ip)))?.registration?.org;
    assertEquals(
      await Promise.all(
        ["12.34.56.150", "12.34.56.165", "12.34.56.200", "12.34.56.7"].map(org),
      ),
      ["Nine", "Ay", "Whole", "Whole"],
    );
  });

  test("a newer answer replaces the one for the same range", async (storage) => {
    let now = 5 * DAY;
    const cache = storage.cache({ maxAgeDays: 30, now: () => now });
    await cache.put(
      at("60.1.2.3"),
      cidr("60.1.2.0/24"),
      registration("Old", ""),
    );
    now += DAY;
    await cache.put(
      at("60.1.2.9"),
      cidr("60.1.2.0/24"),
      registration("New", ""),
    );
    const found = await cache.lookup(at("60.1.2.200"));
    assertEquals([found?.registration?.org, found?.fetchedAt], ["New", now]);
    assertEquals(await cache.count(), 1);
  });

  test("an answer kept through one connection serves another", async (storage) => {
    const one = storage.cache({ maxAgeDays: 30 });
    const other = storage.cache({ maxAgeDays: 30 });
    await one.put(
      at("60.2.0.1"),
      cidr("60.2.0.0/16"),
      registration("Block", ""),
    );
    assertEquals(
      (await other.lookup(at("60.2.0.77")))?.registration?.org,
      "Block",
    );
  });

  test("RDAP_CACHE_DAYS=0 keeps nothing usable", async (storage) => {
    const cache = storage.cache({ maxAgeDays: 0 });
    assertEquals(
      await cache.put(
        at("60.3.0.1"),
        cidr("60.3.0.0/24"),
        registration("X", ""),
      ),
      true,
    );
    assertEquals(await cache.lookup(at("60.3.0.1")), null);
  });
}
