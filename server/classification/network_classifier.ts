// The classifier as the engine uses it: features, curated lists and
// overrides loaded once; one call per address. The network's decision is
// memoised by AS number and name, so a lookup is a Map probe plus the host
// name's hint.
import type { AsnTableData } from "../enrichment/asn_table.ts";
import type { AsFeatureColumns, PlaceSource } from "./as_features.ts";
import { AsFeatureIndex } from "./as_features.ts";
import {
  classifyNetwork,
  type CuratedLists,
  type Decision,
  refine,
} from "./decide.ts";
import { loadAsFeatures } from "./feature_cache.ts";
import {
  DEFAULT_LIST_PATHS,
  type ListPaths,
  loadCuratedLists,
} from "./lists.ts";
import {
  type KeepList,
  keeps,
  loadOverrides,
  matchOverride,
  type OverrideRule,
} from "./overrides.ts";
import { ptrHint } from "./ptr_evidence.ts";

/** Structured-cloneable form, sent to workers. */
export interface NetworkClassifierData {
  features: AsFeatureColumns;
  lists: Record<keyof CuratedLists, number[]>;
  overrides: OverrideRule[];
}

export interface ClassifierSources {
  dataDir: string;
  /** The ASN and city database files: their sizes and times key the cache. */
  databasePaths: string[];
  table: AsnTableData;
  geo: PlaceSource;
  /** CLASSIFY_OVERRIDES; default DATA_DIR/overrides.txt. */
  overridesPath?: string;
  listPaths?: ListPaths;
}

export async function loadNetworkClassifierData(
  s: ClassifierSources,
): Promise<NetworkClassifierData> {
  const [features, lists, overrides] = await Promise.all([
    loadAsFeatures(s.dataDir, s.databasePaths, s.table, s.geo),
    loadCuratedLists(s.listPaths ?? DEFAULT_LIST_PATHS),
    loadOverrides(s.overridesPath ?? `${s.dataDir}/overrides.txt`),
  ]);
  return {
    features: features.index.columns,
    lists: {
      consumer: [...lists.consumer],
      mobile: [...lists.mobile],
      hosting: [...lists.hosting],
      transit: [...lists.transit],
      education: [...lists.education],
    },
    overrides,
  };
}

const MEMO_LIMIT = 100_000;

export class NetworkClassifier {
  #features: AsFeatureIndex;
  #lists: CuratedLists;
  #overrides: OverrideRule[];
  #memo = new Map<string, Decision>();

  constructor(data: NetworkClassifierData) {
    this.#features = new AsFeatureIndex(data.features);
    const set = (a: number[]) => new Set(a);
    this.#lists = {
      consumer: set(data.lists.consumer),
      mobile: set(data.lists.mobile),
      hosting: set(data.lists.hosting),
      transit: set(data.lists.transit),
      education: set(data.lists.education),
    };
    this.#overrides = data.overrides;
  }

  /**
   * The decision for one address. `hostname` is its PTR name when the job
   * looked it up; `keep` the job's "always keep" list.
   */
  classify(
    ip: string,
    asn: number | null,
    org: string | null,
    hostname: string | null = null,
    keep: KeepList | null = null,
  ): Decision {
    const rule = this.#overrides.length
      ? matchOverride(this.#overrides, ip, asn, org)
      : null;
    const override = rule ? { type: rule.type, line: rule.line } : null;
    let base: Decision;
    if (override) {
      base = classifyNetwork(null, { asn, org, lists: this.#lists, override });
    } else {
      const key = `${asn}\t${org ?? ""}`;
      const memo = this.#memo.get(key);
      if (memo) base = memo;
      else {
        const features = asn === null ? null : this.#features.get(asn);
        base = classifyNetwork(features, { asn, org, lists: this.#lists });
        if (this.#memo.size >= MEMO_LIMIT) this.#memo.clear();
        this.#memo.set(key, base);
      }
    }
    return refine(base, {
      override,
      ptr: ptrHint(hostname, ip),
      keep: keep !== null && keeps(keep, ip, asn),
    });
  }
}
