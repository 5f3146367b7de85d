import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { linnaeusKind, loadLinnaeus } from "./linnaeus.ts";

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
