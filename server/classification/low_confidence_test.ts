import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Network } from "../enrichment/compose.ts";
import { LowConfidenceRows } from "./low_confidence.ts";

const net = (
  filtered: boolean,
  confidence: number | null,
): Network => ({
  org: "Example",
  asnText: "AS64500 Example",
  asn: 64500,
  kind: {
    type: filtered ? "consumer_isp" : "business",
    filtered,
    reason: "why",
    confidence,
  },
});

Deno.test("keep: a doubted filtered network is kept, once per network", () => {
  const rows = new LowConfidenceRows("keep");
  const doubted = net(true, 0.3);
  const kept = rows.apply(doubted);
  assertEquals(kept.kind?.filtered, false);
  assertEquals(kept.kind?.type, "consumer_isp");
  assertEquals(kept.kind?.reason, "low confidence, kept (why)");
  assertEquals(rows.apply(doubted) === kept, true);
  // Sure answers, unmeasured ones and kept ones stand.
  for (const n of [net(true, 0.5), net(true, null), net(false, 0.1)]) {
    assertEquals(rows.apply(n) === n, true);
  }
});

Deno.test("filter: a doubted kept network is filtered", () => {
  const rows = new LowConfidenceRows("filter");
  const filtered = rows.apply(net(false, 0.49));
  assertEquals(filtered.kind?.filtered, true);
  assertEquals(filtered.kind?.reason, "low confidence, filtered (why)");
  for (const n of [net(false, 0.9), net(false, null), net(true, 0.1)]) {
    assertEquals(rows.apply(n) === n, true);
  }
});
