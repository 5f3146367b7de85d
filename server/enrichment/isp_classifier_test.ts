import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseAsnList } from "../classification/lists.ts";
import { IspClassifier } from "./isp_classifier.ts";

const classifier = new IspClassifier({
  consumerAsns: [7922],
  hostingAsns: [16509],
});
const kind = (asn: number | null, org: string) =>
  classifier.classify(asn, org)?.networkType;

Deno.test("AS numbers in the data files decide first", () => {
  assertEquals(kind(7922, "Some Name"), "consumer_isp");
  assertEquals(kind(16509, "Mobile Cloud Broadband"), "hosting");
  assertEquals(classifier.classify(7922, "x")?.consumer, true);
  assertEquals(classifier.classify(16509, "x")?.consumer, false);
});

Deno.test("name rules match whole words only", () => {
  assertEquals(kind(1, "Comcast Business"), "consumer_isp");
  assertEquals(kind(1, "Acme Broadband Ltd"), "consumer_isp");
  assertEquals(kind(1, "Vodafone Italia"), "consumer_isp");
  assertEquals(kind(1, "AT&T Mobility"), "consumer_isp");
  // ISP words inside other words are not ISPs.
  assertEquals(kind(1, "Coxhealth"), "business");
  assertEquals(kind(1, "Abbott Laboratories"), "business");
  assertEquals(kind(1, "Campbell Soup Company"), "business");
  assertEquals(kind(1, "Mobileye Vision"), "business");
  assertEquals(kind(1, "Orangeburg County Schools"), "education");
});

Deno.test("hosting, education and government names", () => {
  assertEquals(kind(1, "Example Hosting GmbH"), "hosting");
  assertEquals(kind(1, "Massachusetts Institute of Technology"), "education");
  assertEquals(kind(1, "University of Cambridge"), "education");
  assertEquals(kind(1, "Ministry of Finance"), "government");
  assertEquals(classifier.classify(null, null), null);
});

Deno.test("parseAsnList reads ASN lines and skips comments", () => {
  assertEquals(
    parseAsnList("# head\n\n7922 US Comcast # note\nAS701  US Verizon\nbad\n"),
    [7922, 701],
  );
});

Deno.test("the curated list is large and spread across countries", async () => {
  const text = await Deno.readTextFile(
    new URL("../data/consumer_isps.txt", import.meta.url),
  );
  const asns = parseAsnList(text);
  const countries = new Set(
    text.split("\n").map((line) => line.replace(/#.*/, "").trim())
      .filter(Boolean).map((line) => line.split(/\s+/)[1]),
  );
  assertEquals(asns.length >= 150, true, `${asns.length} ASNs`);
  assertEquals(countries.size >= 15, true, `${countries.size} countries`);
  assertEquals(new Set(asns).size, asns.length, "no duplicates");
});
