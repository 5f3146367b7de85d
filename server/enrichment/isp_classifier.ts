// The previous classifier (curated consumer/hosting AS numbers, then
// whole-word name rules). The engine no longer uses it: it is kept only so
// the evaluation (eval/classifier_eval.ts) can compare the evidence-based
// classifier in server/classification/ against it.
import { parseAsnList } from "../classification/lists.ts";

export type NetworkType =
  | "consumer_isp"
  | "hosting"
  | "education"
  | "government"
  | "business";

export interface Classification {
  networkType: NetworkType;
  /** Consumer access network: the row is left out of downloads. */
  consumer: boolean;
}

/** Structured-cloneable form, sent to workers. */
export interface ClassifierData {
  consumerAsns: number[];
  hostingAsns: number[];
}

// Whole words only: "Coxhealth", "Abbott Laboratories" and "Campbell Soup"
// must not match "Cox", "AT&T" or "Bell".
const words = (list: string[]) =>
  new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${list.join("|")})(?![\\p{L}\\p{N}])`,
    "iu",
  );

const CONSUMER_NAMES = words([
  "comcast",
  "xfinity",
  "charter communications",
  "spectrum",
  "cox communications",
  "verizon",
  "at&t",
  "t-mobile",
  "telstra",
  "optus",
  "british telecommunications",
  "virgin media",
  "sky broadband",
  "deutsche telekom",
  "vodafone",
  "telefonica",
  "telefónica",
  "movistar",
  "orange",
  "rogers",
  "bell canada",
  "broadband",
  "dsl",
  "adsl",
  "ftth",
  "cable ?tv",
  "catv",
  "mobile",
  "cellular",
  "wireless",
  "residential",
  "dial-?up",
]);
const HOSTING_NAMES = words([
  "hosting",
  "host",
  "cloud",
  "data ?cent(?:er|re)s?",
  "datacenter",
  "servers?",
  "vps",
  "colocation",
  "cdn",
]);
const EDUCATION_NAMES = words([
  "universit(?:y|ies|ät|at|é|e|a|ad|ade|eit)",
  "colleges?",
  "schools?",
  "academy",
  "institute of technology",
  "research and education",
  "education(?:al)? network",
]);
const GOVERNMENT_NAMES = words([
  "government",
  "ministry",
  "ministerio",
  "federal",
  "municipality",
  "city of",
  "county of",
  "state of",
]);

/** Parses "ASN COUNTRY Name  # comment" lines; blank and # lines are skipped. */
export async function loadClassifierData(
  consumerPath: string,
  hostingPath: string,
): Promise<ClassifierData> {
  const read = async (path: string) => {
    try {
      return parseAsnList(await Deno.readTextFile(path));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new Error(`ISP list not found: ${path}`);
      }
      throw error;
    }
  };
  return {
    consumerAsns: await read(consumerPath),
    hostingAsns: await read(hostingPath),
  };
}

export class IspClassifier {
  #consumer: Set<number>;
  #hosting: Set<number>;

  constructor(data: ClassifierData) {
    this.#consumer = new Set(data.consumerAsns);
    this.#hosting = new Set(data.hostingAsns);
  }

  get consumerCount(): number {
    return this.#consumer.size;
  }

  classify(asn: number | null, org: string | null): Classification | null {
    if (asn === null && !org) return null;
    if (asn !== null && this.#consumer.has(asn)) {
      return { networkType: "consumer_isp", consumer: true };
    }
    if (asn !== null && this.#hosting.has(asn)) {
      return { networkType: "hosting", consumer: false };
    }
    const name = org ?? "";
    if (HOSTING_NAMES.test(name)) {
      return { networkType: "hosting", consumer: false };
    }
    if (EDUCATION_NAMES.test(name)) {
      return { networkType: "education", consumer: false };
    }
    if (GOVERNMENT_NAMES.test(name)) {
      return { networkType: "government", consumer: false };
    }
    if (CONSUMER_NAMES.test(name)) {
      return { networkType: "consumer_isp", consumer: true };
    }
    return { networkType: "business", consumer: false };
  }
}
