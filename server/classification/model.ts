// The fitted model: is a network an access network (consumer broadband or
// mobile, filtered) or not? Boosted stumps (an additive model: one step
// function per feature) over the AS's features (address space, ranges,
// cities, regions, countries, share of its country, share at home, largest
// city, IPv6, ranges split between cities, geographic radius, IPv6 per /24,
// early address blocks, data-centre cities), a few name words and the
// name's words as learned from labelled networks (name_tokens.ts).
// Its parameters are fitted by eval/fit_classifier.ts (`deno task
// fit:classifier`) and shipped in model_params.json; an answer carries a
// calibrated confidence and names the feature that weighed most.
import type { AsFeatures } from "./as_features.ts";
import type { NetworkType } from "../../shared/network_types.ts";
import params from "./model_params.json" with { type: "json" };
import {
  nameStems,
  strongestToken,
  type TokenTable,
  wordOfStem,
} from "./name_tokens.ts";
import {
  HOSTING,
  INFRASTRUCTURE,
  INSTITUTION,
  MOBILE,
  NAME_CUES,
  OPERATOR,
  OPERATOR_ARM,
} from "./name_words.ts";

/** Boosted stumps and their calibration: the whole model, or one part. */
export interface PartModel {
  /** The stumps: add below[i] when x[feature[i]] < cut[i], else above[i]. */
  bias: number;
  feature: number[];
  cut: number[];
  below: number[];
  above: number[];
  /** Each feature's mean part over the training data (for explanations). */
  center: number[];
  /** Calibration (Platt): p = sigmoid(a * logit + b). */
  calibration: { a: number; b: number };
  /** Filtered when the calibrated probability reaches this. */
  threshold: number;
}

export interface ModelParams extends PartModel {
  features: string[];
  /**
   * Fitted on the networks the spread rule calls access (a country's
   * share, many cities): there it tells access pools from networks built
   * like them (research & education, public bodies, carriers, clouds); a
   * network below its threshold is kept. Threshold chosen with `open`'s on
   * the cross-validation split by organisation.
   */
  spread: PartModel;
  /**
   * Fitted on the networks the rules find no access evidence for: a network
   * at its threshold is filtered (a small regional ISP, a mobile operator
   * placed in a few cities).
   */
  open: PartModel;
  /**
   * Measured share of right answers of the curated lists on labelled
   * networks, where the rules and the model (out of fold) agree with the
   * list, and where they doubt it.
   */
  listConfidence: number;
  listDoubtedConfidence: number;
  /**
   * The same for the hand labels of server/data/linnaeus_asns.txt, measured
   * against the development part's own labels.
   */
  labelConfidence: number;
  labelDoubtedConfidence: number;
  /** The name words' learned log-odds (name_tokens.ts): "name tokens". */
  tokens: TokenTable;
  /** What it was fitted on (documentation). */
  fitted: Record<string, number | string>;
}

export const MODEL: ModelParams = params;

// The name features: the classifier's cues by the type they name, each
// group one regular expression (one pass over the name).
const anyOf = (res: RegExp[]) =>
  new RegExp(res.map((re) => re.source).join("|"), "iu");
const cue = (type: NetworkType) =>
  anyOf(NAME_CUES.filter(([, t]) => t === type).map(([re]) => re));

const log2 = (n: number) => Math.log2(n + 1);

/**
 * The model's inputs from an AS's features, in MODEL.features order: each
 * one's name, its value, and its value for a network the address databases
 * lack ("no features" set, each log share at its floor).
 */
const AS_INPUTS: [
  string,
  (f: AsFeatures, operatorName: boolean) => number,
  number,
][] = [
  ["v4", (f) => log2(f.v4), 0],
  ["v6", (f) => log2(f.v6), 0],
  ["ranges", (f) => log2(f.ranges), 0],
  ["cities", (f) => log2(f.cities), 0],
  ["regions", (f) => log2(f.regions), 0],
  ["countries", (f) => log2(f.countries), 0],
  ["share", (f) => Math.log10(f.countryShare + 1e-7), -7],
  ["home", (f) => f.home, 0],
  ["top city", (f) => f.topCity, 0],
  ["cities per space", (f) => log2(f.cities) - log2(f.v4 / 256), 0],
  ["no features", () => 0, 1],
  ["spread rule", (f, operatorName) => wideSpread(f, operatorName) ? 1 : 0, 0],
  ["split ranges", (f) => f.mixed, 0],
  ["radius", (f) => log2(f.radius), 0],
  ["v6 per /24", (f) => log2(f.v6) - log2(f.v4 / 256), 0],
  ["legacy space", (f) => f.legacy, 0],
  ["largest range", (f) => f.largest, 0],
  ["range size", (f) => log2(f.rangeSize), 0],
  ["evenness", (f) => f.evenness, 0],
  ["tracks people", (f) => f.tracks, 0],
  ["covers people", (f) => f.covers, 0],
  ["early block", (f) => f.block, 0],
  ["data-centre cities", (f) => f.datacentre, 0],
  ["organisation ASes", (f) => log2(f.orgAses), 0],
  ["organisation share", (f) => Math.log10(f.orgShare + 1e-7), -7],
];

