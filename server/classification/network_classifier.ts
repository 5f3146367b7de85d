// The classifier as the engine uses it: features, curated lists and
// overrides loaded once; one call per address. The network's decision is
// memoised by AS number and name, so a lookup is a Map probe plus the host
// name's hint.
import {
  type AsFeatureColumns,
  AsFeatureIndex,
  shareColumns,
  type SharedFeatureColumns,
} from "./as_features.ts";
import {
  classifyNetwork,
  type CuratedLists,
  type Decision,
  refine,
} from "./decide.ts";
import { type FeatureBuild, loadAsFeatures } from "./feature_cache.ts";
import {
  type CuratedListsData,
  DEFAULT_LIST_PATHS,
  type ListPaths,
  listsData,
  listsFromData,
  loadCuratedLists,
} from "./lists.ts";
import {
  type KeepList,
  keeps,
  loadOverrides,
  matchOverride,
  type OverrideRule,
} from "./overrides.ts";
import { loadPeeringDb, type PeeringDbTypes } from "./peeringdb.ts";
import { ptrHint } from "./ptr_evidence.ts";

/** Structured-cloneable form, sent to workers. */
export interface NetworkClassifierData {
  features: AsFeatureColumns | SharedFeatureColumns;
  lists: CuratedListsData;
  overrides: OverrideRule[];
  /** PeeringDB's network types, when DATA_DIR holds a copy. */
  peeringDb?: PeeringDbTypes | null;
}

export interface ClassifierSources {
  dataDir: string;
  /** The ASN and city database files: their sizes and times key the cache. */
  databasePaths: string[];
  /** How the AS features are built when not cached. */
  buildFeatures: FeatureBuild;
  /** CLASSIFY_OVERRIDES; default DATA_DIR/overrides.txt. */
  overridesPath?: string;
  listPaths?: ListPaths;
}

export async function loadNetworkClassifierData(
  s: ClassifierSources,
): Promise<NetworkClassifierData> {
  const [features, lists, overrides, peeringDb] = await Promise.all([
    loadAsFeatures(s.dataDir, s.databasePaths, s.buildFeatures),
    loadCuratedLists(s.listPaths ?? DEFAULT_LIST_PATHS),
    loadOverrides(s.overridesPath ?? `${s.dataDir}/overrides.txt`),
    loadPeeringDb(s.dataDir),
  ]);
  return {
    features: shareColumns(features.index.columns as AsFeatureColumns),
    lists: listsData(lists),
    overrides,
    peeringDb,
  };
}

const MEMO_LIMIT = 100_000;

export type { Decision, KeepList };

export class NetworkClassifier {
  #columns: NetworkClassifierData["features"];
  /**
   * Made when first needed: the ASN tables' networks are decided once per
   * process (network_table.ts), so a job thread may never need it.
   */
  #features: AsFeatureIndex | null = null;
  #lists: CuratedLists;
  #overrides: OverrideRule[];
  /** Rules on the AS number or name: decided once per network. */
  #networkRules: OverrideRule[];
  /** CIDR rules: an address inside a network may be decided otherwise. */
  #hasCidrRules: boolean;
  #memo = new Map<string, Decision>();
  #peeringDb: PeeringDbTypes | null;

  constructor(data: NetworkClassifierData) {
    this.#columns = data.features;
    this.#lists = listsFromData(data.lists);
    this.#overrides = data.overrides;
    this.#peeringDb = data.peeringDb ?? null;
    this.#networkRules = data.overrides.filter((rule) => !rule.cidr);
    this.#hasCidrRules = this.#networkRules.length < data.overrides.length;
  }

  /** A transit/carrier AS (curated list): it may rent blocks to customers. */
  isCarrier(asn: number): boolean {
    return this.#lists.transit.has(asn);
  }

  get overrideCount(): number {
    return this.#overrides.length;
  }

  /**
   * The decision for a network (AS number and name), from the AS and name
   * overrides, the curated lists, the name and the AS's features. Memoised.
   */
  network(asn: number | null, org: string | null): Decision {
    const key = `${asn}\t${org ?? ""}`;
    const memo = this.#memo.get(key);
    if (memo) return memo;
    const rule = this.#networkRules.length
      ? matchOverride(this.#networkRules, "", asn, org)
      : null;
    const override = rule ? { type: rule.type, line: rule.line } : null;
    const features = asn === null || override
      ? null
      : (this.#features ??= new AsFeatureIndex(this.#columns)).get(asn);
    const base = classifyNetwork(features, {
      asn,
      org,
      lists: this.#lists,
      override,
      peeringDb: asn === null ? undefined : this.#peeringDb?.[asn],
    });
    if (this.#memo.size >= MEMO_LIMIT) this.#memo.clear();
    this.#memo.set(key, base);
    return base;
  }

  /** True when `address` can change a network's decision for this input. */
  needsAddress(hostname: string | null, keep: KeepList | null): boolean {
    return hostname !== null || keep !== null || this.#hasCidrRules;
  }

  /**
   * What one address changes in its network's decision `base`: a CIDR
   * override, its PTR name (`hostname`, when looked up) and the job's
   * "always keep" list. Returns `base` itself when nothing changes.
   */
  address(
    base: Decision,
    ip: string,
    asn: number | null,
    org: string | null,
    hostname: string | null = null,
    keep: KeepList | null = null,
  ): Decision {
    let override: { type: Decision["type"]; line: number } | null = null;
    if (this.#hasCidrRules) {
      // The first matching line of the whole file wins, CIDR or not.
      const rule = matchOverride(this.#overrides, ip, asn, org);
      if (rule?.cidr) {
        override = { type: rule.type, line: rule.line };
        base = classifyNetwork(null, {
          asn,
          org,
          lists: this.#lists,
          override,
        });
      }
    }
    if (!override && base.reason.startsWith("override:")) {
      override = { type: base.type, line: 0 };
    }
    const decided = refine(base, {
      override,
      ptr: hostname === null ? null : ptrHint(hostname, ip),
      keep: keep !== null && keeps(keep, ip, asn),
    });
    return decided.type === base.type && decided.reason === base.reason
      ? base
      : decided;
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
    return this.address(this.network(asn, org), ip, asn, org, hostname, keep);
  }
}
