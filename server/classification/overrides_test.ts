import {
  deepStrictEqual as assertEquals,
  throws as assertThrows,
} from "node:assert/strict";
import {
  keeps,
  loadOverrides,
  matchOverride,
  OverrideError,
  OVERRIDES_TEMPLATE,
  parseKeepList,
  parseOverrides,
} from "./overrides.ts";

const FILE = [
  "# comment",
  "",
  "AS64500 -> consumer",
  "203.0.113.0/24 -> business",
  "2001:db8:1::/48 -> hosting",
  "org:/\\bCounty\\b/i -> government",
  "64501 -> mobile  ",
].join("\n");

Deno.test("rules match by ASN, CIDR and org, first wins, lines numbered", () => {
  const rules = parseOverrides(FILE);
  assertEquals(rules.map((r) => [r.line, r.type]), [
    [3, "consumer_isp"],
    [4, "business"],
    [5, "hosting"],
    [6, "government"],
    [7, "mobile"],
  ]);
  assertEquals(matchOverride(rules, "198.51.100.1", 64500, "X")?.line, 3);
  assertEquals(matchOverride(rules, "203.0.113.77", 64500, "X")?.line, 3);
  assertEquals(matchOverride(rules, "203.0.113.77", 1, "X")?.line, 4);
  assertEquals(matchOverride(rules, "203.0.114.1", 1, "X"), null);
  assertEquals(matchOverride(rules, "2001:db8:1::5", 1, "X")?.line, 5);
  assertEquals(matchOverride(rules, "2001:db8:2::5", 1, "X"), null);
  assertEquals(matchOverride(rules, "1.1.1.1", 1, "Orange county")?.line, 6);
  assertEquals(matchOverride(rules, "1.1.1.1", 1, "Countyline Inc"), null);
});

Deno.test("bad lines are reported with their line numbers", () => {
  assertThrows(
    () =>
      parseOverrides(
        "64500 -> consumer\nnonsense\n1.2.3.0/33 -> business\n5 -> alien\norg:/(/ -> business",
      ),
    (error: Error) => {
      assertEquals(error instanceof OverrideError, true);
      assertEquals(error.message.split("\n").map((l) => l.split(":")[0]), [
        "line 2",
        "line 3",
        "line 4",
        "line 5",
      ]);
      return true;
    },
  );
});

Deno.test("a missing file is created with commented examples", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/overrides.txt`;
    assertEquals(await loadOverrides(path), []);
    assertEquals(await Deno.readTextFile(path), OVERRIDES_TEMPLATE);
    // every example, uncommented, is a valid rule
    const examples = OVERRIDES_TEMPLATE.split("\n")
      .filter((l) =>
        l.startsWith("# ") && l.includes(" -> ") && !l.includes("MATCH")
      )
      .map((l) => l.slice(2));
    assertEquals(parseOverrides(examples.join("\n")).length, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("keep list takes AS numbers and CIDRs, rejects the rest", () => {
  const keep = parseKeepList("AS64500, 64501\n198.51.100.0/24 2001:db8::/32");
  assertEquals(keeps(keep, "192.0.2.1", 64500), true);
  assertEquals(keeps(keep, "192.0.2.1", 64501), true);
  assertEquals(keeps(keep, "198.51.100.9", 1), true);
  assertEquals(keeps(keep, "2001:db8::1", null), true);
  assertEquals(keeps(keep, "192.0.2.1", 1), false);
  assertThrows(() => parseKeepList("64500 example.com"), /example\.com/);
});
