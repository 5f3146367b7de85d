import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { AsFeatures } from "./as_features.ts";
import {
  classify,
  classifyNetwork,
  type CuratedLists,
  type Evidence,
} from "./decide.ts";
import { MODEL } from "./model.ts";

const listConfidence = Math.round(MODEL.listConfidence * 100) / 100;

const lists: CuratedLists = {
  consumer: new Set([7922]),
  mobile: new Set([21928]),
  hosting: new Set([16509]),
  transit: new Set([3356]),
  education: new Set([11537]),
};
const features = (p: Partial<AsFeatures>): AsFeatures => ({
  asn: 1,
  v4: 256,
  v6: 0,
  cities: 1,
  regions: 1,
  countries: 1,
  country: "US",
  countryShare: 0,
  ranges: 1,
  topCity: 1,
  home: 1,
  mixed: 0,
  radius: 0,
  legacy: 0,
  ...p,
});
const access = features({ cities: 312, countryShare: 0.4, country: "KZ" });
const small = features({});
const ev = (asn: number, org: string, more: Partial<Evidence> = {}) => ({
  asn,
  org,
  lists,
  ...more,
});

Deno.test("curated lists decide first and say so", () => {
  assertEquals(classify(small, ev(7922, "Comcast Cable")), {
    type: "consumer_isp",
    filtered: true,
    reason: "curated consumer AS",
    confidence: listConfidence,
  });
  assertEquals(classify(access, ev(21928, "T-Mobile")).type, "mobile");
  assertEquals(classify(access, ev(16509, "Amazon")).type, "hosting");
  assertEquals(classify(access, ev(3356, "Level 3")).filtered, false);
  assertEquals(classify(access, ev(11537, "Internet2")).type, "education");
});

Deno.test("an access network nobody listed is found by its spread", () => {
  const { confidence, ...found } = classify(access, ev(64500, "JSC Example"));
  assertEquals(found, {
    type: "consumer_isp",
    filtered: true,
    reason: "access network: 312 cities in KZ",
  });
  // the model agrees: 312 cities and 40% of a country
  assertEquals(confidence! > 0.8, true, `${confidence}`);
  assertEquals(
    classify(access, ev(64501, "Example Mobile Ltd")).type,
    "mobile",
  );
});

Deno.test("brand words in a name do not filter; what it calls itself decides", () => {
  const cases: [string, string][] = [
    ["Orange County Fire Authority", "government"],
    ["Bellevue School District #405", "education"],
    ["CHILDRENS HOSPITAL OF ORANGE COUNTY", "business"],
    ["DODGE & COX", "business"],
    ["Young Conaway Stargatt & Taylor, LLP", "business"],
    ["Virgin Islands University", "education"],
    ["Bell Bank", "business"],
  ];
  for (const [org, type] of cases) {
    const got = classify(small, ev(64502, org));
    assertEquals([org, got.type, got.filtered], [org, type, false]);
  }
  assertEquals(
    classify(small, ev(64503, "Malverne Union Free School District")).reason,
    "name: University/School",
  );
});

Deno.test("transit and multinationals spread over many countries are not access", () => {
  const transit = features({ cities: 800, countries: 39, countryShare: 0.02 });
  assertEquals(classify(transit, ev(64504, "Carrier Inc")).filtered, false);
  // The name rule keeps an operator's business arm; the model, seeing an
  // incumbent's spread, doubts it, says why, and gives a low confidence.
  const arm = classify(access, ev(64505, "Verizon Business"));
  assertEquals(
    arm.reason,
    "name: operator's business arm; model doubts it: 40.00% of KZ's addresses",
  );
  assertEquals(arm.confidence! < 0.5, true, `${arm.confidence}`);
  const small = classify(
    features({ v4: 512, countryShare: 0.0001 }),
    ev(64509, "Acme Enterprise Services"),
  );
  assertEquals(small.reason, "name: operator's business arm");
  assertEquals(small.confidence! > 0.5, true, `${small.confidence}`);
});

Deno.test("PTR evidence: static business kept, dynamic filtered", () => {
  assertEquals(classify(small, ev(7922, "Comcast", { ptr: "static" })), {
    type: "business",
    filtered: false,
    reason: "PTR looks static business (curated consumer AS)",
    confidence: null,
  });
  assertEquals(classify(small, ev(64506, "Small Co", { ptr: "dynamic" })), {
    type: "consumer_isp",
    filtered: true,
    reason: "PTR looks dynamic",
    confidence: null,
  });
  // A named public body stays what it is.
  assertEquals(
    classify(small, ev(64507, "County of Orange", { ptr: "dynamic" })).type,
    "government",
  );
});

Deno.test("an override wins and is named; keep unfilters", () => {
  const d = classify(
    access,
    ev(7922, "Comcast", {
      override: { type: "business", line: 12 },
    }),
  );
  assertEquals(d, {
    type: "business",
    filtered: false,
    reason: "override: line 12",
    confidence: 1,
  });
  const kept = classify(access, ev(7922, "Comcast", { keep: true }));
  assertEquals(kept, {
    type: "consumer_isp",
    filtered: false,
    reason: "always keep (curated consumer AS)",
    confidence: listConfidence,
  });
});

Deno.test("no features and no cues: business", () => {
  assertEquals(classify(null, ev(64508, "Acme")).type, "business");
});

Deno.test("where the rules find no access evidence, the model decides when sure", () => {
  // A small network in 4 cities: no rule fires.
  const regional = features({ cities: 4, v4: 8192, ranges: 6 });
  const rules = classifyNetwork(regional, ev(64501, "Example Coop"));
  assertEquals(rules.reason, "no access evidence (4 cities)");
  // The same network with the model's bar at 0 (always sure) and above 1.
  const sure = { ...MODEL, rescue: 0 };
  const got = classifyNetwork(regional, ev(64501, "Example Coop"), sure);
  assertEquals([got.type, got.filtered], ["consumer_isp", true]);
  ok(got.reason.startsWith("access network by the model: "), got.reason);
  assertEquals(
    classifyNetwork(regional, ev(64501, "Example Mobile"), sure).type,
    "mobile",
  );
  const never = { ...MODEL, rescue: 1.01 };
  assertEquals(
    classifyNetwork(regional, ev(64501, "Example Coop"), never).filtered,
    false,
  );
  // Nothing known of the network: the model does not decide.
  assertEquals(
    classifyNetwork(null, ev(64501, "Example Coop"), sure).filtered,
    false,
  );
  // Name cues and the spread rule are not the model's to overrule upward.
  assertEquals(
    classifyNetwork(regional, ev(64501, "Example University"), sure).type,
    "education",
  );
});
