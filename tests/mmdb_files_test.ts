// MMDB files given through GEO_DB / ASN_DB, tried with MaxMind's own reader
// test files (tests/fixtures/mmdb, see its README): every corrupt file is
// refused when opened with one line naming it and what is wrong, a record
// that cannot be decoded at lookup time is a clear error and no value, and
// the valid City and ASN test files answer as MaxMind's source data says.
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { AsnTable, loadAsnTable } from "../server/enrichment/asn_table.ts";
import { shareStrings } from "../server/enrichment/shared_file.ts";
import {
  CORRUPT_RECORD,
  GeoProvider,
  loadGeoDatabases,
} from "../server/enrichment/geo_provider.ts";
import { composeEnrichment } from "../server/enrichment/compose.ts";
import { ALL_OPTIONS, errorText } from "../server/enrichment/types.ts";
import {
  MmdbDatabase,
  MmdbError,
  readMmdb,
} from "../server/enrichment/mmdb_database.ts";
import { fromBig, networks } from "./helpers/mmdb_source.ts";
import { writeMmdb } from "./helpers/mmdb_writer.ts";
import { serverCommand } from "./helpers/server.ts";

const FIXTURES = new URL("./fixtures/mmdb/", import.meta.url).pathname;
const read = (name: string) => Deno.readFileSync(FIXTURES + name);
/** A file as the providers read it, without the open check. */
const unchecked = (name: string) => readMmdb(read(name), false);

/** Each corrupt file and what the one line must say is wrong with it. */
const CORRUPT: Record<string, RegExp> = {
  "bad-data/libmaxminddb/libmaxminddb-corrupt-search-tree.mmdb":
    /only 1 of the 100 search tree nodes are reachable/,
  "bad-data/libmaxminddb/libmaxminddb-deep-array-nesting.mmdb":
    /nested deeper than 512 levels/,
  "bad-data/libmaxminddb/libmaxminddb-deep-nesting.mmdb":
    /nested deeper than 512 levels/,
  "bad-data/libmaxminddb/libmaxminddb-metadata-marker-only.mmdb":
    /runs past the end/,
  "bad-data/libmaxminddb/libmaxminddb-offset-integer-overflow.mmdb":
    /pointer \(\d+\) points outside the data section/,
  "bad-data/libmaxminddb/libmaxminddb-oversized-array.mmdb":
    /claims 1000000 entries/,
  "bad-data/libmaxminddb/libmaxminddb-oversized-map.mmdb":
    /claims 1000000 entries/,
  "bad-data/libmaxminddb/libmaxminddb-separator-record-max-left.mmdb":
    /points into the 16 bytes between tree and data/,
  "bad-data/libmaxminddb/libmaxminddb-separator-record-min-left.mmdb":
    /points into the 16 bytes between tree and data/,
  "bad-data/libmaxminddb/libmaxminddb-separator-record-min-right.mmdb":
    /points into the 16 bytes between tree and data/,
  "bad-data/libmaxminddb/libmaxminddb-uint64-max-epoch.mmdb":
    /build_epoch 18446744073709551615 is not a date/,
  "bad-data/maxminddb-golang/cyclic-data-structure.mmdb": /runs past the end/,
  "bad-data/maxminddb-golang/invalid-bytes-length.mmdb":
    /claims 9 entries, more than its section holds/,
  "bad-data/maxminddb-golang/invalid-data-record-offset.mmdb":
    /string is not valid UTF-8/,
  "bad-data/maxminddb-golang/invalid-map-key-length.mmdb": /runs past the end/,
  "bad-data/maxminddb-golang/invalid-string-length.mmdb": /runs past the end/,
  "bad-data/maxminddb-golang/metadata-is-an-uint128.mmdb":
    /uint128 of 2 bytes runs past the end/,
  "bad-data/maxminddb-golang/unexpected-bytes.mmdb": /runs past the end/,
  "bad-data/maxminddb-python/bad-unicode-in-map-key.mmdb":
    /16 zero bytes between search tree and data are not zero/,
  "test-data/GeoIP2-City-Test-Broken-Double-Format.mmdb":
    /a double of 5 bytes \(must be 8\)/,
  "test-data/GeoIP2-City-Test-Invalid-Node-Count.mmdb":
    /node_count 100000 needs a 700000-byte search tree/,
  "test-data/MaxMind-DB-test-broken-pointers-24.mmdb":
    /pointer \(1000000\) points outside the data section/,
  "test-data/MaxMind-DB-test-broken-search-tree-24.mmdb":
    /the search tree loops/,
};

/**
 * Two files of bad-data/ are well-formed: they exposed a libmaxminddb bug
 * reading an empty array or map at the very end of the metadata.
 */
const WELL_FORMED = [
  "bad-data/libmaxminddb/libmaxminddb-empty-array-last-in-metadata.mmdb",
  "bad-data/libmaxminddb/libmaxminddb-empty-map-last-in-metadata.mmdb",
];

Deno.test("every file of bad-data/ is either refused or well-formed", () => {
  const listed = new Set([...Object.keys(CORRUPT), ...WELL_FORMED]);
  for (const dir of ["libmaxminddb", "maxminddb-golang", "maxminddb-python"]) {
    for (const entry of Deno.readDirSync(`${FIXTURES}bad-data/${dir}`)) {
      assert(listed.has(`bad-data/${dir}/${entry.name}`), entry.name);
    }
  }
  assertEquals(listed.size, 23 + 2);
});

for (const [name, reason] of Object.entries(CORRUPT)) {
  Deno.test(`refused when opened: ${name}`, async () => {
    const path = FIXTURES + name;
    for (const load of [loadGeoDatabases, loadAsnTable]) {
      const error = await load([path]).then(
        () => new Error("accepted"),
        (error: Error) => error,
      );
      assertEquals(error.message.split("\n").length, 1, error.message);
      assert(
        error.message.startsWith(`${path} cannot be read as a MaxMind DB file`),
        error.message,
      );
      assertMatch(error.message, reason);
    }
  });
}

