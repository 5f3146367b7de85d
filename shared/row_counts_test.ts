import assert from "node:assert/strict";
import type { JobSummary } from "./summary.ts";
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
  };
}

Deno.test("row counts: kept and left out by type add up to the rows", () => {
  const { total, parts, failed } = rowCountParts(summary(
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
    ["kept", "Kept in the download", 18],
    ["left-out-consumer_isp", "Consumer ISP", 7],
    ["left-out-mobile", "Mobile network", 2],
  ]);
  assert.equal(parts.reduce((sum, p) => sum + p.count, 0), total);
  // The consumer row kept is explained where the consumer rows are counted.
  assert.equal(
    parts[1].note,
    "left out of the download; 1 more kept (the classifier was unsure, " +
      "or the job's Always keep list)",
  );
  assert.equal(parts[2].note, "left out of the download");
  assert.equal(parts[0].note, "rows of the CSV and .xlsx; 2 of them failed");
  assert.deepEqual([failed.label, failed.count], ["Failed", 2]);
});

Deno.test("row counts: both left-out kinds shown when none was left out", () => {
  const { total, parts, failed } = rowCountParts(summary(
    { total: 3, successful: 3, failed: 0, filtered: 0, kept: 3 },
    [{ network_type: "hosting", count: 3, filtered: 0 }],
  ));
  assert.equal(total, 3);
  assert.deepEqual(parts.map((p) => [p.key, p.count]), [
    ["kept", 3],
    ["left-out-consumer_isp", 0],
    ["left-out-mobile", 0],
  ]);
  assert.equal(failed.count, 0);
});

Deno.test("row counts: the rows say how many distinct addresses they hold", () => {
  const base = summary(
    { total: 10, successful: 10, failed: 0, filtered: 0, kept: 10 },
    [],
  );
  assert.equal(rowCountParts(base).totalNote, "kept + left out");
  assert.equal(
    rowCountParts({ ...base, distinctAddresses: 1753 }).totalNote,
    "kept + left out; 1,753 distinct addresses",
  );
});
