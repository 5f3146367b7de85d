// The address ranges made from a search tree give every address the record
// the tree gives it: for each record size the format has, for trees deeper
// than the first 16 bits, for MaxMind's test files (IPv4 under ::/96 and
// the aliases pointing there) and for the bundled DB-IP files, checked at
// the first and last address of every network the tree holds and at random
// addresses against a walk of the tree bit by bit.
import {
  deepStrictEqual as assertEquals,
  ok as assert,
} from "node:assert/strict";
import { encode } from "../../tests/helpers/mmdb_writer.ts";
import { MmdbDatabase, readMmdb } from "./mmdb_database.ts";
import { readMetadata } from "./mmdb_metadata.ts";
import { SearchTree } from "./mmdb_tree.ts";
import { AddressRanges } from "./mmdb_ranges.ts";
import { bundledDir, GEO_PACKAGE } from "../databases/bundled.ts";

/** A prefix as bits, most significant first, and the string it holds. */
type Network = [bits: number[], value: string];

const bitsOf = (words: number[], length: number): number[] =>
  Array.from({ length }, (_, i) => (words[i >> 5] >>> (31 - (i & 31))) & 1);

/**
 * An MMDB file holding `networks` with records of `recordSize` bits, its
 * data after `gap` unused bytes (records of 2 ** 24 and more use the 28-bit
 * record's shared byte).
 */
function treeFile(
  ipVersion: 4 | 6,
  recordSize: number,
  networks: Network[],
  gap = recordSize === 24 ? 0 : 2 ** 24,
) {
  // A trie of the prefixes: per node its two records, -1 for no data, or
  // -2 - i for the data of network i.
  const nodes: [number, number][] = [[-1, -1]];
  networks.forEach(([bits], i) => {
    let node = 0;
    bits.forEach((bit, depth) => {
      if (depth === bits.length - 1) nodes[node][bit] = -2 - i;
      else {
        if (nodes[node][bit] < 0) nodes[node][bit] = nodes.push([-1, -1]) - 1;
        node = nodes[node][bit];
      }
    });
  });
  const data = networks.map(([, value]) => encode(value));
  const offsets = data.map((_, i) =>
    data.slice(0, i).reduce((n, d) => n + d.length, 0)
  );
  const count = nodes.length;
  const value = (r: number) =>
    r === -1 ? count : r < -1 ? count + 16 + gap + offsets[-2 - r] : r;
  const bytes = (n: number, size: number) =>
    Array.from({ length: size }, (_, k) => (n >>> (8 * (size - 1 - k))) & 255);
  const tree = nodes.flatMap(([l, r]) => {
    const [left, right] = [value(l), value(r)];
    if (recordSize === 28) {
      const [a, b] = [bytes(left, 4), bytes(right, 4)];
      return [a[1], a[2], a[3], (a[0] << 4) | b[0], b[1], b[2], b[3]];
    }
    return [...bytes(left, recordSize / 8), ...bytes(right, recordSize / 8)];
  });
  const metadata = encode({
    binary_format_major_version: { uint: 2 },
    binary_format_minor_version: { uint: 0 },
    build_epoch: { uint: 1_700_000_000 },
    database_type: "Test",
    description: { en: "a deep tree" },
    ip_version: { uint: ipVersion },
    languages: ["en"],
    node_count: { uint: count },
    record_size: { uint: recordSize },
  });
  const head = [...tree, ...new Array(16).fill(0)];
  const tail = [
    ...data.flat(),
    0xab,
    0xcd,
    0xef,
    ...new TextEncoder().encode("MaxMind.com"),
    ...metadata,
  ];
  const file = new Uint8Array(head.length + gap + tail.length);
  file.set(head);
  file.set(tail, head.length + gap);
  return file;
}

const answer = (db: MmdbDatabase, words: number[]) => {
  const record = db.recordOf(words);
  return record === 0 ? null : db.decodeRecord(record);
};

