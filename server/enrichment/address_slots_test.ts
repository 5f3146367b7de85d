import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { AddressSlots } from "./address_slots.ts";

Deno.test("addresses are numbered in order of first sight", () => {
  const slots = new AddressSlots();
  const v4 = [0, 1, 0xffffffff, 0x08080808, 0x80000000, 0x7fffffff];
  for (const [i, n] of v4.entries()) {
    assertEquals(slots.getV4(n), -1);
    assertEquals(slots.addV4(n), i);
  }
  assertEquals(slots.add("2001:db8::1"), v4.length);
  for (const [i, n] of v4.entries()) assertEquals(slots.getV4(n), i);
  assertEquals(slots.get("2001:db8::1"), v4.length);
  assertEquals(slots.get("2001:db8::2"), -1);
  assertEquals(slots.size, v4.length + 1);
  slots.clear();
  assertEquals(slots.size, 0);
  assertEquals(slots.getV4(0), -1);
  assertEquals(slots.addV4(0x08080808), 0);
});

Deno.test("the table grows and keeps every number", () => {
  const slots = new AddressSlots();
  // Neighbouring addresses and a stride that collides in a small table.
  const keys: number[] = [];
  for (let i = 0; i < 100_000; i++) {
    keys.push(i % 2 ? (0x0a000000 + i) >>> 0 : (i * 65536) >>> 0);
  }
  const unique = [...new Set(keys)];
  for (const n of unique) {
    if (slots.getV4(n) < 0) slots.addV4(n);
  }
  assertEquals(slots.size, unique.length);
  assertEquals(unique.every((n, i) => slots.getV4(n) === i), true);
  assertEquals(slots.getV4(0x0a000002), -1);
});
