import assert from "node:assert/strict";
import {
  estimateRemaining,
  formatBytes,
  formatDate,
  formatDuration,
  formatLocation,
  formatTimeOfDay,
  orDash,
  percentOf,
  secondsBetween,
} from "./format.ts";

Deno.test("formatDate reads like 'MMM d, yyyy h:mm a'", () => {
  const local = new Date(2024, 0, 5, 14, 7).toISOString();
  assert.equal(formatDate(local), "Jan 5, 2024 2:07 PM");
  const midnight = new Date(2024, 11, 31, 0, 30).toISOString();
  assert.equal(formatDate(midnight), "Dec 31, 2024 12:30 AM");
  assert.equal(formatDate(null), "N/A");
  assert.equal(formatDate("not a date"), "N/A");
});

Deno.test("formatTimeOfDay gives hh:mm:ss or N/A", () => {
  assert.equal(
    formatTimeOfDay(new Date(2024, 0, 5, 9, 3, 7).toISOString()),
    "09:03:07",
  );
  assert.equal(formatTimeOfDay(null), "N/A");
});

Deno.test("durations are mm:ss", () => {
  assert.equal(formatDuration(0), "00:00");
  assert.equal(formatDuration(75.9), "01:15");
  assert.equal(formatDuration(3725), "62:05");
  assert.equal(
    secondsBetween("2024-01-01T00:00:00Z", "2024-01-01T00:01:30Z"),
    90,
  );
});

Deno.test("estimateRemaining is elapsed / fraction done - elapsed", () => {
  assert.equal(estimateRemaining(10, 0, 100), null);
  assert.equal(estimateRemaining(10, 25, 100), 30);
  assert.equal(estimateRemaining(10, 100, 100), 0);
  assert.equal(estimateRemaining(5, 3, 100), 162);
});

Deno.test("estimateRemaining waits for a pace rather than say 00:00", () => {
  // The first second of a job at 1%: not "00:00".
  assert.equal(estimateRemaining(0, 100, 10_000), null);
  assert.equal(estimateRemaining(2, 100, 10_000), null);
  assert.equal(estimateRemaining(3, 100, 10_000), 297);
});

Deno.test("percent, location and dashes", () => {
  assert.equal(percentOf(1, 3), 33);
  assert.equal(percentOf(5, 0), 0);
  assert.equal(
    formatLocation("Mountain View", "United States"),
    "Mountain View, United States",
  );
  assert.equal(formatLocation(null, "Germany"), "Germany");
  assert.equal(formatLocation(null, null), "-");
  assert.equal(orDash(""), "-");
  assert.equal(orDash(0), "0");
});

Deno.test("formatBytes says B, KB or MB with one decimal", () => {
  assert.equal(formatBytes(512), "512 B");
  assert.equal(formatBytes(5120), "5 KB");
  assert.equal(formatBytes(1.2 * 1024 * 1024), "1.2 MB");
  assert.equal(formatBytes(8.4 * 1024 * 1024), "8.4 MB");
});
