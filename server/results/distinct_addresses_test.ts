import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { countDistinct, encodeAddresses } from "./distinct_addresses.ts";

Deno.test("distinct addresses over chunks' lists, each address once", () => {
  const lists = [
    encodeAddresses(new Set(["8.8.8.8", "1.1.1.1", "2001:db8::1"])),
    encodeAddresses(new Set(["8.8.8.8", "81.2.69.142"])),
    encodeAddresses(new Set()),
    encodeAddresses(new Set(["1.1.1.1", "1.1.1.10", "8.8.8.8"])),
  ];
  assertEquals(countDistinct(lists), 5);
  assertEquals(countDistinct([]), 0);
  assertEquals(countDistinct([encodeAddresses(["9.9.9.9"])]), 1);
});

Deno.test("a chunk's addresses are listed once however often its rows repeat them", () => {
  assertEquals(
    new TextDecoder().decode(
      encodeAddresses(["8.8.8.8", "1.1.1.1", "8.8.8.8", "1.1.1.1", "::1"]),
    ),
    "1.1.1.1\n8.8.8.8\n::1\n",
  );
});

Deno.test("distinct addresses: a merge agrees with a set", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const all = new Set<string>();
  const lists: Uint8Array[] = [];
  for (let c = 0; c < 40; c++) {
    const chunk = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const ip = `10.${Math.floor(random() * 4)}.${
        Math.floor(random() * 40)
      }.1`;
      chunk.add(ip);
      all.add(ip);
    }
    // Lines shorter than the part compared first, and prefixes of others.
    for (const ip of ["::", "::1", "1.2.3.4", "1.2.3.40"].slice(c % 4)) {
      chunk.add(ip);
      all.add(ip);
    }
    lists.push(encodeAddresses(chunk));
  }
  assertEquals(countDistinct(lists), all.size);
});

Deno.test("a chunk's addresses are sorted lines in byte order", () => {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = (n: number) => Math.floor(random() * n);
  const addresses = new Set<string>([
    "1.2",
    "1.2.3.4",
    "10.0.0.1",
    "fe80::1%eth0",
    "2001:DB8::1",
  ]);
  for (let i = 0; i < 2000; i++) {
    addresses.add(
      i % 3 === 0
        ? `2a02:${pick(40).toString(16)}::${pick(9)}`
        : `${pick(3) * 100 + pick(3)}.${pick(256)}.${pick(256)}.${pick(256)}`,
    );
  }
  const lines = (set: Set<string>) =>
    new TextDecoder().decode(encodeAddresses(set));
  const expected = (set: Set<string>) => [...set].sort().join("\n") + "\n";
  assertEquals(lines(addresses), expected(addresses));
  // Text other than an address's characters: sorted all the same.
  const odd = new Set([...addresses, "é1", "a b", "1.2\u0000"]);
  assertEquals(lines(odd), expected(odd));
  assertEquals(lines(new Set()), "");
  // One network's addresses: long runs of one prefix.
  const oneNetwork = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    oneNetwork.add(`2a02:8108:${pick(65536).toString(16)}::${pick(4096)}`);
  }
  assertEquals(lines(oneNetwork), expected(oneNetwork));
});
