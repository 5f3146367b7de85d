import assert from "node:assert/strict";
import type { JobSummary } from "../../../../shared/summary.ts";
import { rowCountParts } from "./row_counts.ts";

function summary(
  rows: JobSummary["rows"],
  networkTypes: JobSummary["networkTypes"],
): JobSummary {
  return {
    jobId: 1,
    rows,
    networkTypes,
    failedByReason: [],
    topCompanies: [],
    topAsns: [],
    topCountries: [],
    topCities: [],
  } as unknown as JobSummary;
}

Deno.test("row counts: kept, left out by type and failed add up to the total", () => {
  const { total, parts } = rowCountParts(summary(
    { total: 27, successful: 25, failed: 2, filtered: 9, kept: 18 },
    [
      { network_type: "hosting", count: 13, filtered: 0 },
      { network_type: "mobile", count: 2, filtered: 2 },
      { network_type: "consumer_isp", count: 8, filtered: 7 },
      { network_type: "business", count: 2, filtered: 0 },
    ],
  ));
  assert.equal(total, 27);
  assert.deepEqual(parts.map((p) => [p.key, p.label, p.count]), [
    ["kept", "Kept in the download", 16],
    ["left-out-consumer_isp", "Consumer broadband", 7],
    ["left-out-mobile", "Mobile", 2],
    ["failed", "Failed", 2],
  ]);
  assert.equal(parts.reduce((sum, p) => sum + p.count, 0), total);
  assert.equal(parts[1].note, "left out of the download");
});

Deno.test("row counts: both left-out kinds shown when none was left out", () => {
  const { total, parts } = rowCountParts(summary(
    { total: 3, successful: 3, failed: 0, filtered: 0, kept: 3 },
    [{ network_type: "hosting", count: 3, filtered: 0 }],
  ));
  assert.equal(total, 3);
  assert.deepEqual(parts.map((p) => [p.key, p.count]), [
    ["kept", 3],
    ["left-out-consumer_isp", 0],
    ["left-out-mobile", 0],
    ["failed", 0],
  ]);
});
