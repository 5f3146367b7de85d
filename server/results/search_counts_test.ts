// A chunk's search counts: a text search finds a name in company or ASN,
// ignoring case, counts each entry once, never across two names, applies
// the filter's other conditions, and reads the JSON kept by earlier
// versions the same way.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  countMatches,
  decodeSearchCounts,
  encodeSearchCounts,
  SearchCountsBuilder,
} from "./search_counts.ts";

const ENTRIES: [
  string | null,
  string | null,
  string | null,
  boolean,
  number,
][] = [
  ["Google LLC", "AS15169 Google LLC", "hosting", false, 7],
  [null, "AS7922 Comcast Cable", "consumer_isp", true, 40],
  ["Acme", "AS64500 Example", null, false, 3],
  ["ÉCOLE Polytechnique", null, "education", false, 2],
  ["Google LLC", "AS15169 Google LLC", "hosting", true, 1],
];

function built() {
  const builder = new SearchCountsBuilder();
  for (const entry of ENTRIES) builder.add(...entry);
  return decodeSearchCounts(encodeSearchCounts(builder.build()));
}

const any = () => true;

Deno.test("a search counts the rows of each entry whose names hold it", () => {
  const counts = built();
  assertEquals(countMatches(counts, "google", any), 8);
  assertEquals(countMatches(counts, "GOOGLE llc", any), 8);
  assertEquals(countMatches(counts, "15169", any), 8);
  assertEquals(countMatches(counts, "as", any), 51);
  assertEquals(countMatches(counts, "école", any), 2);
  assertEquals(countMatches(counts, "comcast", any), 40);
  assertEquals(countMatches(counts, "acme", any), 3);
  assertEquals(countMatches(counts, "nobody", any), 0);
});

Deno.test("a search never matches across two names", () => {
  const counts = built();
  // "Acme" then "AS64500 Example": "meas" spans the two.
  assertEquals(countMatches(counts, "meas", any), 0);
  assertEquals(countMatches(counts, "acme\u0000as", any), 0);
  assertEquals(countMatches(counts, "llc\u0000", any), 0);
});

Deno.test("a search applies the filter's type and status", () => {
  const counts = built();
  assertEquals(
    countMatches(counts, "google", (_type, filtered) => !filtered),
    7,
  );
  assertEquals(countMatches(counts, "a", (type) => type === null), 3);
  assertEquals(countMatches(counts, "o", (type) => type === "education"), 2);
});
