// The classifier's training and evaluation data, and its fit: examples from
// the labelled set's development part (networks.csv), the curated lists
// (server/data/*.txt) and the Linnaeus labels' train split (linnaeus.ts),
// never networks.csv's held-out part nor an organisation of Linnaeus's
// validation split; boosted stumps over
// model.ts's features, calibrated on out-of-fold answers of a
// cross-validation split by organisation (no AS of one organisation on both
// sides), and the threshold that keeps the filter's precision.
import Papa from "papaparse";
import { stringAt } from "../server/enrichment/shared_file.ts";
import {
  AsFeatureIndex,
  type AsFeatures,
  buildAsFeatures,
} from "../server/classification/as_features.ts";
import { loadAsFeatures } from "../server/classification/feature_cache.ts";
import { loadCuratedLists } from "../server/classification/lists.ts";
import {
  FEATURES,
  featureVector,
  MODEL,
  type ModelParams,
  nameWords,
  type PartModel,
} from "../server/classification/model.ts";
import {
  classifyNetwork,
  type CuratedLists,
  type Decision,
  type NetworkKind,
  NO_LISTS,
} from "../server/classification/decide.ts";
import { ASN_PATHS, GEO_PATHS, loadBundled } from "./bundled.ts";
import { loadLinnaeus } from "./linnaeus.ts";
import {
  nameStems,
  nameTokens,
  type TokenTable,
} from "../server/classification/name_tokens.ts";
import { fitLogistic } from "./logistic.ts";
import { fitStumps, STUMP_DEFAULTS, stumpLogit } from "./stumps.ts";

const here = new URL(".", import.meta.url).pathname;

export interface LabelledRow {
  asn: string;
  sample_ip: string;
  country: string;
  org: string;
  label: NetworkKind;
  label_source: string;
  split: "dev" | "heldout";
}

export interface Example {
  asn: number;
  org: string;
  /** Organisation key: ASes of one organisation share it. */
  group: string;
  /** consumer_isp or mobile. */
  filtered: boolean;
  from: "label" | "list" | "linnaeus";
  features: AsFeatures | null;
  x: number[];
}

/** The filtered decision's target: of networks filtered, this many right. */
export const TARGET_PRECISION = 0.97;
const FOLDS = 5;

export async function loadTrainingData() {
  const { data, table, geo } = await loadBundled();
  const dataDir = Deno.env.get("DATA_DIR") ?? `${here}../data`;
  const loaded = await loadAsFeatures(
    dataDir,
    [...ASN_PATHS, ...GEO_PATHS],
    () => buildAsFeatures(data, geo),
  );
  const orgOf = new Map<number, string>();
  data.asns.forEach((asn, i) => {
    if (!orgOf.has(asn)) orgOf.set(asn, stringAt(data.orgs, i));
  });
  const rows = Papa.parse<LabelledRow>(
    await Deno.readTextFile(`${here}networks.csv`),
    { header: true, skipEmptyLines: true },
  ).data;
  const lists = await loadCuratedLists();
  const linnaeus = await loadLinnaeus();
  return {
    features: loaded.index,
    loaded,
    orgOf,
    rows,
    lists,
    linnaeus,
    table,
  };
}

export type TrainingData = Awaited<ReturnType<typeof loadTrainingData>>;

const LEGAL = new Set([
  "llc",
  "inc",
  "ltd",
  "limited",
  "co",
  "corp",
  "corporation",
  "company",
  "gmbh",
  "ag",
  "sa",
  "s",
  "a",
  "de",
  "cv",
  "srl",
  "spa",
  "bv",
  "nv",
  "plc",
  "pty",
  "ab",
  "as",
  "oy",
  "kk",
  "jsc",
  "pjsc",
  "ooo",
  "the",
  "l",
  "p",
  "lp",
]);

