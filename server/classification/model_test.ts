import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { AsFeatures } from "./as_features.ts";
import {
  describeEvidence,
  FEATURES,
  featureVector,
  MODEL,
  type ModelParams,
  nameWords,
  score,
} from "./model.ts";

const at = (name: (typeof FEATURES)[number]) => FEATURES.indexOf(name);
const features: AsFeatures = {
  asn: 64500,
  v4: 1 << 20,
  v6: 4096,
  cities: 412,
  regions: 14,
  countries: 2,
  country: "DE",
  countryShare: 0.021,
  ranges: 90,
  topCity: 0.12,
  home: 0.97,
  mixed: 0.4,
  radius: 180,
  legacy: 0,
  block: 0,
  datacentre: 0.05,
  largest: 0.2,
  rangeSize: 65536,
  evenness: 0.8,
  tracks: 0.6,
  covers: 0.4,
  orgAses: 3,
  orgShare: 0.03,
};

Deno.test("the shipped parameters were fitted on this feature list", () => {
  assertEquals(MODEL.features, [...FEATURES]);
  for (const m of [MODEL, MODEL.spread, MODEL.open]) {
    const n = m.feature.length;
    ok(n > 0, "no stumps");
    assertEquals([m.cut.length, m.below.length, m.above.length], [n, n, n]);
    ok(m.feature.every((f) => f >= 0 && f < FEATURES.length));
    assertEquals(m.center.length, FEATURES.length);
  }
  ok(MODEL.listConfidence > 0.5 && MODEL.listConfidence < 1);
  ok(MODEL.labelConfidence > 0.5 && MODEL.labelConfidence < 1);
  // The spread part keeps a network where it leans against access or
  // doubts it, the open part filters one only where it leans to access.
  ok(MODEL.spread.threshold >= 0 && MODEL.spread.threshold <= 0.75);
  ok(MODEL.open.threshold >= 0.5 && MODEL.open.threshold < 1);
});

Deno.test("score: calibrated probability and the feature that weighed most", () => {
  // Two stumps: many cities count for access, a university word against.
  const m: ModelParams = {
    ...MODEL,
    bias: 0,
    feature: [at("cities"), at("name: education")],
    cut: [5, 0.5],
    below: [-2, 0],
    above: [2, -3],
    center: FEATURES.map(() => 0),
    calibration: { a: 1, b: 0 },
    threshold: 0.5,
  };
  // A threshold given turns the answer, not the probability.
  const strict = score(
    featureVector(features, nameWords("Example"), [0, 0]),
    m,
    0,
    0.99,
  );
  assertEquals(strict.filtered, false);
  const isp = score(
    featureVector(features, nameWords("Example Telecom"), [0, 0]),
    m,
  );
  assertEquals(isp.filtered, true);
  ok(Math.abs(isp.p - 1 / (1 + Math.exp(-2))) < 1e-9);
  assertEquals(FEATURES[isp.strongest], "cities");
  const uni = score(
    featureVector(features, nameWords("Example University"), [0, 0]),
    m,
  );
  assertEquals(uni.filtered, false);
  assertEquals(FEATURES[uni.strongest], "name: education");
  assertEquals(
    describeEvidence(uni.strongest, features, "Example University"),
    'name word "University"',
  );
  assertEquals(
    describeEvidence(isp.strongest, features, "x"),
    "412 cities in DE",
  );
});

Deno.test("the folded step functions answer as the stumps one by one", () => {
  for (const m of [MODEL, MODEL.spread, MODEL.open]) {
    const naive = (x: number[]) => {
      let t = m.bias;
      m.feature.forEach((f, i) => {
        t += x[f] < m.cut[i] ? m.below[i] : m.above[i];
      });
      const { a, b } = m.calibration;
      return 1 / (1 + Math.exp(-(a * t + b)));
    };
    for (let k = 0; k < 200; k++) {
      // Values on and around the cuts, and between.
      const x = FEATURES.map((_, j) => {
        const cuts = m.cut.filter((_, i) => m.feature[i] === j);
        const c = cuts[(k * 7 + j) % Math.max(1, cuts.length)] ?? 0;
        return [c, c - 1e-9, c + 1e-9, c * 1.5, -c][k % 5];
      });
      ok(Math.abs(score(x, m).p - naive(x)) < 1e-9, `at ${x}`);
    }
  }
});

Deno.test("the learned name words are a feature, and the reason names the word", () => {
  const x = featureVector(features, nameWords("Fibra Net"), [1.75, 0]);
  assertEquals(x[at("name tokens")], 1.75);
  assertEquals(
    describeEvidence(at("name tokens"), features, "Fibra Net", undefined, {
      fibra: 1.5,
      net: 0.25,
    }),
    'name word "fibra" in the labelled networks',
  );
  assertEquals(
    describeEvidence(at("name tokens"), features, "Acme", undefined, {}),
    "no name word of the labelled networks",
  );
});

Deno.test("the features of a network the databases do not know", () => {
  const x = featureVector(null, nameWords("Acme"), [0, 0]);
  assertEquals(x[at("no features")], 1);
  assertEquals(
    describeEvidence(at("cities"), null, "Acme"),
    "not in the address databases",
  );
});