/**
 * An address's record by the tree, walked bit by bit from the root (from
 * where IPv4 starts, for one word), as a range value: the tree's record
 * less node_count, any record past the data section as one; 0 for none.
 */
function walked(tree: SearchTree, words: ArrayLike<number>): number {
  if (words.length === 4 && tree.bits === 32) return 0;
  const { nodeCount, metadata } = tree;
  let node = words.length === 1 ? tree.ipv4Start() : 0;
  for (let i = 0; i < 32 * words.length && node < nodeCount; i++) {
    node = tree.child(node, (words[i >> 5] >>> (31 - (i & 31))) & 1);
  }
  if (node <= nodeCount) return 0;
  return Math.min(node - nodeCount, metadata.dataEnd - metadata.dataStart + 16);
}

/**
 * Calls `visit` with the first and last address (as `words` 32-bit words)
 * of every network under `start`, and the record the tree gives it.
 */
function eachNetwork(
  tree: SearchTree,
  start: number,
  words: number,
  visit: (first: Uint32Array, last: Uint32Array, record: number) => void,
) {
  const path = new Uint32Array(words);
  const last = new Uint32Array(words);
  const descend = (node: number, depth: number) => {
    if (node >= tree.nodeCount || depth === 32 * words) {
      for (let w = 0; w < words; w++) {
        const taken = Math.min(32, Math.max(0, depth - 32 * w));
        last[w] = (path[w] | (taken === 32 ? 0 : 0xffffffff >>> taken)) >>> 0;
      }
      const { nodeCount, metadata } = tree;
      const record = node <= nodeCount ? 0 : Math.min(
        node - nodeCount,
        metadata.dataEnd - metadata.dataStart + 16,
      );
      visit(path, last, record);
      return;
    }
    const bit = 1 << (31 - (depth & 31));
    descend(tree.child(node, 0), depth + 1);
    path[depth >> 5] |= bit;
    descend(tree.child(node, 1), depth + 1);
    path[depth >> 5] &= ~bit;
  };
  descend(start, 0);
}

/**
 * Checks a file's ranges against its tree: every network's first and last
 * address, `random` random addresses of each family the file has, and IPv4
 * addresses as an IPv6 file holds them (::a.b.c.d, ::ffff:a.b.c.d,
 * 2002:aabb:ccdd::); the number of networks checked.
 */
function sameAsTree(bytes: Uint8Array, random: number): number {
  const tree = new SearchTree(bytes, readMetadata(bytes));
  const ranges = new AddressRanges(readMmdb(bytes, false).ranges);
  let networks = 0;
  const check = (words: ArrayLike<number>) => {
    const expected = walked(tree, words);
    const found = ranges.recordOf(words);
    if (found !== expected) {
      assertEquals(
        { address: Array.from(words, (w) => w.toString(16)), found },
        { address: Array.from(words, (w) => w.toString(16)), found: expected },
      );
    }
  };
  const starts: [number, number][] = [[tree.ipv4Start(), 1]];
  if (tree.bits === 128) starts.push([0, 4]);
  for (const [start, words] of starts) {
    if (start >= tree.nodeCount) continue;
    eachNetwork(tree, start, words, (first, last, record) => {
      networks++;
      for (const address of [first, last]) {
        const found = ranges.recordOf(address);
        if (found !== record) check(address);
        assertEquals(found, record);
      }
    });
  }
  let seed = 33;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  for (let i = 0; i < random; i++) {
    const v4 = next();
    check([v4]);
    if (tree.bits === 32) continue;
    check([0, 0, 0, v4]);
    check([0, 0, 0xffff, v4]);
    check([0x20020000 | (v4 >>> 16), (v4 << 16) >>> 0, 0, 0]);
    check([next(), next(), next(), next()]);
    // Most of the IPv6 space is unallocated: addresses from 2000::/4 too.
    check([0x20000000 | (next() & 0x0fffffff), next(), next(), next()]);
  }
  return networks;
}