/** The name features (nameWords), by their key in NAME_WORDS. */
const NAME_INPUTS = {
  operator: ["name: operator", OPERATOR],
  mobile: ["name: mobile", MOBILE],
  hosting: ["name: hosting", HOSTING],
  arm: ["name: business arm", OPERATOR_ARM],
  education: ["name: education", cue("education")],
  government: ["name: government", cue("government")],
  company: ["name: company", cue("business")],
  infrastructure: ["name: infrastructure", INFRASTRUCTURE],
  institution: ["name: institution", INSTITUTION],
} as const;
const NAME_FEATURES: RegExp[] = Object.values(NAME_INPUTS).map(([, re]) => re);

/** The model's inputs, in MODEL.features order (see featureVector). */
export const FEATURES: string[] = [
  ...AS_INPUTS.map(([name]) => name),
  ...Object.values(NAME_INPUTS).map(([name]) => name),
  "name tokens",
  "name stems",
];

/**
 * The hand rule the model replaced, kept as one feature: an access network
 * reaches many cities or a share of its country (tuned on the labelled
 * development part); transit and multinationals spread thin over many
 * countries.
 */
export function wideSpread(
  f: AsFeatures | null,
  operatorName: boolean,
): boolean {
  if (!f?.country) return false;
  if (f.countries > 12 && f.countryShare < 0.1) return false;
  const share = f.countryShare;
  return share >= 0.02 ||
    (f.cities >= 100 && share >= 0.003) ||
    (f.cities >= 20 && share >= 0.005) ||
    (operatorName && (f.cities >= 20 || share >= 0.005));
}

/** Which name features a name has (1 or 0, in NAME_WORDS order). */
export function nameWords(org: string): number[] {
  return NAME_FEATURES.map((re) => (re.test(org) ? 1 : 0));
}

/** Indices into nameWords()'s answer. */
export const NAME_WORDS = Object.fromEntries(
  Object.keys(NAME_INPUTS).map((key, i) => [key, i]),
) as Record<keyof typeof NAME_INPUTS, number>;

/**
 * The feature values of a network; `words` is nameWords(its name), `tokens`
 * its nameScore (name_tokens.ts) under the model's table.
 */
export function featureVector(
  f: AsFeatures | null,
  words: number[],
  names: [number, number],
): number[] {
  const operatorName = words[NAME_WORDS.operator] === 1;
  return [
    ...AS_INPUTS.map(([, value, none]) => f ? value(f, operatorName) : none),
    ...words,
    ...names,
  ];
}

const sigmoid = (t: number) => 1 / (1 + Math.exp(-t));

export interface ModelAnswer {
  /** Calibrated probability that the network is an access network. */
  p: number;
  filtered: boolean;
  /** Index into FEATURES of the strongest evidence for the answer. */
  strongest: number;
}

/**
 * The stumps of each feature folded into one step function: its cuts in
 * order and the feature's part between them (steps[i] from cuts[i - 1] on),
 * so an answer is a binary search per feature, not a pass over every stump.
 */
interface Steps {
  cuts: number[];
  steps: number[];
}

function fold(m: PartModel): Steps[] {
  return m.center.map((_, j) => {
    const own = m.feature.flatMap((f, i) => (f === j ? [i] : []));
    const cuts = [...new Set(own.map((i) => m.cut[i]))].sort((a, b) => a - b);
    const at = (x: number) =>
      own.reduce((s, i) => s + (x < m.cut[i] ? m.below[i] : m.above[i]), 0);
    return {
      cuts,
      steps: [cuts.length ? at(cuts[0] - 1) : 0, ...cuts.map(at)],
    };
  });
}

const folded = new WeakMap<PartModel, Steps[]>();

/** ModelAnswer.strongest when a prior outside the fit weighed most. */
export const PRIOR = -1;

/**
 * The model's answer for one network. `prior`: log-odds of access from
 * evidence the fit never saw (PeeringDB's type), added after calibration;
 * `threshold`: where the answer turns to filtered (the model's own unless
 * given).
 */
