// The network type of an address from evidence, in order of strength:
// an operator's override, curated lists, what the organisation calls itself,
// how its address space spreads over a country, and its reverse-DNS name.
// consumer_isp and mobile are filtered out of downloads.
import type { NetworkType } from "../../shared/network_types.ts";
import type { AsFeatures } from "./as_features.ts";
import type { PtrHint } from "./ptr_evidence.ts";

export type NetworkKind = NetworkType;

export interface Decision {
  type: NetworkKind;
  /** consumer_isp or mobile (unless a job's keep list says otherwise). */
  filtered: boolean;
  /** A few words: why. */
  reason: string;
}

/** Curated AS numbers (server/data/*.txt). */
export interface CuratedLists {
  consumer: Set<number>;
  mobile: Set<number>;
  hosting: Set<number>;
  transit: Set<number>;
  education: Set<number>;
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
}

// Whole words of what an organisation calls itself. Brand words (Cox,
// Orange, Sky, Bell...) are deliberately absent: they say nothing.
const w = (source: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, "iu");

const NAME_CUES: [RegExp, NetworkKind, string][] = [
  [
    w("ministry|ministerio|minist[eè]re|government|gouvernement|department of defen[cs]e|DoD"),
    "government",
    "Ministry/Government",
  ],
  [
    w("universit(?:y|ies|ät|at|é|e|a|ad|ade|eit|as)|college|school district|public schools|schools?|academy|hochschule|polytechnic|institute of technology|education(?:al)? network"),
    "education",
    "University/School",
  ],
  [
    w("research|academic|forschung\\w*|ensino|pesquisa|scientific"),
    "education",
    "research & education",
  ],
  [
    w("hospital|klinikum|clinic|health(?:care)?|medical cent(?:er|re)"),
    "business",
    "Hospital/Health",
  ],
  [
    w("bank|banka|banco|insurance|mutual|capital|financial|credit union"),
    "business",
    "Bank/Finance",
  ],
  [
    w("laborator(?:y|ies)|motors?|manufacturing|industries|airlines?|hotels?|casino|construction|semiconductor|chemicals?|llp|law|electronics|automotive|automoveis|engineering|security|distribution|controls|outdoors|video"),
    "business",
    "company",
  ],
  [
    w("county|city of|city council|borough council|municipality|municipal|kommune|gemeente|stadt|library|fire authority|sanitation district|comptroller|prosecutor|ministerio publico|metropolitan government|state of"),
    "government",
    "public body",
  ],
];
const HOSTING = w(
  "hosting|host|cloud|data ?cent(?:er|re)s?|datacenter|servers?|vps|colocation|cdn",
);
const OPERATOR_ARM = w(
  "business|enterprise|international transit|wholesale|global solutions|group services|global services|carrier",
);
const OPERATOR = w(
  "tele[ck]om\\w*|telecommunica\\w*|telekomunik\\w*|communications?|comunica\\w*|broadband|cable|internet|net|telephone|telefonica|telefónica|mobile|mobil|cellular|wireless|gsm|3g|celular|catv|fibra|fibre|fiber",
);
const MOBILE = w("mobile|mobil|cellular|celular|wireless|gsm|3g|lte");

/** Features alone: an access network spread over a country, or null. */
function accessSpread(
  f: AsFeatures | null,
  operatorName: boolean,
): string | null {
  if (!f || !f.country) return null;
  // Transit carriers and multinationals span many countries with a small
  // share of each; an incumbent keeps a large share of its own country
  // even where geolocation scatters some of its ranges abroad.
  if (f.countries > 12 && f.countryShare < 0.1) return null;
  const share = f.countryShare;
  const wide = share >= 0.02 ||
    (f.cities >= 100 && share >= 0.003) ||
    (f.cities >= 20 && share >= 0.005) ||
    (operatorName && (f.cities >= 20 || share >= 0.005));
  return wide ? `access network: ${f.cities} cities in ${f.country}` : null;
}

function decision(type: NetworkKind, reason: string): Decision {
  return {
    type,
    filtered: type === "consumer_isp" || type === "mobile",
    reason,
  };
}

/** The type from everything but the host name and the job's keep list. */
export function classifyNetwork(f: AsFeatures | null, e: Evidence): Decision {
  if (e.override) {
    return decision(e.override.type, `override: line ${e.override.line}`);
  }
  const asn = e.asn;
  const org = e.org ?? "";
  const { lists } = e;
  if (asn !== null) {
    if (lists.hosting.has(asn)) {
      return decision("hosting", "curated hosting AS");
    }
    if (lists.education.has(asn)) {
      return decision("education", "curated research & education AS");
    }
    if (lists.transit.has(asn)) {
      return decision("business", "curated transit/enterprise AS");
    }
    if (lists.mobile.has(asn)) return decision("mobile", "curated mobile AS");
    if (lists.consumer.has(asn)) {
      return decision("consumer_isp", "curated consumer AS");
    }
  }
  for (const [re, type, label] of NAME_CUES) {
    const m = re.exec(org);
    if (m) return decision(type, `name: ${label === "company" ? m[0] : label}`);
  }
  if (HOSTING.test(org)) return decision("hosting", "name: hosting");
  if (OPERATOR_ARM.test(org)) {
    return decision("business", "name: operator's business arm");
  }
  const operatorName = OPERATOR.test(org);
  const access = accessSpread(f, operatorName);
  if (access) {
    return MOBILE.test(org)
      ? decision("mobile", access.replace("access", "mobile"))
      : decision("consumer_isp", access);
  }
  return decision(
    "business",
    f ? `no access evidence (${f.cities} cities)` : "no access evidence",
  );
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
    d = decision("business", `PTR looks static business (${base.reason})`);
  } else if (
    !base.filtered && e.ptr === "dynamic" &&
    base.reason.startsWith("no access evidence")
  ) {
    d = decision("consumer_isp", "PTR looks dynamic");
  }
  return e.keep && d.filtered
    ? { ...d, filtered: false, reason: `always keep (${d.reason})` }
    : d;
}
