import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { AsnTable } from "../enrichment/asn_table.ts";
import { buildAsFeatures, emptyFeatureColumns } from "./as_features.ts";
import {
  loadNetworkClassifierData,
  NetworkClassifier,
} from "./network_classifier.ts";
import { parseKeepList, parseOverrides } from "./overrides.ts";
import { ASN_PATHS, GEO_PATHS, loadBundled } from "../../eval/bundled.ts";

// On the bundled databases: the real features, lists and an overrides file.
Deno.test("classifies real networks, applies overrides, PTR and keep lists", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/overrides.txt`,
      "# mine\n\n64496 -> business\norg:/^Bell Bank$/ -> consumer\n",
    );
    const { data, geo } = await loadBundled();
    const table = new AsnTable(data);
    const classifier = new NetworkClassifier(
      await loadNetworkClassifierData({
        // the features cache is shared between runs; overrides are this test's
        dataDir: "test-output/classifier",
        overridesPath: `${dir}/overrides.txt`,
        databasePaths: [...ASN_PATHS, ...GEO_PATHS],
        buildFeatures: () => buildAsFeatures(data, geo),
      }),
    );
    const at = (ip: string, host: string | null = null, keep = "") => {
      const info = table.lookup(ip, 4)!;
      return classifier.classify(
        ip,
        info.asn,
        info.org,
        host,
        keep ? parseKeepList(keep) : null,
      );
    };
    // Kazakhtelecom, the national incumbent
    const kz = at("2.133.255.255");
    assertEquals([kz.type, kz.filtered], ["consumer_isp", true]);
    // Orange County Comptroller: a brand word, a public body
    const county = at("12.1.88.127");
    assertEquals([county.type, county.filtered], ["government", false]);
    // a static business line inside a consumer AS is kept
    const comcastBiz = at(
      "73.127.255.255",
      "static-73-127-255-255.biz.comcast.net",
    );
    assertEquals([comcastBiz.type, comcastBiz.filtered], ["business", false]);
    const comcastHome = at(
      "73.127.255.255",
      "c-73-127-255-255.hsd1.ca.comcast.net",
    );
    assertEquals(comcastHome.filtered, true);
    // the keep list
    const kept = at("73.127.255.255", null, "AS7922");
    assertEquals([kept.filtered, kept.reason], [
      false,
      "always keep (curated consumer AS)",
    ]);
    // ECOM CHACO, a small Argentine ISP on no list: Linnaeus's train
    // split labels it, and the answer names that source
    const labelled = at("201.217.244.10");
    assertEquals(
      [labelled.type, labelled.reason.split(";")[0]],
      ["consumer_isp", "Linnaeus label: Access_SmallISP"],
    );
    // the override file's line 4
    assertEquals(at("107.190.182.127"), {
      type: "consumer_isp",
      filtered: true,
      reason: "override: line 4",
      confidence: 1,
    });
    assertEquals(
      [...Deno.readDirSync("test-output/classifier")].some((e) =>
        e.name.startsWith("as-features-")
      ),
      true,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// A fixture: no features, one curated consumer AS, three override lines.
Deno.test("per-address evidence: CIDR lines by file order, same object when unchanged", () => {
  const classifier = new NetworkClassifier({
    features: emptyFeatureColumns(),
    lists: {
      consumer: [64500],
      mobile: [],
      hosting: [],
      transit: [],
      education: [],
      labelled: [],
    },
    overrides: parseOverrides(
      "192.0.2.0/28 -> hosting\n64501 -> government\n198.51.100.0/24 -> business\n",
    ),
  });
  const base = classifier.network(64500, "Example Cable");
  assertEquals(base.reason, "curated consumer AS");
  // Nothing about this address changes the decision: the very same object.
  assertEquals(
    classifier.address(base, "203.0.113.5", 64500, null) === base,
    true,
  );
  // A CIDR line inside a consumer AS decides for its addresses only.
  assertEquals(classifier.classify("198.51.100.7", 64500, "Example Cable"), {
    type: "business",
    filtered: false,
    reason: "override: line 3",
    confidence: 1,
  });
  // The AS line (2) comes before the CIDR line (3): it wins.
  assertEquals(
    classifier.classify("198.51.100.7", 64501, "Town Hall").reason,
    "override: line 2",
  );
  // The CIDR line (1) comes before the AS line (2): it wins.
  assertEquals(
    classifier.classify("192.0.2.3", 64501, "Town Hall").reason,
    "override: line 1",
  );
  // An override is final: a dynamic-looking host name does not change it.
  assertEquals(
    classifier.classify("198.51.100.7", 64500, "x", "pool-1.dsl.example.net")
      .reason,
    "override: line 3",
  );
});
