// The search tree walked for each record size the format has, on trees
// deeper than the steps a lookup takes at once (see MmdbDatabase).
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { encode } from "../../tests/helpers/mmdb_writer.ts";
import { MmdbDatabase } from "./mmdb_database.ts";

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

for (const recordSize of [24, 28, 32]) {
  Deno.test(`${recordSize}-bit records: networks shorter and longer than 16 bits`, () => {
    const v4 = new MmdbDatabase(treeFile(4, recordSize, [
      [bitsOf([0x01020300], 28), "1.2.3.0/28"],
      [bitsOf([0x01020310], 32), "1.2.3.16"],
      [bitsOf([0xc0000000], 4), "192.0.0.0/4"],
    ]));
    assertEquals(answer(v4, [0x01020300]), "1.2.3.0/28");
    assertEquals(answer(v4, [0x0102030f]), "1.2.3.0/28");
    assertEquals(answer(v4, [0x01020310]), "1.2.3.16");
    assertEquals(answer(v4, [0x01020311]), null);
    assertEquals(answer(v4, [0xcafe0001]), "192.0.0.0/4");
    assertEquals(answer(v4, [0xd0000000]), null);
    assertEquals(answer(v4, [0x20010db8, 0, 0, 1]), null);
    const v6 = new MmdbDatabase(treeFile(6, recordSize, [
      [bitsOf([0x20010db8, 0x00010000], 48), "2001:db8:1::/48"],
      [bitsOf([0, 0, 0, 0x01020300], 120), "1.2.3.0/24 under ::/96"],
    ]));
    assertEquals(answer(v6, [0x20010db8, 0x0001ffff, 5, 6]), "2001:db8:1::/48");
    assertEquals(answer(v6, [0x20010db8, 0x00020000, 0, 0]), null);
    assertEquals(answer(v6, [0x010203ff]), "1.2.3.0/24 under ::/96");
    assertEquals(answer(v6, [0x01020400]), null);
  });
}
