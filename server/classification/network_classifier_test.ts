import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { AsnTable } from "../enrichment/asn_table.ts";
import {
  loadNetworkClassifierData,
  NetworkClassifier,
} from "./network_classifier.ts";
import { parseKeepList } from "./overrides.ts";
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
        table: data,
        geo,
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
    // the override file's line 4
    assertEquals(at("107.190.182.127"), {
      type: "consumer_isp",
      filtered: true,
      reason: "override: line 4",
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