for (const recordSize of [24, 28, 32]) {
  Deno.test(`${recordSize}-bit records: networks shorter and longer than 16 bits`, () => {
    const v4 = new MmdbDatabase(readMmdb(treeFile(4, recordSize, [
      [bitsOf([0x01020300], 28), "1.2.3.0/28"],
      [bitsOf([0x01020310], 32), "1.2.3.16"],
      [bitsOf([0xc0000000], 4), "192.0.0.0/4"],
    ])));
    assertEquals(answer(v4, [0x01020300]), "1.2.3.0/28");
    assertEquals(answer(v4, [0x0102030f]), "1.2.3.0/28");
    assertEquals(answer(v4, [0x01020310]), "1.2.3.16");
    assertEquals(answer(v4, [0x01020311]), null);
    assertEquals(answer(v4, [0xcafe0001]), "192.0.0.0/4");
    assertEquals(answer(v4, [0xd0000000]), null);
    assertEquals(answer(v4, [0x20010db8, 0, 0, 1]), null);
    const v6 = new MmdbDatabase(readMmdb(treeFile(6, recordSize, [
      [bitsOf([0x20010db8, 0x00010000], 48), "2001:db8:1::/48"],
      [bitsOf([0, 0, 0, 0x01020300], 120), "1.2.3.0/24 under ::/96"],
    ])));
    assertEquals(answer(v6, [0x20010db8, 0x0001ffff, 5, 6]), "2001:db8:1::/48");
    assertEquals(answer(v6, [0x20010db8, 0x00020000, 0, 0]), null);
    assertEquals(answer(v6, [0x010203ff]), "1.2.3.0/24 under ::/96");
    assertEquals(answer(v6, [0x01020400]), null);
  });
}

/** Networks of `count` random prefixes, `bits` long at most. */
function randomNetworks(words: number, count: number, seed: number) {
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  return Array.from({ length: count }, (_, i): Network => {
    const address = Array.from({ length: words }, next);
    const length = 1 + (next() % (32 * words));
    return [bitsOf(address, length), `network ${i}`];
  });
}

for (const recordSize of [24, 28, 32]) {
  Deno.test(`${recordSize}-bit records: the ranges give every address the tree's record`, () => {
    // Later prefixes inside earlier ones split them: networks at every depth.
    assert(
      sameAsTree(
        treeFile(4, recordSize, randomNetworks(1, 300, recordSize)),
        2000,
      ) > 100,
    );
    assert(
      sameAsTree(
        treeFile(6, recordSize, randomNetworks(4, 300, recordSize)),
        2000,
      ) > 100,
    );
  });
}

Deno.test("MaxMind's test files: IPv4 under ::/96 and the aliases to it", () => {
  const dir = new URL("../../tests/fixtures/mmdb/test-data/", import.meta.url);
  const read = (name: string) => Deno.readFileSync(new URL(name, dir));
  for (
    const name of ["GeoIP2-City-Test", "GeoIP2-ISP-Test", "GeoLite2-ASN-Test"]
  ) {
    assert(sameAsTree(read(`${name}.mmdb`), 20_000) > 100, name);
  }
  // An IPv4 address, and the three ways an IPv6 file holds it.
  const db = new MmdbDatabase(readMmdb(read("GeoIP2-City-Test.mmdb")));
  const v4 = 0x510245a0; // 81.2.69.160
  const record = db.recordOf([v4]);
  const city = db.decodeRecord(record) as { city: { names: { en: string } } };
  assertEquals(city.city.names.en, "London");
  assertEquals(db.recordOf([0, 0, 0, v4]), record);
  assertEquals(db.recordOf([0, 0, 0xffff, v4]), record);
  assertEquals(db.recordOf([0x20025102, 0x45a00000, 0, 0]), record);
});

Deno.test("the bundled DB-IP files: the ranges give every address the tree's record", () => {
  for (const name of GEO_PACKAGE.files) {
    const bytes = Deno.readFileSync(`${bundledDir(GEO_PACKAGE)}/${name}`);
    assert(sameAsTree(bytes, 100_000) > 1_000_000, name);
  }
});
