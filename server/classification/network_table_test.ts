import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { emptyFeatureColumns } from "./as_features.ts";
import { NetworkClassifier } from "./network_classifier.ts";
import { classifyTable, classifyTableOnThread } from "./network_table.ts";
import { parseOverrides } from "./overrides.ts";
import { loadAsnTable } from "../enrichment/asn_table.ts";

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
  orgs: ["Example Cable", "Town Hall", "Example Cable", "Example Hosting"],
};

Deno.test("each table network's decision is the classifier's, made once and shared", async () => {
  const networks = classifyTable({ table, classifier });
  const own = new NetworkClassifier(classifier);
  for (let i = 0; i < table.orgs.length; i++) {
    assertEquals(
      networks.decisions[networks.decisionOf[i]],
      own.network(table.asns[i], table.orgs[i]),
    );
  }
  assertEquals(
    networks.decisions[networks.decisionOf[1]].reason,
    "override: line 1",
  );
  // One decision for the networks that have the same.
  assertEquals(networks.decisionOf[0], networks.decisionOf[2]);
  // In shared memory: job threads read the one copy.
  assertEquals(networks.decisionOf.buffer instanceof SharedArrayBuffer, true);
  // On a thread of its own, the same answer.
  const asn = await loadAsnTable([]);
  const onThread = await classifyTableOnThread(
    { ...asn, asns: table.asns, orgs: table.orgs },
    classifier,
  );
  assertEquals(onThread.decisions, networks.decisions);
  assertEquals([...onThread.decisionOf], [...networks.decisionOf]);
});