/** "Comcast Cable Communications, LLC" -> "comcast cable". */
export function organisationKey(org: string): string {
  const words = org.toLowerCase().normalize("NFKD").replace(
    /[^\p{L}\p{N}]+/gu,
    " ",
  )
    .split(" ").filter((w) => w && !LEGAL.has(w));
  return words.slice(0, 2).join(" ") || org;
}

/**
 * What no fit may see: networks.csv's held-out part (by AS number) and
 * Linnaeus's validation and test splits, by AS number and by organisation
 * (organisationKey), so that no organisation is on both sides.
 */
export function outOfTraining(d: TrainingData) {
  const asns = new Set<number>();
  const groups = new Set<string>();
  for (const row of d.rows) {
    if (row.split === "heldout") asns.add(Number(row.asn));
  }
  for (const label of d.linnaeus) {
    if (label.split === "train") continue;
    asns.add(label.asn);
    const org = d.orgOf.get(label.asn);
    if (org !== undefined) groups.add(organisationKey(org));
  }
  return { asns, groups };
}

/**
 * Training examples: every labelled development network (its label wins),
 * every curated AS, then every AS of Linnaeus's train split (the lists,
 * reviewed against it, win where they still disagree), less what
 * outOfTraining names.
 */
export function trainingExamples(d: TrainingData): Example[] {
  const out = outOfTraining(d);
  const byAsn = new Map<number, Example>();
  const add = (asn: number, filtered: boolean, from: Example["from"]) => {
    if (out.asns.has(asn) || byAsn.has(asn)) return;
    const org = d.orgOf.get(asn);
    if (org === undefined) return; // not in the bundled data
    const group = organisationKey(org);
    if (out.groups.has(group)) return;
    byAsn.set(asn, {
      asn,
      org,
      group,
      filtered,
      from,
      features: d.features.get(asn),
      x: featureVector(d.features.get(asn), nameWords(org), [0, 0]),
    });
  };
  for (const row of d.rows) {
    if (row.split !== "dev") continue;
    add(
      Number(row.asn),
      row.label === "consumer_isp" || row.label === "mobile",
      "label",
    );
  }
  const l = d.lists;
  for (const asn of [...l.consumer, ...l.mobile]) add(asn, true, "list");
  for (const asn of [...l.hosting, ...l.transit, ...l.education]) {
    add(asn, false, "list");
  }
  for (const label of d.linnaeus) {
    if (label.split === "train") add(label.asn, label.filtered, "linnaeus");
  }
  return withNameScores([...byAsn.values()]).examples;
}

/** Smoothing of a name word's log-odds towards the prior, in organisations. */
const TOKEN_SMOOTHING = 4;
/** Fewest organisations a name word must be seen in to be learned. */
const TOKEN_MIN_ORGANISATIONS = 2;
/** The learned name features and the words each reads. */
const NAME_SCORES = [
  [FEATURES.indexOf("name tokens"), nameTokens],
  [FEATURES.indexOf("name stems"), nameStems],
] as const;

/**
 * The name-word table (name_tokens.ts: words and stems) fitted on
 * `examples`, each organisation weighing one whatever its number of ASes,
 * and the examples with their "name tokens" and "name stems" features
 * scored without their own organisation's networks (what the fit has
 * learned of a name it has not seen).
 */
export function withNameScores(
  examples: Example[],
): { examples: Example[]; table: TokenTable } {
  const table: TokenTable = {};
  const xs = examples.map((e) => [...e.x]);
  for (const [feature, of] of NAME_SCORES) {
    const learned = learnWords(examples, of);
    Object.assign(table, learned.table);
    learned.scores.forEach((score, i) => (xs[i][feature] = score));
  }
  const sorted: TokenTable = {};
  for (const w of Object.keys(table).sort()) sorted[w] = table[w];
  return {
    table: sorted,
    examples: examples.map((e, i) => ({ ...e, x: xs[i] })),
  };
}

