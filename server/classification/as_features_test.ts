import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { AsnTableData } from "../enrichment/asn_table.ts";
import { shareStrings } from "../enrichment/shared_file.ts";
import { ipv6ToWords } from "../enrichment/ip_input.ts";
import {
  AsFeatureIndex,
  buildAsFeatures,
  type PlaceSource,
} from "./as_features.ts";
import { loadAsFeatures } from "./feature_cache.ts";

// Three ASes: 100 an access network over a /16 in four cities, 200 a county
// in one /24, 300 with one IPv6 /32 only.
const ip = (a: number, b: number, c: number, d: number) =>
  ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
const table: AsnTableData = {
  v4Start: new Uint32Array([ip(10, 0, 0, 0), ip(10, 1, 0, 0)]),
  v4End: new Uint32Array([ip(10, 0, 255, 255), ip(10, 1, 0, 255)]),
  v4Org: new Uint32Array([0, 1]),
  v6Start: new Uint32Array(ipv6ToWords("2001:db8::")),
  v6End: new Uint32Array(ipv6ToWords("2001:db8:ffff:ffff:ffff:ffff:ffff:ffff")),
  v6Org: new Uint32Array([2]),
  asns: new Uint32Array([100, 200, 300]),
  orgs: shareStrings(["Access Net", "County of Example", "V6 Only"]),
  mmdb: [],
};
// 10.0.x.y sits in city x / 64 (samples every 16k addresses find four), in
// region (x / 64) % 2; 10.1/16 in one
// city; IPv6 in Germany.
const places: PlaceSource = {
  place(text, version) {
    if (version === 6) {
      return { country_code: "DE", region: "Berlin", city: "Berlin" };
    }
    const [, b, c] = text.split(".").map(Number);
    if (b === 1) return { country_code: "US", region: "VA", city: "Town" };
    return {
      country_code: "KZ",
      region: `R${(c >> 6) % 2}`,
      city: `C${c >> 6}`,
    };
  },
};

Deno.test("features count space, cities, regions, countries and share", () => {
  const index = new AsFeatureIndex(buildAsFeatures(table, places));
  const access = index.get(100)!;
  assertEquals(access.v4, 65536);
  assertEquals(access.cities, 4);
  assertEquals(access.regions, 2);
  assertEquals(access.countries, 1);
  assertEquals(access.country, "KZ");
  assertEquals(access.countryShare, 1);
  // one range; four cities of equal share; all of it in KZ
  assertEquals([access.ranges, access.topCity, access.home], [1, 0.25, 1]);
  const county = index.get(200)!;
  assertEquals([county.v4, county.cities, county.country], [256, 1, "US"]);
  assertEquals([county.ranges, county.topCity, county.home], [1, 1, 1]);
  const v6 = index.get(300)!;
  assertEquals([v6.v4, v6.v6, v6.cities, v6.country], [0, 65536, 1, ""]);
  assertEquals(index.get(999), null);
  // 16 samples of the /16 (one per 4k), 15 neighbouring pairs, three of
  // them across a city boundary (every 64 /24s); the county's /24 in one
  assertEquals([access.mixed, county.mixed], [0.2, 0]);
  // private and county space lie outside 128-172 and 192
  assertEquals([access.legacy, county.legacy], [0, 0]);
});