for (const name of WELL_FORMED) {
  Deno.test(`accepted, answers what it holds: ${name}`, async () => {
    const [file] = await loadGeoDatabases([FIXTURES + name]);
    const database = new MmdbDatabase(file);
    assertEquals(database.decodeRecord(database.recordOf([0x01010101])), {
      ip: "test",
    });
    // {"ip": "test"} has no place fields: a place of nothing, no error.
    const place = new GeoProvider([file]).place("1.1.1.1", 4);
    assertEquals(place?.error, undefined);
    assertEquals(place?.city, null);
  });
}

// The lookup-time guard, for records the open check's sample did not reach:
// corrupt files given to the providers without the check.
Deno.test("a record that cannot be decoded is a row error, not a value", () => {
  const geo = new GeoProvider([
    unchecked("test-data/GeoIP2-City-Test-Broken-Double-Format.mmdb"),
  ]);
  const london = geo.place("81.2.69.160", 4)!;
  assert(london.error?.startsWith(CORRUPT_RECORD), london.error);
  assertMatch(london.error!, /a double of \d bytes \(must be 8\)/);
  assertEquals([london.latitude, london.longitude], [null, null]);
  assertEquals(london.city, null);
  assertEquals(geo.lookup("81.2.69.160", 4)?.latitude, null);
  // The row says why, in words, and shows no value.
  const row = composeEnrichment("81.2.69.160", {
    place: london,
    network: null,
  }, ALL_OPTIONS);
  assertEquals(row.success, false);
  assertEquals(row.failure?.kind, "corrupt_record");
  assertMatch(errorText(row, "job")!, /a double of \d bytes/);

  const pointers = new GeoProvider([
    unchecked("test-data/MaxMind-DB-test-broken-pointers-24.mmdb"),
  ]);
  assertEquals(pointers.place("1.1.1.1", 4)?.error, undefined);
  assertMatch(pointers.place("1.1.1.32", 4)!.error!, /points past the end/);

  const asn = new AsnTable({
    v4Start: new Uint32Array(),
    v4End: new Uint32Array(),
    v4Org: new Uint32Array(),
    v6Start: new Uint32Array(),
    v6End: new Uint32Array(),
    v6Org: new Uint32Array(),
    asns: new Uint32Array(),
    orgs: shareStrings([]),
    mmdb: [unchecked("bad-data/libmaxminddb/libmaxminddb-oversized-map.mmdb")],
  });
  assertEquals(asn.lookup("1.1.1.1", 4), null);
});

Deno.test("coordinates out of range or of the wrong type are refused", () => {
  for (
    const location of [{ latitude: 123.5, longitude: 0 }, {
      latitude: 10,
      longitude: "east",
    }]
  ) {
    const bytes = writeMmdb({ low: { location, country: { iso_code: "GB" } } });
    const place = new GeoProvider([readMmdb(bytes)]).place("1.2.3.4", 4)!;
    assert(place.error?.startsWith(CORRUPT_RECORD), place.error);
    assertEquals([place.latitude, place.country_code], [null, null]);
  }
  const good = writeMmdb({
    low: { location: { latitude: -33.5, longitude: 151.25 } },
  });
  assertEquals(
    new GeoProvider([readMmdb(good)]).lookup("1.2.3.4", 4)?.latitude,
    -33.5,
  );
});

Deno.test("the server refuses a corrupt GEO_DB with one line and exit 1", async () => {
  const path = FIXTURES +
    "test-data/GeoIP2-City-Test-Broken-Double-Format.mmdb";
  const dataDir = await Deno.makeTempDir({ prefix: "ipenrich-mmdb-" });
  try {
    const { code, stdout, stderr } = await serverCommand(dataDir, {
      GEO_DB: path,
      ASN_DB: FIXTURES + "test-data/GeoLite2-ASN-Test.mmdb",
    }).output();
    const lines = new TextDecoder().decode(stderr).split("\n").filter(Boolean);
    assertEquals(code, 1);
    assertEquals(lines, [
      `error: ${path} cannot be read as a MaxMind DB file: ` +
      "a double of 5 bytes (must be 8)",
    ]);
    assertEquals(new TextDecoder().decode(stdout), "");
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

// Bytes flipped at random (seeded) in the valid City file: each copy is
// refused with an MmdbError or answers every lookup with a place, nothing,
// or a row error; never another exception or an impossible value.
Deno.test("randomly damaged City files are refused or answer safely", () => {
  const original = read("test-data/GeoIP2-City-Test.mmdb");
  const addresses = networks("GeoIP2-City-Test.json").map((net) =>
    [fromBig(net.first, net.v4), net.v4 ? 4 : 6] as const
  );
  let seed = 15;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  let refused = 0;
  for (let copy = 0; copy < 300; copy++) {
    const bytes = original.slice();
    for (let flips = 1 + Math.floor(random() * 4); flips > 0; flips--) {
      bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
    }
    let file;
    try {
      file = readMmdb(bytes);
    } catch (error) {
      assert(error instanceof MmdbError, String(error));
      refused++;
      continue;
    }
    const geo = new GeoProvider([file]);
    for (const [ip, version] of addresses) {
      const place = geo.place(ip, version);
      if (place?.error) assert(place.error.startsWith(CORRUPT_RECORD));
      assert(place?.latitude == null || Math.abs(place.latitude) <= 90);
      assert(place?.longitude == null || Math.abs(place.longitude) <= 180);
    }
  }
  assert(refused > 0 && refused < 300, `${refused} refused`);
});
