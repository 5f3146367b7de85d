import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { roughDuration } from "./rough_duration.ts";

Deno.test("waits read as seconds, minutes or hours, rounded up", () => {
  assertEquals(roughDuration(0.2), "1 second");
  assertEquals(roughDuration(45), "45 seconds");
  assertEquals(roughDuration(500), "9 minutes");
  // 10,000 rows at 2 a second.
  assertEquals(roughDuration(10_000 / 2), "84 minutes");
  assertEquals(roughDuration(100_000 / 2), "14 hours");
});
