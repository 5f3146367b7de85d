import assert from "node:assert/strict";
import { KNOWN_COUNTRY_CODES, numericCountryCode } from "./iso_numeric.ts";
import {
  barLayout,
  countsByNumericCode,
  describeBars,
  networkTypeLabel,
  shorten,
} from "./labels.ts";

Deno.test("alpha-2 to ISO numeric, as world-atlas keys its shapes", () => {
  assert.equal(numericCountryCode("US"), "840");
  assert.equal(numericCountryCode("de"), "276");
  assert.equal(numericCountryCode("AU"), "036");
  assert.equal(numericCountryCode("ZZ"), null);
  assert.equal(numericCountryCode(null), null);
  assert.ok(KNOWN_COUNTRY_CODES >= 249);
  const counts = countsByNumericCode([
    { country: "United States", country_code: "US", count: 5 },
    { country: "Nowhere", country_code: null, count: 9 },
  ]);
  assert.deepEqual([...counts], [["840", 5]]);
});

Deno.test("chart words: labels, shortening, text alternatives", () => {
  assert.equal(networkTypeLabel("consumer_isp"), "Consumer ISP");
  assert.equal(networkTypeLabel(null), "Unknown");
  assert.equal(shorten("International Business Machines", 10), "Internati…");
  const narrow = barLayout(375, ["A very long company name indeed, Inc."]);
  assert.equal(narrow.marginLeft, 150);
  assert.ok(narrow.maxChars < 37);
  assert.equal(
    describeBars([{ label: "B", count: 1 }, { label: "A", count: 2000 }], "x"),
    "Bar chart of x, largest first: A (2,000 rows), B (1 row).",
  );
  assert.equal(describeBars([], "top companies"), "No top companies yet.");
});
