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
  // A hand label for an AS no list names, and one a list overrules.
  labelled: new Map([
    [64520, { type: "consumer_isp", categories: "Access_SmallISP" }],
    [7922, { type: "business", categories: "Enterprise_Technology" }],
  ]),
};
// An AS alone under its name: its organisation's share is its own.
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
  block: 0,
  datacentre: 0,
  largest: 1,
  rangeSize: 256,
  evenness: 0,
  tracks: 1,
  covers: 0,
  orgAses: 1,
  ...p,
  orgShare: p.orgShare ?? p.countryShare ?? 0,
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
  assertEquals(classify(access, ev(7922, "Comcast Cable")), {
    type: "consumer_isp",
    filtered: true,
    reason: "curated consumer AS",
    confidence: listConfidence,
  });
  // Where the evidence alone answers otherwise, the list still decides and
  // the answer says so, with the confidence measured for such answers.
  assertEquals(classify(small, ev(7922, "Comcast Cable")), {
    type: "consumer_isp",
    filtered: true,
    reason:
      "curated consumer AS; model doubts it: no access evidence (1 cities)",
    confidence: Math.round(MODEL.listDoubtedConfidence * 100) / 100,
  });
  assertEquals(classify(access, ev(21928, "T-Mobile")).type, "mobile");
  assertEquals(classify(access, ev(16509, "Amazon")).type, "hosting");
  assertEquals(classify(access, ev(3356, "Level 3")).filtered, false);
  assertEquals(classify(access, ev(11537, "Internet2")).type, "education");
});

Deno.test("a listed AS the evidence doubts names the evidence's answer once", () => {
  // Kept by the evidence, though the model leans to access on its name: the
  // evidence's answer carries its own doubt, which the list's answer drops.
  const doubtful = features({ cities: 6, mixed: 0.6, regions: 3 });
  const alone = classify(doubtful, ev(64500, "Fokusnet Broadband"));
  ok(
    alone.reason.startsWith(
      "no access evidence (6 cities); model doubts it: name word",
    ),
    alone.reason,
  );
  const asListed = classify(doubtful, ev(7922, "Fokusnet Broadband"));
  assertEquals(
    asListed.reason,
    "curated consumer AS; model doubts it: no access evidence (6 cities)",
  );
});

Deno.test("a hand-labelled AS answers from its label, naming the source", () => {
  const label = (c: number) => Math.round(c * 100) / 100;
  assertEquals(classify(access, ev(64520, "Small Fibre")), {
    type: "consumer_isp",
    filtered: true,
    reason: "Linnaeus label: Access_SmallISP",
    confidence: label(MODEL.labelConfidence),
  });
  // The evidence alone disagrees: the label decides, and the answer says so.
  assertEquals(classify(small, ev(64520, "Small Fibre")), {
    type: "consumer_isp",
    filtered: true,
    reason:
      "Linnaeus label: Access_SmallISP; model doubts it: no access evidence (1 cities)",
    confidence: label(MODEL.labelDoubtedConfidence),
  });
  // A curated list wins over a label; without either the evidence decides.
  assertEquals(
    classify(access, ev(7922, "Comcast")).reason,
    "curated consumer AS",
  );
  const unlabelled = { ...lists, labelled: new Map() };
  assertEquals(
    classify(small, { asn: 64520, org: "Small Fibre", lists: unlabelled })
      .reason.startsWith("Linnaeus"),
    false,
  );
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
    ["SURINAME INTERNET EXCHANGE (SUR-IX)", "business"],
    ["Camera dei deputati", "government"],
    ["Haridus- ja Teadusministeerium", "government"],
    ["Communications and Media Commission (CMC)", "government"],
    ["Slovenskej akademickej datovej siete", "education"],
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
  ok(
    arm.reason.startsWith("name: operator's business arm; model doubts it: "),
    arm.reason,
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
  assertEquals(classify(access, ev(7922, "Comcast", { ptr: "static" })), {
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
  const sure = { ...MODEL, open: { ...MODEL.open, threshold: 0 } };
  const got = classifyNetwork(regional, ev(64501, "Example Coop"), sure);
  assertEquals([got.type, got.filtered], ["consumer_isp", true]);
  ok(got.reason.startsWith("access network by the model"), got.reason);
  assertEquals(
    classifyNetwork(regional, ev(64501, "Example Mobile"), sure).type,
    "mobile",
  );
  const never = { ...MODEL, open: { ...MODEL.open, threshold: 1.01 } };
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

Deno.test("where the spread rule finds access, the model fitted there may keep the network", () => {
  const spread = classifyNetwork(access, ev(64500, "JSC Example"));
  assertEquals(spread.reason, "access network: 312 cities in KZ");
  // The same network with the spread part's bar above 1 (never access)
  // and at 0 (always).
  const never = { ...MODEL, spread: { ...MODEL.spread, threshold: 1.01 } };
  const kept = classifyNetwork(access, ev(64500, "JSC Example"), never);
  assertEquals([kept.type, kept.filtered], ["business", false]);
  // The shipped model takes it for access: kept against it, the reason
  // says so and the confidence is low.
  ok(
    /^kept in doubt \(312 cities in KZ\); model doubts it: /.test(
      kept.reason,
    ),
    kept.reason,
  );
  ok(kept.confidence! < 0.5, `${kept.confidence}`);
  const always = { ...MODEL, spread: { ...MODEL.spread, threshold: 0 } };
  assertEquals(
    classifyNetwork(access, ev(64501, "Example Mobile Ltd"), always).reason,
    "mobile network: 312 cities in KZ",
  );
  // A national research network (CESNET's features in the bundled data):
  // a tenth of its country's space, 23 cities, most of it in early blocks
  // of at least a /16, each range in one city. The spread rule takes it for access; the
  // shipped spread part keeps it and names why.
  const institution = features({
    v4: 849920,
    v6: 524288,
    cities: 23,
    regions: 13,
    country: "CZ",
    countryShare: 0.099908,
    ranges: 20,
    topCity: 0.2063,
    mixed: 0.054,
    radius: 110,
    legacy: 0.8482,
    block: 0.8482,
    datacentre: 0.0236,
    largest: 0.1542,
    rangeSize: 92432,
    evenness: 0.8069,
    tracks: 0.4827,
    covers: 0.3267,
    orgAses: 1,
    orgShare: 0.099908,
  });
  ok(
    classifyNetwork(institution, ev(64510, "CESNET z.s.p.o."), always).reason
      .startsWith("access network: 23 cities in CZ"),
  );
  const ren = classifyNetwork(institution, ev(64510, "CESNET z.s.p.o."));
  assertEquals([ren.type, ren.filtered], ["business", false]);
  ok(
    /^not access by the model: .+ \(23 cities in CZ\)$/.test(ren.reason),
    ren.reason,
  );
  ok(ren.confidence! > 0.5, `${ren.confidence}`);
});
