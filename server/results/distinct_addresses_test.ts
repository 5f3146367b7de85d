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
    lists.push(encodeAddresses(chunk));
  }
  assertEquals(countDistinct(lists), all.size);
});
