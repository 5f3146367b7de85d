import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  loadCuratedLists,
  parseLabelTable,
} from "../server/classification/lists.ts";
import {
  linnaeusKind,
  linnaeusTable,
  loadLinnaeus,
  TABLE_PATH,
} from "./linnaeus.ts";
import { listsWithout } from "./training.ts";

Deno.test("Linnaeus categories as network types", () => {
  const kind = (categories: string) => linnaeusKind(categories.split("+"));
  // Access, whatever else the AS is: an incumbent's main AS, a state-owned
  // operator, an ISP hosting on the side.
  assertEquals(kind("Access_LargeISP+Transit_Global+Mobile"), "consumer_isp");
  assertEquals(
    kind(
      "Access_LargeISP+Mobile+Government_Executive+Government_FederalNational",
    ),
    "consumer_isp",
  );
  assertEquals(kind("Access_SmallISP+ContentProvider_Hosting"), "consumer_isp");
  assertEquals(kind("Access_LargeISP+Satellite"), "consumer_isp");
  // A carrier's arm and satellite capacity serve businesses.
  assertEquals(kind("Access_SmallISP+Transit_Global+Mobile"), "business");
  assertEquals(kind("Access_SmallISP+Satellite"), "business");
  assertEquals(kind("Access_SmallISP+Satellite+Mobile"), "consumer_isp");
  // No access: the first role of education, government, hosting, business.
  assertEquals(
    kind("EducationalResearch_University+Government_StateProvince"),
    "education",
  );
  assertEquals(kind("Government_CityCountyMunicipality"), "government");
  assertEquals(kind("LawEnforcement"), "government");
  assertEquals(kind("ContentProvider_Cloud+Enterprise_Technology"), "hosting");
  assertEquals(kind("Transit_Global+IXP"), "business");
  assertEquals(kind("Finance_Bank"), "business");
});

Deno.test("the copy of the labels reads whole, with its split", async () => {
  const labels = await loadLinnaeus();
  const count = (split: string) =>
    labels.filter((l) => l.split === split).length;
  assertEquals(
    [labels.length, count("train"), count("val"), count("test")],
    [1978, 1382, 593, 3],
  );
  assertEquals(labels.filter((l) => l.filtered).length, 283);
});

Deno.test("the shipped label table is the train split's, nothing of validation or test", async () => {
  const labels = await loadLinnaeus();
  const shipped = await Deno.readTextFile(TABLE_PATH);
  // Written from the copy by fit:classifier, never edited apart from it.
  assertEquals(shipped, linnaeusTable(labels));
  const table = parseLabelTable(shipped);
  assertEquals(table.size, labels.filter((l) => l.split === "train").length);
  for (const l of labels) {
    assertEquals(table.has(l.asn), l.split === "train");
    if (l.split === "train") assertEquals(table.get(l.asn)!.type, l.kind);
  }
  // The evaluation's "out of every list" takes labels out as it does lists.
  const lists = await loadCuratedLists();
  const some = new Set([...table.keys()].slice(0, 5));
  const without = listsWithout(lists, some);
  assertEquals(
    [...some].some((asn) => without.labelled.has(asn)),
    false,
  );
  assertEquals(without.labelled.size, table.size - some.size);
});

Deno.test("a bad line of a label table is named", () => {
  let message = "";
  try {
    parseLabelTable("# ok\n64500 consumer_isp Access_SmallISP\n64501 isp\n");
  } catch (e) {
    message = (e as Error).message;
  }
  assertEquals(
    message,
    'label table line 3: expected "ASN network_type categories", got "64501 isp"',
  );
});