/** One name feature's table and each example's out-of-organisation score. */
function learnWords(examples: Example[], of: (org: string) => string[]) {
  const size = new Map<string, number>();
  for (const e of examples) size.set(e.group, (size.get(e.group) ?? 0) + 1);
  // word -> [not access, access] weights and organisations, overall and by
  // organisation
  const all = new Map<string, [number, number, number]>();
  const own = new Map<string, Map<string, [number, number, number]>>();
  const words = examples.map((e) => of(e.org));
  const add = (
    m: Map<string, [number, number, number]>,
    w: string,
    label: number,
    weight: number,
    orgs: number,
  ) => {
    const c = m.get(w) ?? [0, 0, 0];
    c[label] += weight;
    c[2] += orgs;
    m.set(w, c);
  };
  examples.forEach((e, i) => {
    let mine = own.get(e.group);
    if (!mine) own.set(e.group, mine = new Map());
    for (const w of words[i]) {
      const first = !mine.has(w);
      add(mine, w, e.filtered ? 1 : 0, 1 / size.get(e.group)!, first ? 1 : 0);
    }
  });
  for (const mine of own.values()) {
    for (const [w, c] of mine) {
      add(all, w, 0, c[0], c[2]);
      add(all, w, 1, c[1], 0);
    }
  }
  let access = 0;
  examples.forEach((e) => access += e.filtered ? 1 / size.get(e.group)! : 0);
  const prior = access / size.size;
  const logOdds = (c: [number, number, number]) =>
    Math.round(
      1000 * Math.log(
            (c[1] + TOKEN_SMOOTHING * prior) /
              (c[0] + TOKEN_SMOOTHING * (1 - prior)),
          ) - 1000 * Math.log(prior / (1 - prior)),
    ) / 1000;
  const table: TokenTable = {};
  for (const [w, c] of all) {
    if (c[2] >= TOKEN_MIN_ORGANISATIONS) table[w] = logOdds(c);
  }
  const scores = examples.map((e, i) => {
    const mine = own.get(e.group)!;
    let score = 0;
    for (const w of words[i]) {
      const c = all.get(w)!, m = mine.get(w)!;
      const rest: [number, number, number] = [
        c[0] - m[0],
        c[1] - m[1],
        c[2] - m[2],
      ];
      if (rest[2] >= TOKEN_MIN_ORGANISATIONS) score += logOdds(rest);
    }
    return score;
  });
  return { table, scores };
}

/** The lists without these AS numbers (so the model answers for them). */
export function listsWithout(
  lists: CuratedLists,
  asns: Set<number>,
): CuratedLists {
  const without = (s: Set<number>) =>
    new Set([...s].filter((a) => !asns.has(a)));
  return {
    consumer: without(lists.consumer),
    mobile: without(lists.mobile),
    hosting: without(lists.hosting),
    transit: without(lists.transit),
    education: without(lists.education),
    labelled: new Map(
      [...lists.labelled].filter(([asn]) => !asns.has(asn)),
    ),
  };
}

