// The network type of an address from evidence, in order of strength:
// an operator's override, curated lists, what the organisation calls itself,
// how its address space spreads over a country, and its reverse-DNS name.
// The fitted model (model.ts) gives each answer its confidence, and decides
// where the rules find no access evidence.
// consumer_isp and mobile are filtered out of downloads.
import type { NetworkType } from "../../shared/network_types.ts";
import type { AsFeatures } from "./as_features.ts";
import {
  describeEvidence,
  featureVector,
  MODEL,
  type ModelParams,
  NAME_WORDS,
  nameWords,
  type PartModel,
  score,
  wideSpread,
} from "./model.ts";
import { nameScores } from "./name_tokens.ts";
import { NAME_CUES } from "./name_words.ts";
import { peeringDbLogOdds } from "./peeringdb.ts";
import type { PtrHint } from "./ptr_evidence.ts";

export type NetworkKind = NetworkType;

export interface Decision {
  type: NetworkKind;
  /** consumer_isp or mobile (unless a job's keep list says otherwise). */
  filtered: boolean;
  /** A few words: why. */
  reason: string;
  /**
   * How likely the filtered/kept answer is right, 0-1: calibrated on
   * labelled networks for the curated lists and the rules (eval/README.md);
   * null where nothing measures it (a host name's cue, a user's own
   * database, a registrant).
   */
  confidence: number | null;
}

/**
 * A host name's cue overrules the network's answer; no labelled set
 * measures how often it is right, so its confidence is null.
 */
const PTR_CONFIDENCE = null;

/** An AS labelled by hand in a published data set (server/data/linnaeus_asns.txt). */
export interface LabelledAs {
  type: NetworkKind;
  /** The source's own categories, as the reason names them. */
  categories: string;
}

/** Curated AS numbers (server/data/*.txt) and hand-labelled ASes. */
export interface CuratedLists {
  consumer: Set<number>;
  mobile: Set<number>;
  hosting: Set<number>;
  transit: Set<number>;
  education: Set<number>;
  /** Linnaeus's train split, mapped (eval/README.md); the lists win. */
  labelled: Map<number, LabelledAs>;
}

export interface Evidence {
  asn: number | null;
  org: string | null;
  lists: CuratedLists;
  /** What the address's host name says (only with reverse DNS on). */
  ptr?: PtrHint;
  /** A matching line of the overrides file. */
  override?: { type: NetworkKind; line: number } | null;
  /** The job's "always keep" list matched this address. */
  keep?: boolean;
  /** The AS's PeeringDB type (only with a copy in DATA_DIR). */
  peeringDb?: string;
}

/** No AS listed: the evidence alone. */
export const NO_LISTS: CuratedLists = {
  consumer: new Set(),
  mobile: new Set(),
  hosting: new Set(),
  transit: new Set(),
  education: new Set(),
  labelled: new Map(),
};

/**
 * The type and reason a curated list or, failing one, a hand label gives an
 * AS, and whether it was a list; or null.
 */
function listAnswer(
  lists: CuratedLists,
  asn: number,
): [NetworkKind, string, boolean] | null {
  const listed = curatedAnswer(lists, asn);
  if (listed) return [...listed, true];
  const label = lists.labelled.get(asn);
  return label
    ? [label.type, `Linnaeus label: ${label.categories}`, false]
    : null;
}

function curatedAnswer(
  lists: CuratedLists,
  asn: number,
): [NetworkKind, string] | null {
  if (lists.hosting.has(asn)) return ["hosting", "curated hosting AS"];
  if (lists.education.has(asn)) {
    return ["education", "curated research & education AS"];
  }
  if (lists.transit.has(asn)) {
    return ["business", "curated transit/enterprise AS"];
  }
  if (lists.mobile.has(asn)) return ["mobile", "curated mobile AS"];
  if (lists.consumer.has(asn)) return ["consumer_isp", "curated consumer AS"];
  return null;
}

/** Features alone: an access network spread over a country, or null. */
function accessSpread(
  f: AsFeatures | null,
  operatorName: boolean,
): string | null {
  return wideSpread(f, operatorName)
    ? `access network: ${f!.cities} cities in ${f!.country}`
    : null;
}

function decision(
  type: NetworkKind,
  reason: string,
  confidence: number | null,
): Decision {
  const filtered = type === "consumer_isp" || type === "mobile";
  return {
    type,
    filtered,
    reason,
    confidence: confidence === null ? null : Math.round(confidence * 100) / 100,
  };
}

/** Joins an answer to the evidence that weighs against it. */
const DOUBT = "; model doubts it: ";

/**
 * The type from everything but the host name and the job's keep list.
 * `m`: the fitted model (its parameters; the fit passes its own).
 */
