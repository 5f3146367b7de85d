import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Decision } from "../server/classification/decide.ts";
import { type Example, rescueThreshold, withRescue } from "./training.ts";

const rules = (reason: string, filtered = false): Decision => ({
  type: filtered ? "consumer_isp" : "business",
  filtered,
  reason,
  confidence: null,
});

Deno.test("the model filters only where the rules found no access evidence", () => {
  const none = rules("no access evidence (4 cities)");
  assertEquals([withRescue(none, 0.8, 0.7), withRescue(none, 0.6, 0.7)], [
    true,
    false,
  ]);
  // a name cue or a network with no features is not the model's to decide
  assertEquals(withRescue(rules("name: hosting"), 0.99, 0.5), false);
  assertEquals(withRescue(rules("no access evidence"), 0.99, 0.5), false);
  assertEquals(withRescue(rules("access network: 9 cities", true), 0, 1), true);
});

Deno.test("the rescue threshold is the one with the best F1, ties the higher", () => {
  // Networks no rule finds: three access (p 0.9, 0.8, 0.72), one not (0.75).
  const example = (asn: number, filtered: boolean): Example => ({
    asn,
    org: "Example Coop",
    group: String(asn),
    filtered,
    from: "label",
    features: {
      asn,
      v4: 8192,
      v6: 0,
      cities: 4,
      regions: 1,
      countries: 1,
      country: "US",
      countryShare: 0,
      ranges: 6,
      topCity: 0.5,
      home: 1,
      mixed: 0,
      radius: 0,
      legacy: 0,
    },
    x: [],
  });
  const examples = [
    example(1, true),
    example(2, true),
    example(3, true),
    example(4, false),
  ];
  // at 0.70 all four are filtered (F1 6/7), at 0.80 two (F1 4/5): 0.70;
  // 0.75 filters three of them, the not-access one among them (F1 4/6)
  assertEquals(rescueThreshold(examples, [0.9, 0.8, 0.72, 0.75]), 0.7);
  // nothing to gain below 0.9: the highest threshold with the best F1
  assertEquals(rescueThreshold(examples, [0.99, 0.99, 0.99, 0.1]), 0.95);
});
