// The bundled ASN table's indexed searches answer as a plain binary search
// over every range does.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ASN_PATHS } from "../../eval/bundled.ts";
import { seededRandom } from "../../bench/generate.ts";
import { AsnTable, loadAsnTable } from "./asn_table.ts";
import { addressWords, ipv6ToWords } from "./ip_input.ts";

const data = await loadAsnTable(ASN_PATHS);
const table = new AsnTable(data);

/** The last range starting at or before `words`, if it holds them. */
function plainSearch(
  start: Uint32Array,
  end: Uint32Array,
  org: Uint32Array,
  words: number[],
): number {
  const width = words.length;
  const compare = (a: Uint32Array, i: number) => {
    for (let k = 0; k < width; k++) {
      const d = a[i * width + k] - words[k];
      if (d !== 0) return d;
    }
    return 0;
  };
  let lo = 0, hi = org.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(start, mid) <= 0) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 && compare(end, found) >= 0 ? org[found] : -1;
}

const MAX128 = (1n << 128n) - 1n;

function toWords(n: bigint): number[] {
  return [96n, 64n, 32n, 0n].map((s) => Number((n >> s) & 0xffffffffn));
}

function fromWords(a: Uint32Array, i: number): bigint {
  let n = 0n;
  for (let k = 0; k < 4; k++) n = (n << 32n) | BigInt(a[i * 4 + k]);
  return n;
}

Deno.test("IPv6 searches by block answer as a search of every range", () => {
  const { v6Start, v6End, v6Org } = data;
  const random = seededRandom(6);
  const word = () => Math.floor(random() * 2 ** 32);
  const addresses: bigint[] = [];
  for (let i = 0; i < v6Org.length; i++) {
    const start = fromWords(v6Start, i), end = fromWords(v6End, i);
    addresses.push(start, end, start - 1n, end + 1n);
    // Somewhere inside, and the edges of the blocks around it.
    addresses.push(start + (end - start) / 2n);
    const block = start >> 112n << 112n;
    addresses.push(block, block - 1n, block + (1n << 112n) - 1n);
  }
  for (let i = 0; i < 200_000; i++) {
    const n = (BigInt(word()) << 96n) | (BigInt(word()) << 64n) |
      (BigInt(word()) << 32n) | BigInt(word());
    // Anywhere, and within the allocated 2000::/4.
    addresses.push(n, (2n << 124n) | (n >> 4n));
  }
  let found = 0;
  for (const n of addresses) {
    if (n < 0n || n > MAX128) continue;
    const words = toWords(n);
    const expected = plainSearch(v6Start, v6End, v6Org, words);
    assertEquals(table.indexOf(words), expected, n.toString(16));
    if (expected >= 0) found++;
  }
  // Most of them are in some range: the comparison covers real answers.
  assertEquals(found > v6Org.length * 3, true, `${found} found`);
});

Deno.test("IPv4 searches by block answer as a search of every range", () => {
  const { v4Start, v4End, v4Org } = data;
  const random = seededRandom(4);
  const addresses: number[] = [];
  for (let i = 0; i < v4Org.length; i += 7) {
    addresses.push(v4Start[i], v4End[i], v4Start[i] - 1, v4End[i] + 1);
  }
  for (let i = 0; i < 200_000; i++) {
    addresses.push(Math.floor(random() * 2 ** 32));
  }
  for (const n of addresses) {
    if (n < 0 || n >= 2 ** 32) continue;
    assertEquals(
      table.indexOf([n]),
      plainSearch(v4Start, v4End, v4Org, [n]),
      String(n),
    );
  }
});

Deno.test("an address's text and its words find the same organisation", () => {
  const ip = "2a00:1450:4001:82a::200e";
  const index = table.indexOf(ipv6ToWords(ip));
  assertEquals(index >= 0, true);
  assertEquals(table.lookup(ip, 6), table.info(index));
  assertEquals(
    table.lookup("8.8.8.8", 4),
    table.info(table.indexOf(addressWords("8.8.8.8", 4))),
  );
});