export function classifyNetwork(
  f: AsFeatures | null,
  e: Evidence,
  m: ModelParams = MODEL,
): Decision {
  if (e.override) {
    return decision(e.override.type, `override: line ${e.override.line}`, 1);
  }
  const asn = e.asn;
  const org = e.org ?? "";
  const { lists } = e;
  const listed = asn === null ? null : listAnswer(lists, asn);
  if (listed) {
    // A list or a hand label decides; where the evidence alone answers
    // otherwise the answer says so, with the confidence measured for such
    // disagreements (a network missing from the address databases has no
    // evidence).
    const [type, reason, curated] = listed;
    const filtered = type === "consumer_isp" || type === "mobile";
    const own = f ? classifyNetwork(f, { ...e, lists: NO_LISTS }, m) : null;
    const [agreed, doubted] = curated
      ? [m.listConfidence, m.listDoubtedConfidence]
      : [m.labelConfidence, m.labelDoubtedConfidence];
    if (own === null || own.filtered === filtered) {
      return decision(type, reason, agreed);
    }
    // The evidence's own answer, less its own doubt of it: that doubt leans
    // to the list's side, and saying "model doubts it" twice reads as noise.
    const answer = own.reason.split(DOUBT)[0];
    return decision(type, `${reason}${DOUBT}${answer}`, doubted);
  }
  // The rules decide; the fitted model says how likely their answer is
  // right (the probability it gives the answer the rules gave) and, when
  // it doubts them, which evidence weighs against.
  const words = nameWords(org);
  const x = featureVector(f, words, nameScores(org, m.tokens));
  const prior = peeringDbLogOdds(e.peeringDb);
  const byModel = (type: NetworkKind, reason: string) => {
    const model = score(x, m, prior);
    const filtered = type === "consumer_isp" || type === "mobile";
    const p = filtered ? model.p : 1 - model.p;
    const doubt = p < 0.5
      ? `${DOUBT}${
        describeEvidence(model.strongest, f, org, e.peeringDb, m.tokens)
      }`
      : "";
    return decision(type, reason + doubt, p);
  };
  // The cues' words were found above; which cue, in order, only if any.
  if (
    words[NAME_WORDS.education] || words[NAME_WORDS.government] ||
    words[NAME_WORDS.company]
  ) {
    for (const [re, type, label] of NAME_CUES) {
      const m = re.exec(org);
      if (m) {
        return byModel(type, `name: ${label === "company" ? m[0] : label}`);
      }
    }
  }
  if (words[NAME_WORDS.hosting]) return byModel("hosting", "name: hosting");
  if (words[NAME_WORDS.arm]) {
    return byModel("business", "name: operator's business arm");
  }
  const access = accessSpread(f, words[NAME_WORDS.operator] === 1);
  const mobile = words[NAME_WORDS.mobile] === 1;
  if (access) {
    // The spread rule finds access; the model fitted on the networks it
    // finds decides whether this is an access pool or a network built like
    // one (research & education, a public body, a carrier, a cloud), and
    // keeps it when not sure enough of an access pool.
    const where = access.slice("access network: ".length);
    return byPart(m.spread, (evidence) => [
      mobile ? `mobile network: ${where}` : access,
      evidence === null
        ? `kept in doubt (${where})`
        : `not access by the model: ${evidence} (${where})`,
    ]);
  }
  if (!f) return byModel("business", "no access evidence");
  // No rule found access: the model fitted on such networks decides (a
  // small regional ISP, a mobile operator placed in a few cities).
  return byPart(m.open, (evidence) => [
    `${mobile ? "mobile" : "access"} network by the model${
      evidence === null ? "" : `: ${evidence}`
    }`,
    `no access evidence (${f.cities} cities)`,
  ]);

  /**
   * The answer of a part of the model: filtered at its threshold, with
   * `reasons(evidence)`'s first reason, else kept with its second. The
   * evidence named is the strongest for the side the model leans to (null
   * when it leans to the other); an answer against that side says the
   * model doubts it.
   */
  function byPart(
    part: PartModel,
    reasons: (evidence: string | null) => [string, string],
  ): Decision {
    const answer = score(x, part, prior, 0.5);
    const evidence = describeEvidence(
      answer.strongest,
      f,
      org,
      e.peeringDb,
      m.tokens,
    );
    const filtered = answer.p >= part.threshold;
    const doubt = filtered !== answer.filtered ? `${DOUBT}${evidence}` : "";
    const [found, none] = reasons(
      filtered === answer.filtered ? evidence : null,
    );
    if (filtered) {
      return decision(
        mobile ? "mobile" : "consumer_isp",
        found + doubt,
        answer.p,
      );
    }
    return decision("business", none + doubt, 1 - answer.p);
  }
}

/** classifyNetwork, then the host name and the job's keep list. */
export function classify(f: AsFeatures | null, e: Evidence): Decision {
  return refine(classifyNetwork(f, e), e);
}

/**
 * What one address adds to its network's decision: its host name (unless an
 * override decided) and the job's keep list. Cheap: the network's decision
 * can be memoised per AS and this applied per address.
 */
export function refine(
  base: Decision,
  e: Pick<Evidence, "ptr" | "keep" | "override">,
): Decision {
  let d = base;
  if (e.override) {
    // an operator's rule is final
  } else if (base.filtered && e.ptr === "static") {
    d = decision(
      "business",
      `PTR looks static business (${base.reason})`,
      PTR_CONFIDENCE,
    );
  } else if (
    !base.filtered && e.ptr === "dynamic" &&
    base.reason.startsWith("no access evidence")
  ) {
    d = decision("consumer_isp", "PTR looks dynamic", PTR_CONFIDENCE);
  }
  return e.keep && d.filtered
    ? { ...d, filtered: false, reason: `always keep (${d.reason})` }
    : d;
}
