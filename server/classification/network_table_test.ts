import {
  deepStrictEqual as assertEquals,
  ok,
  rejects,
} from "node:assert/strict";
import { loadConfig } from "../config.ts";
import { dataFiles } from "../databases/installed.ts";
import type { AsnTableData } from "../enrichment/asn_table.ts";
import { shareStrings, stringAt } from "../enrichment/shared_file.ts";
import { GeoProvider, loadGeoDatabases } from "../enrichment/geo_provider.ts";
import type { MmdbFile } from "../enrichment/mmdb_database.ts";
import { ipv6ToWords } from "../enrichment/ip_input.ts";
import {
  AsFeatureIndex,
  buildAsFeatures,
  emptyFeatureColumns,
} from "./as_features.ts";
import { loadClassifierOnThread } from "./classifier_load.ts";
import { NetworkClassifier } from "./network_classifier.ts";
import { classifyTable } from "./network_table.ts";
import { parseOverrides } from "./overrides.ts";

// A fixture: three networks, one curated consumer AS, one override line.
const classifier = {
  features: emptyFeatureColumns(),
  lists: {
    consumer: [64500],
    mobile: [],
    hosting: [],
    transit: [],
    education: [],
    labelled: [],
  },
  overrides: parseOverrides("64501 -> government\n"),
};
const table = {
  asns: new Uint32Array([64500, 64501, 64500, 64502]),
  orgs: shareStrings([
    "Example Cable",
    "Town Hall",
    "Example Cable",
    "Example Hosting",
  ]),
};

Deno.test("each table network's decision is the classifier's, made once and shared", () => {
  const networks = classifyTable(table, classifier);
  const own = new NetworkClassifier(classifier);
  for (let i = 0; i < table.asns.length; i++) {
    assertEquals(
      networks.decisions[networks.decisionOf[i]],
      own.network(table.asns[i], stringAt(table.orgs, i)),
    );
  }
  assertEquals(
    networks.decisions[networks.decisionOf[1]].reason,
    "override: line 1",
  );
  // One decision for the networks that have the same.
  assertEquals(networks.decisionOf[0], networks.decisionOf[2]);
  // In shared memory: job threads read the one copy.
  ok(networks.decisionOf.buffer instanceof SharedArrayBuffer);
});

const ip = (a: number, b: number, c: number, d: number) =>
  ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

Deno.test("the classifier loaded on its thread: the features built here, the table decided", async () => {
  // Public ranges of the bundled city databases, IPv4 and IPv6.
  const sample: AsnTableData = {
    v4Start: new Uint32Array([ip(8, 8, 0, 0), ip(81, 2, 64, 0)]),
    v4End: new Uint32Array([ip(8, 8, 255, 255), ip(81, 2, 127, 255)]),
    v4Org: new Uint32Array([0, 1]),
    v6Start: new Uint32Array(ipv6ToWords("2a00:1450::")),
    v6End: new Uint32Array(
      ipv6ToWords("2a00:1450:ffff:ffff:ffff:ffff:ffff:ffff"),
    ),
    v6Org: new Uint32Array([0]),
    asns: new Uint32Array([15169, 20712]),
    orgs: shareStrings(["Google LLC", "Andrews & Arnold Ltd"]),
    mmdb: [],
  };
  const geo = await loadGeoDatabases(dataFiles(loadConfig({})).geo);
  const here = buildAsFeatures(sample, new GeoProvider(geo));
  ok(here.cities.every((n) => n > 0), "the sample found no city");
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/db.csv`, "one");
    const loaded = await loadClassifierOnThread({
      dataDir: dir,
      databasePaths: [`${dir}/db.csv`],
      overridesPath: `${dir}/overrides.txt`,
      table: sample,
      geo,
    });
    const shared = new AsFeatureIndex(loaded.classifier.features);
    const built = new AsFeatureIndex(here);
    for (const asn of here.asn) assertEquals(shared.get(asn), built.get(asn));
    // Every column in shared memory, the country codes too.
    for (const column of Object.values(loaded.classifier.features)) {
      ok(column.buffer instanceof SharedArrayBuffer);
    }
    assertEquals(loaded.networks, classifyTable(sample, loaded.classifier));
    // A failure on the thread is this call's error, and the thread ends.
    await Deno.writeTextFile(`${dir}/db.csv`, "a newer version");
    await rejects(
      loadClassifierOnThread({
        dataDir: dir,
        databasePaths: [`${dir}/db.csv`],
        table: sample,
        // Not what loadGeoDatabases makes: the features' build fails.
        geo: [{} as MmdbFile],
      }),
      /^Error: loading the network classifier failed: /,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