function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (const c of text) {
    h ^= c.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * The fold of an example: by organisation, or by AS number alone. `seed`
 * (0: the split every fit uses) reshuffles the folds, an organisation's
 * ASes still together, for a cross-validation repeated over other splits.
 */
export function foldOf(
  e: Example,
  by: "organisation" | "as",
  seed = 0,
): number {
  const key = by === "organisation" ? e.group : String(e.asn);
  return fnv(seed ? `${key}#${seed}` : key) % FOLDS;
}

function fitRaw(train: Example[]) {
  const m = fitStumps(
    train.map((e) => e.x),
    train.map((e) => (e.filtered ? 1 : 0)),
  );
  return { m, logit: (x: number[]) => stumpLogit(m, x) };
}

/** Each example's logit from a model fitted without its fold. */
export function outOfFold(
  examples: Example[],
  by: "organisation" | "as",
): number[] {
  const out = new Array(examples.length).fill(0);
  for (let k = 0; k < FOLDS; k++) {
    const train = examples.filter((e) => foldOf(e, by) !== k);
    const fitted = fitRaw(train);
    examples.forEach((e, i) => {
      if (foldOf(e, by) === k) out[i] = fitted.logit(e.x);
    });
  }
  return out;
}

/** Precision and recall of the filter at threshold t on probabilities p. */
export function precisionRecall(p: number[], y: boolean[], t: number) {
  let tp = 0, fp = 0, fn = 0;
  p.forEach((v, i) => {
    if (v >= t && y[i]) tp++;
    else if (v >= t) fp++;
    else if (y[i]) fn++;
  });
  return {
    precision: tp / (tp + fp || 1),
    recall: tp / (tp + fn || 1),
    tp,
    fp,
    fn,
  };
}

/** A fitted part of the model and its out-of-fold probabilities. */
interface FittedPart {
  model: Omit<PartModel, "threshold">;
  /** Calibrated out-of-fold probability of each example fitted on. */
  p: number[];
  logits: number[];
}

/** Stumps fitted on `examples`, calibrated on their out-of-fold logits. */
function fitPart(examples: Example[]): FittedPart {
  const y = examples.map((e) => e.filtered);
  const oof = outOfFold(examples, "organisation");
  const platt = fitLogistic(oof.map((t) => [t]), y.map(Number), 1e-6);
  const a = platt.weights[0], b = platt.bias;
  const p = oof.map((t) => 1 / (1 + Math.exp(-(a * t + b))));
  const { m } = fitRaw(examples);
  // Each feature's mean part over the training data: an answer names the
  // feature whose part lies furthest from it.
  const center = new Array(FEATURES.length).fill(0);
  for (const e of examples) {
    m.feature.forEach((f, i) => {
      center[f] += (e.x[f] < m.cut[i] ? m.below[i] : m.above[i]) /
        examples.length;
    });
  }
  return {
    model: {
      bias: round(m.bias),
      feature: m.feature,
      cut: m.cut.map(round),
      below: m.below.map(round),
      above: m.above.map(round),
      center: center.map(round),
      calibration: { a: round(a), b: round(b) },
    },
    p,
    logits: oof,
  };
}

/** Fits the shipped model on `examples`. */
export function fitModel(
  given: Example[],
  listed: (asn: number) => boolean | null = () => null,
  labelled: (asn: number) => boolean | null = () => null,
): ModelParams {
  const { examples, table } = withNameScores(given);
  const y = examples.map((e) => e.filtered);
  const whole = fitPart(examples);
  // The lowest threshold whose out-of-fold precision holds the target.
  let threshold = 0.5;
  for (const t of [...new Set(whole.p)].sort((u, v) => u - v)) {
    if (t < 0.5) continue;
    if (precisionRecall(whole.p, y, t).precision >= TARGET_PRECISION) {
      threshold = t;
      break;
    }
  }
  // A part of the model for each answer of the rules the model may change.
  const rules = examples.map(rulesAlone);
  const parts = rules.map(partOf);
  const p = [...whole.p];
  const fitted = (part: "spread" | "open") => {
    const own = examples.flatMap((_, i) => (parts[i] === part ? [i] : []));
    const f = fitPart(own.map((i) => examples[i]));
    own.forEach((i, k) => (p[i] = f.p[k]));
    return { ...f, examples: own.length };
  };
  const spread = fitted("spread");
  const open = fitted("open");
  const t = partThresholds(y, rules, p);
  const decided = (i: number) => combined(rules[i], p[i], t);
  // The lists on every labelled network; the hand labels on the
  // development part's own labels (on their own they would be the truth).
  const lists = listConfidence(
    examples,
    listed,
    decided,
    (e) => e.from !== "list",
  );
  const labels = listConfidence(
    examples,
    labelled,
    decided,
    (e) => e.from === "label",
  );
  const sources = (from: Example["from"]) =>
    examples.filter((e) => e.from === from).length;
  return {
    features: [...FEATURES],
    ...whole.model,
    threshold: round(threshold),
    spread: { ...spread.model, threshold: t.spread },
    open: { ...open.model, threshold: t.open },
    listConfidence: round(lists.agreed),
    listDoubtedConfidence: round(lists.doubted),
    labelConfidence: round(labels.agreed),
    labelDoubtedConfidence: round(labels.doubted),
    tokens: table,
    fitted: {
      examples: examples.length,
      filtered: y.filter(Boolean).length,
      fromLabels: sources("label"),
      fromLists: sources("list"),
      fromLinnaeus: sources("linnaeus"),
      spreadExamples: spread.examples,
      openExamples: open.examples,
      ...STUMP_DEFAULTS,
      folds: FOLDS,
      tokenSmoothing: TOKEN_SMOOTHING,
      tokenMinOrganisations: TOKEN_MIN_ORGANISATIONS,
    },
  };
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** A part that answers 0.5 for every network, filtering at `threshold`. */
const neutral = (threshold: number): PartModel => ({
  bias: 0,
  feature: [],
  cut: [],
  below: [],
  above: [],
  center: FEATURES.map(() => 0),
  calibration: { a: 1, b: 0 },
  threshold,
});
const RULES_ONLY: ModelParams = {
  ...MODEL,
  spread: neutral(0),
  open: neutral(2),
};

/** The rules' answer alone: no list answering, the model never deciding. */
export function rulesAlone(e: Example): Decision {
  return classifyNetwork(
    e.features,
    { asn: e.asn, org: e.org, lists: NO_LISTS },
    RULES_ONLY,
  );
}

/**
 * Which part of the model decides after the rules: `spread` where the
 * spread rule found access, `open` where no rule found access evidence in
 * a network's features, none where a name or the lack of features decided.
 */
export type Part = "spread" | "open" | null;
export function partOf(rules: Decision): Part {
  if (/^(access|mobile) network: /.test(rules.reason)) return "spread";
  if (rules.reason.startsWith("no access evidence (")) return "open";
  return null;
}

/**
 * The decision as shipped: the rules, then the model's part for that
 * answer at its threshold (`p`: that part's probability of access).
 */
export function combined(
  rules: Decision,
  p: number,
  t: { spread: number; open: number },
): boolean {
  const part = partOf(rules);
  return part === null ? rules.filtered : p >= t[part];
}

/**
 * Each example's out-of-fold probability of access from the model's part
 * for its rules' answer (the whole model where no part decides),
 * calibrated as the shipped parts are: what the cross-validation measures.
 */
export function outOfFoldParts(
  examples: Example[],
  rules: Decision[],
  by: "organisation" | "as",
  m: ModelParams = MODEL,
): number[] {
  const calibrated = (c: { a: number; b: number }) => (t: number) =>
    1 / (1 + Math.exp(-(c.a * t + c.b)));
  const p = outOfFold(examples, by).map(calibrated(m.calibration));
  for (const part of ["spread", "open"] as const) {
    const own = examples.flatMap((_, i) =>
      partOf(rules[i]) === part ? [i] : []
    );
    const logits = outOfFold(own.map((i) => examples[i]), by);
    own.forEach((i, k) => (p[i] = calibrated(m[part].calibration)(logits[k])));
  }
  return p;
}

/**
 * The thresholds of the model's parts: of the candidates, the pair whose
 * combined decision on the out-of-fold probabilities `p` has the best
 * recall among those holding TARGET_PRECISION, else the best F0.5 (losing a
 * business costs more than keeping a household); ties: the better
 * precision, then the first found. The spread part may keep a network
 * where it leans against access or doubts it (below 0.75: when in doubt,
 * keep), the open part filter one only where it leans to access (0.5 and
 * above).
 */
export function partThresholds(
  y: boolean[],
  rules: Decision[],
  p: number[],
): { spread: number; open: number } {
  // Ranked by: holds the target precision, then recall where it does (F0.5,
  // which weighs precision most, where none does), then precision.
  let best = { spread: 0, open: 2, rank: [-1, -1, -1] };
  const better = (a: number[], b: number[]) => {
    for (let i = 0; i < a.length; i++) {
      if (a[i] > b[i] + 1e-9) return true;
      if (a[i] < b[i] - 1e-9) return false;
    }
    return false;
  };
  for (let s = 0; s <= 15; s++) {
    for (let o = 10; o <= 19; o++) {
      const t = { spread: s / 20, open: o / 20 };
      let tp = 0, fp = 0, fn = 0;
      y.forEach((truth, i) => {
        const f = combined(rules[i], p[i], t);
        if (f && truth) tp++;
        else if (f) fp++;
        else if (truth) fn++;
      });
      const precision = tp / (tp + fp || 1);
      const holds = precision >= TARGET_PRECISION ? 1 : 0;
      const rank = [
        holds,
        holds ? tp / (tp + fn || 1) : 1.25 * tp / (1.25 * tp + fp + 0.25 * fn),
        precision,
      ];
      if (better(rank, best.rank)) best = { ...t, rank };
    }
  }
  return { spread: best.spread, open: best.open };
}

/**
 * The shipped decision for each example (no list answering) with the whole
 * fit (the parts, their calibration and thresholds) made without its fold:
 * a cross-validation in which no setting saw the networks it is measured
 * on. `seed`: which split (foldOf; 0 the usual one).
 */
export function nestedDecisions(
  examples: Example[],
  by: "organisation" | "as",
  seed = 0,
): Decision[] {
  const out: Decision[] = new Array(examples.length);
  for (let k = 0; k < FOLDS; k++) {
    const params = fitModel(
      examples.filter((e) => foldOf(e, by, seed) !== k),
    );
    examples.forEach((e, i) => {
      if (foldOf(e, by, seed) !== k) return;
      out[i] = classifyNetwork(
        e.features,
        { asn: e.asn, org: e.org, lists: NO_LISTS },
        params,
      );
    });
  }
  return out;
}

/**
 * What a curated list is: filtered (consumer, mobile), kept (hosting,
 * transit, education) or null (not listed).
 */
export function listedAs(lists: CuratedLists) {
  return (asn: number): boolean | null =>
    lists.consumer.has(asn) || lists.mobile.has(asn)
      ? true
      : lists.hosting.has(asn) || lists.transit.has(asn) ||
          lists.education.has(asn)
      ? false
      : null;
}

/**
 * What Linnaeus's train split (the table the classifier ships) calls a
 * network: filtered, kept, or null (not labelled there).
 */
export function labelledAs(d: TrainingData) {
  const train = new Map(
    d.linnaeus.filter((l) => l.split === "train").map((l) => [
      l.asn,
      l.filtered,
    ]),
  );
  return (asn: number): boolean | null => train.get(asn) ?? null;
}

/**
 * Of the examples `counted` that a list decides, the share it decides right
 * where the rules and the model (out of fold: `decided(i)`) agree with it,
 * and where they doubt it; Laplace-smoothed (one wrong answer assumed
 * beyond those seen).
 */
function listConfidence(
  examples: Example[],
  listed: (asn: number) => boolean | null,
  decided: (i: number) => boolean,
  counted: (e: Example) => boolean,
) {
  const count = { agreed: [0, 0], doubted: [0, 0] };
  examples.forEach((e, i) => {
    const list = listed(e.asn);
    if (!counted(e) || list === null) return;
    const c = decided(i) === list ? count.agreed : count.doubted;
    c[0] += list === e.filtered ? 1 : 0;
    c[1]++;
  });
  const share = ([right, all]: number[]) => (right + 1) / (all + 2);
  return { agreed: share(count.agreed), doubted: share(count.doubted) };
}

export { AsFeatureIndex };