Deno.test("features measure early blocks and how far the space spreads", () => {
  // AS 1: 150.1.0.0/16 (early class B space) in a city at 0°N 0°E and one
  // at 0°N 1°E, half each; AS 2: 81.0.0.0/24 in one place.
  const early: AsnTableData = {
    v4Start: new Uint32Array([ip(81, 0, 0, 0), ip(150, 1, 0, 0)]),
    v4End: new Uint32Array([ip(81, 0, 0, 255), ip(150, 1, 255, 255)]),
    v4Org: new Uint32Array([1, 0]),
    v6Start: new Uint32Array(0),
    v6End: new Uint32Array(0),
    v6Org: new Uint32Array(0),
    asns: new Uint32Array([1, 2]),
    orgs: shareStrings(["Early", "Late"]),
    mmdb: [],
  };
  const located: PlaceSource = {
    place(text) {
      const [a, , c] = text.split(".").map(Number);
      const east = a === 150 && c >= 128;
      return {
        country_code: "GH",
        region: "R",
        city: east ? "East" : "West",
        latitude: 0,
        longitude: east ? 1 : 0,
      };
    },
  };
  const index = new AsFeatureIndex(buildAsFeatures(early, located));
  const one = index.get(1)!, two = index.get(2)!;
  assertEquals([one.legacy, two.legacy], [1, 0]);
  // half a degree of longitude at the equator from the centre: 55.6 km
  assertEquals([one.radius, two.radius], [56, 0]);
  // 16 samples, one split among 15 pairs
  assertEquals(one.mixed, 0.0667);
  // the early /16 parts in one pair of 15: an early block in one place
  assertEquals([one.block, two.block], [1, 0]);
});

Deno.test("features: an early /8's block, and how much its cities host data centres", () => {
  // AS 1: 17.0.0.0/16 (a legacy class A /8's space) in one city, "Hub";
  // AS 2: 90.0.0.0/24 in Hub too; AS 3 and 4 hosting companies there;
  // AS 5: 91.0.0.0/24 in a town no hosting company sits in.
  const table: AsnTableData = {
    v4Start: new Uint32Array([
      ip(17, 0, 0, 0),
      ip(90, 0, 0, 0),
      ip(90, 0, 1, 0),
      ip(90, 0, 2, 0),
      ip(91, 0, 0, 0),
    ]),
    v4End: new Uint32Array([
      ip(17, 0, 255, 255),
      ip(90, 0, 0, 255),
      ip(90, 0, 1, 255),
      ip(90, 0, 2, 255),
      ip(91, 0, 0, 255),
    ]),
    v4Org: new Uint32Array([0, 1, 2, 3, 4]),
    v6Start: new Uint32Array(0),
    v6End: new Uint32Array(0),
    v6Org: new Uint32Array(0),
    asns: new Uint32Array([1, 2, 3, 4, 5]),
    orgs: shareStrings([
      "Old Company",
      "Some Shop",
      "Example Hosting",
      "Example Cloud",
      "Town Net",
    ]),
    mmdb: [],
  };
  const located: PlaceSource = {
    place(text) {
      const town = text.startsWith("91.");
      return {
        country_code: "US",
        region: "R",
        city: town ? "Town" : "Hub",
      };
    },
  };
  const index = new AsFeatureIndex(buildAsFeatures(table, located));
  const old = index.get(1)!, shop = index.get(2)!, town = index.get(5)!;
  assertEquals([old.legacy, old.block, shop.block], [1, 1, 0]);
  // Hub: of the three other networks there, two are named hosting (with the
  // overall share, 2 of 5, weighing as five more networks: (2 + 2) / 8);
  // the town has no other network (the overall share alone).
  assertEquals(shop.datacentre, 0.5);
  assertEquals(town.datacentre, 0.4);
  ok(old.datacentre > town.datacentre);
});

