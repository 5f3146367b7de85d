import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Network } from "../enrichment/compose.ts";
import { DYNAMIC_NAMES_NEEDED, JobHostEvidence } from "./job_host_evidence.ts";

const network = (reason: string, filtered = false): Network => ({
  org: "Example Networks",
  asnText: "AS64500 Example Networks",
  asn: 64500,
  kind: {
    type: filtered ? "consumer_isp" : "business",
    filtered,
    reason,
    confidence: 0.7,
  },
});

Deno.test("many dynamic names in one network filter its rows, named or not", () => {
  const evidence = new JobHostEvidence();
  const kept = network("no access evidence (2 cities)");
  for (let i = 1; i < DYNAMIC_NAMES_NEEDED; i++) {
    const ip = `198.51.100.${i}`;
    const shown = evidence.apply(kept, ip, `dyn-198-51-100-${i}.example.net`);
    assertEquals(shown, kept, "not yet");
  }
  const ip = `198.51.100.${DYNAMIC_NAMES_NEEDED}`;
  const turned = evidence.apply(kept, ip, `pool-${ip}.example.net`);
  assertEquals([turned.kind?.type, turned.kind?.filtered], [
    "consumer_isp",
    true,
  ]);
  assertEquals(
    turned.kind?.reason,
    "job host names: 5 of 5 named rows of this network look dynamic",
  );
  // A row with no name now shows the same object (sent once per job).
  assertEquals(evidence.apply(kept, "198.51.100.99", null) === turned, true);
});

Deno.test("static names hold the mark back; other networks never change", () => {
  const evidence = new JobHostEvidence();
  const kept = network("no access evidence (3 cities)");
  for (let i = 1; i <= 2; i++) {
    evidence.apply(kept, `198.51.100.${i}`, `mail${i}.example.com`);
  }
  for (let i = 3; i <= 8; i++) {
    evidence.apply(kept, `198.51.100.${i}`, `dsl-198-51-100-${i}.example.net`);
  }
  // 6 dynamic of 8 named: under four in five.
  assertEquals(evidence.apply(kept, "198.51.100.50", null), kept);
  const named = network("name: Hospital/Health");
  const curated = network("curated consumer AS", true);
  for (let i = 1; i <= 10; i++) {
    const host = `dyn-198-51-100-${i}.example.net`;
    assertEquals(evidence.apply(named, `198.51.100.${i}`, host), named);
    assertEquals(evidence.apply(curated, `198.51.100.${i}`, host), curated);
  }
});
