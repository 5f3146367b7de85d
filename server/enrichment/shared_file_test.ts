import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { shareStrings, stringAt } from "./shared_file.ts";

Deno.test("shared strings come back as they went in, from shared memory", () => {
  const values = ["Google LLC", "", "Société Française du Radiotéléphone", "ü"];
  const shared = shareStrings(values);
  assertEquals(values.map((_, i) => stringAt(shared, i)), values);
  ok(shared.bytes.buffer instanceof SharedArrayBuffer);
  ok(shared.ends.buffer instanceof SharedArrayBuffer);
});