Deno.test("features measure range sizes, evenness and how space follows the country's", () => {
  // AS 1: 10.0/16, its first half in city A, its second in B; AS 2: 10.1/16
  // all in A (country XX: A holds 3/4 of its space, B 1/4). AS 3: a /24 and
  // a /23 in country YY.
  const t: AsnTableData = {
    v4Start: new Uint32Array([
      ip(10, 0, 0, 0),
      ip(10, 1, 0, 0),
      ip(11, 0, 0, 0),
      ip(11, 1, 0, 0),
    ]),
    v4End: new Uint32Array([
      ip(10, 0, 255, 255),
      ip(10, 1, 255, 255),
      ip(11, 0, 0, 255),
      ip(11, 1, 1, 255),
    ]),
    v4Org: new Uint32Array([0, 1, 2, 2]),
    v6Start: new Uint32Array(0),
    v6End: new Uint32Array(0),
    v6Org: new Uint32Array(0),
    asns: new Uint32Array([1, 2, 3]),
    orgs: shareStrings(["Split", "Whole", "Two ranges"]),
    mmdb: [],
  };
  const geo: PlaceSource = {
    place(text) {
      const [a, b, c] = text.split(".").map(Number);
      if (a === 11) return { country_code: "YY", region: "R", city: "C" };
      const city = b === 0 && c >= 128 ? "B" : "A";
      return { country_code: "XX", region: "R", city };
    },
  };
  const index = new AsFeatureIndex(buildAsFeatures(t, geo));
  const [split, whole, two] = [index.get(1)!, index.get(2)!, index.get(3)!];
  // one range each; AS 3's largest holds 2/3, sizes (256² + 512²) / 768
  assertEquals([split.largest, split.rangeSize], [1, 65536]);
  assertEquals([two.largest, two.rangeSize], [0.6667, 427]);
  // half and half over two cities: even; one city: 0
  assertEquals([split.evenness, whole.evenness], [1, 0]);
  // AS 1 (1/2, 1/2) against the country's (3/4, 1/4): overlap 3/4, over
  // its cities and the country's alike; AS 2 in A only: its one city is all
  // of its cities' space (1), 3/4 of the country's
  assertEquals([split.tracks, split.covers], [0.75, 0.75]);
  assertEquals([whole.tracks, whole.covers], [1, 0.75]);
});

Deno.test("features count an AS's organisation: its ASes and their share of its country", () => {
  // AS 1 and AS 2 one operator (names differing in legal form only), AS 1
  // in XX over 10.0/16, AS 2 in XX over 10.1.0/24 and AS 3 in YY; AS 4
  // another network in XX (10.2/16).
  const r = (b: number, c = 255) => [ip(10, b, 0, 0), ip(10, b, c, 255)];
  const ranges = [r(0), r(1, 0), r(3, 0), r(2)];
  const t: AsnTableData = {
    v4Start: new Uint32Array(ranges.map(([s]) => s)),
    v4End: new Uint32Array(ranges.map(([, e]) => e)),
    v4Org: new Uint32Array([0, 1, 2, 3]),
    v6Start: new Uint32Array(0),
    v6End: new Uint32Array(0),
    v6Org: new Uint32Array(0),
    asns: new Uint32Array([1, 2, 3, 4]),
    orgs: shareStrings([
      "Example Telecom Ltd",
      "EXAMPLE TELECOM, LLC",
      "Example Telecom",
      "Other",
    ]),
    mmdb: [],
  };
  const geo: PlaceSource = {
    place(text) {
      const b = Number(text.split(".")[1]);
      return { country_code: b === 3 ? "YY" : "XX", region: "R", city: "C" };
    },
  };
  const index = new AsFeatureIndex(buildAsFeatures(t, geo));
  const [main, second, abroad, other] = [1, 2, 3, 4].map((a) => index.get(a)!);
  assertEquals([main.orgAses, second.orgAses, abroad.orgAses], [3, 3, 3]);
  assertEquals(other.orgAses, 1);
  // XX: 65536 + 256 of the operator's and 65536 of the other's
  const share = Math.round((65792 / 131328) * 1e6) / 1e6;
  ok(Math.abs(second.orgShare - share) < 2e-6, `${second.orgShare}`);
  ok(Math.abs(main.orgShare - share) < 2e-6);
  assertEquals([abroad.orgShare, other.orgShare], [1, other.countryShare]);
});

Deno.test("features are cached per database version and rebuilt when it changes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const db = `${dir}/db.csv`;
    const build = () => buildAsFeatures(table, places);
    await Deno.writeTextFile(db, "one");
    const first = await loadAsFeatures(dir, [db], build);
    assertEquals(first.built, true);
    const again = await loadAsFeatures(dir, [db], build);
    assertEquals([again.built, again.path], [false, first.path]);
    assertEquals(again.index.get(100), first.index.get(100));
    await Deno.writeTextFile(db, "a newer, longer version");
    const rebuilt = await loadAsFeatures(dir, [db], build);
    assertEquals(rebuilt.built, true);
    const files = [...Deno.readDirSync(dir)].map((e) => e.name)
      .filter((n) => n.startsWith("as-features-"));
    assertEquals(files, [rebuilt.path.split("/").pop()]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