export function score(
  x: number[],
  m: PartModel = MODEL,
  prior = 0,
  threshold = m.threshold,
): ModelAnswer {
  let steps = folded.get(m);
  if (!steps) folded.set(m, steps = fold(m));
  const part = new Array<number>(steps.length);
  let t = m.bias;
  for (let j = 0; j < steps.length; j++) {
    const { cuts } = steps[j];
    // How many cuts lie at or below x.
    let lo = 0, hi = cuts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cuts[mid] <= x[j]) lo = mid + 1;
      else hi = mid;
    }
    t += steps[j].steps[lo];
    part[j] = steps[j].steps[lo] - m.center[j];
  }
  let strongest = 0, weakest = 0;
  for (let j = 1; j < part.length; j++) {
    if (part[j] > part[strongest]) strongest = j;
    if (part[j] < part[weakest]) weakest = j;
  }
  const { a, b } = m.calibration;
  const p = sigmoid(a * t + b + prior);
  const filtered = p >= threshold;
  const own = filtered ? strongest : weakest;
  // A part in calibrated units, to weigh against the prior.
  const weight = filtered ? a * part[own] : -a * part[own];
  const priorWeight = filtered ? prior : -prior;
  return {
    p,
    filtered,
    strongest: priorWeight > 0 && priorWeight > weight ? PRIOR : own,
  };
}

const grouped = new Intl.NumberFormat("en");

/** The strongest evidence in a few words ("412 cities in DE"). */
export function describeEvidence(
  feature: number,
  f: AsFeatures | null,
  org: string,
  peeringDbType?: string,
  tokens: TokenTable = MODEL.tokens,
): string {
  if (feature === PRIOR) return `PeeringDB type "${peeringDbType}"`;
  const name = FEATURES[feature];
  if (name === "name tokens") {
    const word = strongestToken(org, tokens);
    return word === null
      ? "no name word of the labelled networks"
      : `name word "${word}" in the labelled networks`;
  }
  if (name === "name stems") {
    const stem = strongestToken(org, tokens, nameStems);
    if (stem === null) return "no word part of the labelled networks";
    // The word of the name that carries it, so the reason reads as the name.
    const part = stem.replace("~", "");
    return `name word "${wordOfStem(org, stem)}" (${
      stem.endsWith("~") ? "beginning" : "ending"
    } "${part}" as in the labelled networks)`;
  }
  if (name.startsWith("name: ")) {
    const m = NAME_FEATURES[feature - FEATURES.indexOf("name: operator")]
      .exec(org);
    return m ? `name word "${m[0]}"` : `no ${name.slice(6)} word in the name`;
  }
  if (!f) return "not in the address databases";
  const where = f.country ? ` in ${f.country}` : "";
  switch (name) {
    case "v4":
      return `${grouped.format(f.v4)} IPv4 addresses`;
    case "v6":
      return f.v6 ? `${grouped.format(f.v6)} IPv6 /48s` : "no IPv6";
    case "ranges":
      return `${grouped.format(f.ranges)} address ranges`;
    case "cities":
    case "cities per space":
    case "spread rule":
      return `${grouped.format(f.cities)} cities${where}`;
    case "regions":
      return `${f.regions} regions${where}`;
    case "countries":
      return `${f.countries} countries`;
    case "share":
      return `${(f.countryShare * 100).toFixed(2)}% of ${
        f.country || "its country"
      }'s addresses`;
    case "home":
      return `${Math.round(f.home * 100)}% of addresses in ${
        f.country || "one country"
      }`;
    case "top city":
      return `${Math.round(f.topCity * 100)}% of addresses in one city`;
    case "split ranges":
      return `${
        Math.round(f.mixed * 100)
      }% of address ranges split between cities`;
    case "radius":
      return `addresses ${grouped.format(f.radius)} km from their centre`;
    case "v6 per /24":
      return f.v6
        ? `${grouped.format(f.v6)} IPv6 /48s for ${
          grouped.format(f.v4)
        } IPv4 addresses`
        : "no IPv6";
    case "legacy space":
      return `${
        Math.round(f.legacy * 100)
      }% of addresses in early (pre-registry) blocks`;
    case "largest range":
      return `${Math.round(f.largest * 100)}% of addresses in one range`;
    case "range size":
      return `address ranges of ${
        grouped.format(f.rangeSize)
      } addresses on average`;
    case "evenness":
      return `addresses ${
        f.evenness < 0.5 ? "unevenly" : "evenly"
      } spread over ${grouped.format(f.cities)} cities`;
    case "early block":
      return `${
        Math.round(f.block * 100)
      }% of addresses in early blocks of one place`;
    case "data-centre cities":
      return `${
        Math.round(f.datacentre * 100)
      }% of networks in its cities named hosting or data centre`;
    case "organisation ASes":
      return `${f.orgAses} ASes under its name`;
    case "organisation share":
      return `its organisation's ${(f.orgShare * 100).toFixed(2)}% of ${
        f.country || "its country"
      }'s addresses`;
    case "tracks people":
    case "covers people":
      return `addresses ${f.tracks < 0.5 ? "not " : ""}where ${
        f.country || "the country"
      }'s addresses are`;
    default:
      return "no features";
  }
}
