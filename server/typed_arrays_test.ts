import {
  deepStrictEqual as assertEquals,
  throws as assertThrows,
} from "node:assert/strict";
import { release, resized } from "./typed_arrays.ts";

Deno.test("resized keeps the values, takes the memory over and zero-fills", () => {
  const ints = Int32Array.of(1, 2, 3);
  const bigger = resized(ints, 5);
  assertEquals([...bigger], [1, 2, 3, 0, 0]);
  assertEquals(ints.length, 0); // its memory is the new array's
  const floats = resized(Float64Array.of(1.5, 2.5, 3.5), 2);
  assertEquals([...floats], [1.5, 2.5]);
  // A view into the middle of a buffer is not its to hand over.
  assertThrows(() => resized(new Uint8Array(8).subarray(2), 4), TypeError);
});

Deno.test("release frees large buffers at once and leaves the rest", () => {
  const large = new Uint8Array(1 << 20).fill(7);
  const view = large.subarray(10, 20);
  const small = new Uint8Array(16).fill(7);
  const shared = new Uint8Array(new SharedArrayBuffer(1 << 20));
  release(large, small, shared);
  assertEquals(large.length, 0);
  assertEquals(view.length, 0);
  assertEquals(large.buffer.detached, true);
  assertEquals(small[0], 7);
  assertEquals(shared.length, 1 << 20);
  release(large); // twice is harmless
});
