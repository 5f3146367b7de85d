// MaxMind's valid GeoIP2 City and GeoLite2 ASN test databases, read through
// the providers as GEO_DB / ASN_DB would, answer exactly what the JSON they
// were written from says (tests/fixtures/mmdb/source-data), for the first and
// last address of every network in it.
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { AsnTable, loadAsnTable } from "../server/enrichment/asn_table.ts";
import {
  type GeoFields,
  GeoProvider,
  loadGeoDatabases,
} from "../server/enrichment/geo_provider.ts";

const FIXTURES = new URL("./fixtures/mmdb/", import.meta.url).pathname;

type Entry = Record<string, Record<string, unknown>>;
const source = (name: string): [string, Record<string, unknown>][] =>
  (JSON.parse(
    Deno.readTextFileSync(`${FIXTURES}source-data/${name}`),
  ) as Entry[]).map((entry) => Object.entries(entry)[0]);

/** An address as a 128-bit number (IPv4 inside ::/96, as the tree has it). */
function toBig(ip: string): bigint {
  if (!ip.includes(":")) {
    return ip.split(".").reduce((n, part) => (n << 8n) | BigInt(part), 0n);
  }
  let [head, tail] = ip.split("::");
  const v4 = (tail ?? head).match(/(\d+\.\d+\.\d+\.\d+)$/);
  const words = (s: string) =>
    s ? s.split(":").filter((w) => !w.includes(".")) : [];
  if (v4) {
    const n = toBig(v4[1]);
    const hex = [(n >> 16n).toString(16), (n & 0xffffn).toString(16)];
    if (tail === undefined) head = [...words(head), ...hex].join(":");
    else tail = [...words(tail), ...hex].join(":");
  }
  const front = words(head);
  const back = tail === undefined ? [] : words(tail);
  const all = [
    ...front,
    ...Array(8 - front.length - back.length).fill("0"),
    ...back,
  ];
  return all.reduce((n, w) => (n << 16n) | BigInt(parseInt(w, 16)), 0n);
}

function fromBig(n: bigint, v4: boolean): string {
  if (v4) return [24n, 16n, 8n, 0n].map((s) => (n >> s) & 255n).join(".");
  const words = [];
  for (let s = 112n; s >= 0n; s -= 16n) {
    words.push(((n >> s) & 0xffffn).toString(16));
  }
  return words.join(":");
}

interface Network {
  first: bigint;
  last: bigint;
  v4: boolean;
  data: Record<string, unknown>;
}

/** Networks in the writer's order: a later network replaces an earlier one. */
function networks(name: string): Network[] {
  return source(name).map(([cidr, data]) => {
    const [ip, bits] = cidr.split("/");
    // "::214.0.0.0/120" is an IPv4 network inside ::/96.
    const mapped = ip.startsWith("::") && ip.includes(".");
    const v4 = !ip.includes(":") || mapped;
    const width = v4 ? 32 : 128;
    const prefix = Number(bits) - (mapped ? 96 : 0);
    const first = toBig(mapped ? ip.slice(2) : ip);
    const size = 1n << BigInt(width - prefix);
    return { first, last: first + size - 1n, v4, data };
  });
}

function expected(all: Network[], v4: boolean, n: bigint) {
  let found: Record<string, unknown> | null = null;
  for (const net of all) {
    if (net.v4 === v4 && net.first <= n && n <= net.last) found = net.data;
  }
  return found;
}

// deno-lint-ignore no-explicit-any
function cityFields(data: any): GeoFields {
  return {
    country_code: data.country?.iso_code ?? null,
    region: data.subdivisions?.[0]?.names?.en ?? null,
    city: data.city?.names?.en ?? null,
    latitude: data.location?.latitude ?? null,
    longitude: data.location?.longitude ?? null,
  };
}

Deno.test("GeoIP2 City test database answers as its source data", async () => {
  const geo = new GeoProvider(
    await loadGeoDatabases([`${FIXTURES}test-data/GeoIP2-City-Test.mmdb`]),
  );
  const all = networks("GeoIP2-City-Test.json");
  let checked = 0;
  for (const net of all) {
    for (const n of [net.first, net.last]) {
      const data = expected(all, net.v4, n);
      const ip = fromBig(n, net.v4);
      const got = geo.lookup(ip, net.v4 ? 4 : 6);
      assertEquals(got, data ? cityFields(data) : null, ip);
      checked++;
    }
  }
  ok(checked > 400, `${checked} addresses`);
  // Spot checks, written out: the values a reader sees.
  assertEquals(geo.lookup("81.2.69.160", 4), {
    country_code: "GB",
    region: "England",
    city: "London",
    latitude: 51.5142,
    longitude: -0.0931,
  });
  assertEquals(geo.lookup("216.160.83.56", 4)?.city, "Milton");
  assertEquals(geo.lookup("2001:218::1", 6)?.country_code, "JP");
});

Deno.test("GeoLite2 ASN test database answers as its source data", async () => {
  const table = new AsnTable(
    await loadAsnTable([`${FIXTURES}test-data/GeoLite2-ASN-Test.mmdb`]),
  );
  const all = networks("GeoLite2-ASN-Test.json");
  let checked = 0;
  for (const net of all) {
    for (const n of [net.first, net.last]) {
      const data = expected(all, net.v4, n);
      const ip = fromBig(n, net.v4);
      assertEquals(
        table.lookup(ip, net.v4 ? 4 : 6),
        data
          ? {
            asn: data.autonomous_system_number,
            org: data.autonomous_system_organization ?? "",
          }
          : null,
        ip,
      );
      checked++;
    }
  }
  ok(checked > 1000, `${checked} addresses`);
  assertEquals(table.lookup("1.0.0.1", 4), { asn: 15169, org: "Google Inc." });
});
