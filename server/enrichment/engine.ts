// The enrichment engine: one entry point for the job runner, the lookup API
// and the benchmark. Free of HTTP and storage.
import { type AsnInfo, AsnTable, type AsnTableData } from "./asn_table.ts";
import { loadAsnTableOnThread } from "./asn_load.ts";
import {
  CACHED_PLACES,
  GeoProvider,
  loadGeoDatabases,
  type Place,
} from "./geo_provider.ts";
import {
  ipv4ToNumber,
  ipv6ToWords,
  type ParsedIp,
  parseIp,
} from "./ip_input.ts";
import { loadClassifierOnThread } from "../classification/classifier_load.ts";
import type { NetworkTableData } from "../classification/network_table.ts";
import type { ListPaths } from "../classification/lists.ts";
import { vendorDecision } from "../classification/vendor_types.ts";
import {
  type KeepList,
  NetworkClassifier,
  type NetworkClassifierData,
} from "../classification/network_classifier.ts";
import {
  type DnsSettings,
  registrableDomain,
  ReverseDns,
} from "./reverse_dns.ts";
import {
  composeEnrichment,
  composeFinished,
  failedEnrichment,
  type Located as LocatedPieces,
  markNoData,
  type Network,
} from "./compose.ts";
import type { Enrichment, EnrichOptions } from "./types.ts";
import type { MmdbFile } from "./mmdb_database.ts";
import type { DatabaseInfo } from "../../shared/wire.ts";
import { dataFiles, type DataFileSettings } from "../databases/installed.ts";
import { describeDatabases, versionLine } from "../databases/describe.ts";

export type { Network };

/** An address's place (with its key) and organisation: see Engine.locate. */
export interface Located extends LocatedPieces {
  place: Place | null;
}

/** Everything the engine reads, in shared memory: cheap to send to workers. */
export interface EngineData {
  geo: MmdbFile[];
  asn: AsnTableData;
  classifier: NetworkClassifierData;
  /** Each ASN table organisation's decision, made once per process. */
  networks: NetworkTableData;
  /** Each database read, its source, licence, version and build date. */
  databases: DatabaseInfo[];
  /** One line naming their versions (what a job records). */
  version: string;
}

/**
 * GEO_DB, ASN_DB (null: the bundled packages, or their updates), DATA_DIR
 * (where the AS features are cached too, and overrides.txt by default).
 */
export interface DataSources extends DataFileSettings {
  /** CLASSIFY_OVERRIDES. */
  overridesPath: string;
  lists: ListPaths;
}

export async function loadEngineData(
  sources: DataSources,
): Promise<EngineData> {
  const files = dataFiles(sources);
  const missing = [...files.geo, ...files.asn].filter((path) => {
    try {
      return !Deno.statSync(path).isFile;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) {
    throw new Error(
      `database file not found: ${missing.join(", ")} ` +
        `(run "deno install" for the bundled ones, or fix GEO_DB / ASN_DB)`,
    );
  }
  const [geo, asn] = await Promise.all([
    // A bundled package's files (or their update's) were checked by hash.
    loadGeoDatabases(files.geo, sources.geoDb === null),
    // Parsing the CSVs would hold this (the HTTP) thread for a second.
    loadAsnTableOnThread(files.asn),
  ]);
  // The classifier's AS features come from both databases (cached in
  // DATA_DIR per database version).
  const [{ classifier, networks }, databases] = await Promise.all([
    loadClassifierOnThread({
      dataDir: sources.dataDir,
      databasePaths: [...files.asn, ...files.geo],
      overridesPath: sources.overridesPath,
      listPaths: sources.lists,
      table: asn,
      geo,
    }),
    describeDatabases({ files, geo, asnMmdb: asn.mmdb, lists: sources.lists }),
  ]);
  return {
    geo,
    asn,
    classifier,
    networks,
    databases,
    version: versionLine(databases),
  };
}

/** A last word on an address's network (see Engine.enrich). */
export type NetworkAdjust = (ip: string, network: Network) => Promise<Network>;

export class Engine {
  geo!: GeoProvider;
  asn!: AsnTable;
  classifier!: NetworkClassifier;
  data!: EngineData;
  readonly dns: ReverseDns;
  /**
   * By ASN table index: one object per organisation, made when first met
   * and kept, as remaking them slows every lookup that meets one again; its
   * decision comes from the shared table.
   */
  #networks: (Network | undefined)[] = [];
  #mmdbNetworks = new Map<string, Network>();
  /** Per network: its variants for addresses decided otherwise. */
  #variants = new Map<Network, Map<string, Network>>();
  #cachedPlaces: number;
  /** The words of the address being located (see addressWords), refilled. */
  #v4Words = [0];
  #v6Words = [0, 0, 0, 0];

  /**
   * `cachedPlaces`: see GeoProvider (0 for a job worker, which looks each
   * distinct address up once).
   */
  constructor(
    data: EngineData,
    dns: DnsSettings,
    cachedPlaces = CACHED_PLACES,
  ) {
    this.#cachedPlaces = cachedPlaces;
    this.dns = new ReverseDns(dns);
    this.useData(data);
  }

  /**
   * Answers from `data` from now on (new databases, without a restart):
   * a lookup under way finishes with the objects it holds, and the old
   * data goes once nothing holds it. Host names stay cached.
   */
  useData(data: EngineData): void {
    this.geo = new GeoProvider(data.geo, this.#cachedPlaces);
    this.asn = new AsnTable(data.asn);
    this.classifier = new NetworkClassifier(data.classifier);
    this.data = data;
    this.#networks = new Array(this.asn.orgCount);
    this.#mmdbNetworks = new Map();
    this.#variants = new Map();
  }

  /**
   * An ASN table organisation (an index of the tables, as organisationKey
   * gives it), with its decision from the shared table.
   */
  tableNetwork(index: number): Network {
    const { decisionOf, decisions } = this.data.networks;
    return this.#networks[index] ??= this.#networkFrom(
      this.asn.info(index),
      decisions[decisionOf[index]],
    );
  }

  /**
   * The ASN table organisation of an address given as its words: its
   * network is tableNetwork's unless its place has traits (networkAt); a
   * job's chunk numbers its networks by it. -1: not in the tables.
   */
  organisationKey(words: ArrayLike<number>): number {
    return this.asn.indexOf(words);
  }

  #networkFrom(
    info: AsnInfo,
    byAs = this.classifier.network(info.asn, info.org),
  ): Network {
    // A user's own database (ISP, Connection-Type, Enterprise, IPinfo)
    // names the company and the type; an operator's override still rules.
    const vendor = info.vendor;
    const byVendor = vendor && !byAs.reason.startsWith("override:")
      ? vendorDecision(vendor)
      : null;
    return {
      org: info.org,
      asnText: `AS${info.asn}${info.org ? ` ${info.org}` : ""}`,
      asn: info.asn,
      kind: byVendor ?? byAs,
      ...(vendor?.company && { company: vendor.company }),
    };
  }

  /**
   * The network as one address sees it: its PTR name (`hostname`, when
   * looked up), a CIDR override and the job's keep list may change the
   * decision. The same object when nothing does; otherwise one object per
   * network and decision, so a job sends each variant once.
   */
  networkFor(
    network: Network,
    ip: string,
    hostname: string | null,
    keep: KeepList | null,
  ): Network {
    if (!network.kind || !this.classifier.needsAddress(hostname, keep)) {
      return network;
    }
    const kind = this.classifier.address(
      network.kind,
      ip,
      network.asn,
      network.org,
      hostname,
      keep,
    );
    if (kind === network.kind) return network;
    return this.#variant(
      network,
      `${kind.type}\t${kind.filtered}\t${kind.reason}`,
      () => ({ ...network, kind }),
    );
  }

  /** The variant of a network by `key`, made once (see networkFor). */
  #variant(network: Network, key: string, make: () => Network): Network {
    let variants = this.#variants.get(network);
    if (!variants) {
      if (this.#variants.size >= 50_000) this.#variants.clear();
      this.#variants.set(network, variants = new Map());
    }
    let variant = variants.get(key);
    if (!variant) variants.set(key, variant = make());
    return variant;
  }

  /** The organisation of an address, or null when no source knows it. */
  #networkOf(words: number[]): Network | null {
    const index = this.asn.indexOf(words);
    if (index >= 0) return this.tableNetwork(index);
    const info = this.asn.mmdbInfo(words);
    if (!info) return null;
    // ASN MMDB answers: one object per organisation too, within a bound.
    const v = info.vendor;
    const key = v
      ? `${info.asn}\t${info.org}\t${v.company}\t${v.userType}\t` +
        `${v.connectionType}\t${v.companyType}\t${v.asType}`
      : `${info.asn}\t${info.org}`;
    let network = this.#mmdbNetworks.get(key);
    if (!network) {
      if (this.#mmdbNetworks.size >= 50_000) this.#mmdbNetworks.clear();
      network = this.#networkFrom(info);
      this.#mmdbNetworks.set(key, network);
    }
    return network;
  }

  /**
   * What an address's enrichment is made of, before the host name: its
   * place and its organisation (objects shared by every address that has
   * them). composeEnrichment (compose.ts) turns them into the enrichment.
   */
  locate(ip: string, version: 4 | 6, options: EnrichOptions): Located {
    // Converted once for both searches.
    const words = version === 4 ? this.#v4Words : this.#v6Words;
    if (version === 4) words[0] = ipv4ToNumber(ip);
    else ipv6ToWords(ip, words);
    const place = this.geo.placeAt(this.placeKey(words, options));
    return {
      place: options.geolocation ? place : null,
      network: this.networkAt(words, place),
    };
  }

  /**
   * The key of the record an address's place is read from (GeoProvider
   * recordKey), the address given as its words: a job's chunk numbers its
   * places by key and decodes each once (geo.placeAt). -1: none, or no
   * place asked for and no traits to read.
   */
  placeKey(words: ArrayLike<number>, options: EnrichOptions): number {
    return options.geolocation || this.geo.hasTraits
      ? this.geo.recordKey(words)
      : -1;
  }

  /**
   * An address's organisation, given as its words, as its place's record
   * shows it (an Enterprise file in GEO_DB: its traits name the company and
   * type); null when no source knows it.
   */
  networkAt(words: number[], place: Place | null): Network | null {
    const network = this.#networkOf(words);
    return place?.vendor && network
      ? this.#withVendor(network, place)
      : network;
  }

  /** The network as a GEO_DB record's traits show it (one object each). */
  #withVendor(network: Network, place: Place): Network {
    const vendor = place.vendor!;
    const byVendor = network.kind?.reason.startsWith("override:")
      ? null
      : vendorDecision(vendor);
    if (!byVendor && !vendor.company) return network;
    return this.#variant(
      network,
      `vendor\t${vendor.company}\t${byVendor?.reason}`,
      () => ({
        ...network,
        kind: byVendor ?? network.kind,
        ...(vendor.company && { company: vendor.company }),
      }),
    );
  }

  /** Every field but the host name: synchronous, no I/O. */
  enrichParsed(parsed: ParsedIp, options: EnrichOptions): Enrichment {
    if (!parsed.ok) return failedEnrichment(parsed.ip, parsed.failure);
    return composeEnrichment(
      parsed.ip,
      this.locate(parsed.ip, parsed.version, options),
      options,
    );
  }

  /**
   * One cell's enrichment. `adjust`: a last word on the address's network
   * (registration data, looked up online), after its host name.
   */
  async enrich(
    cell: string,
    options: EnrichOptions,
    adjust?: NetworkAdjust,
  ): Promise<Enrichment> {
    const parsed = parseIp(cell);
    if ((!options.domain && !adjust) || !parsed.ok) {
      return markNoData(this.enrichParsed(parsed, options));
    }
    // With the host name known, its PTR evidence joins the classification.
    const located = this.locate(parsed.ip, parsed.version, options);
    const looked = options.domain ? await this.dns.resolve(parsed.ip) : null;
    const hostname = looked?.host ?? null;
    if (located.network) {
      located.network = this.networkFor(
        located.network,
        parsed.ip,
        hostname,
        null,
      );
      if (adjust) {
        located.network = await adjust(parsed.ip, located.network);
      }
    }
    const result = composeFinished(parsed.ip, located, {
      hostname,
      domain: registrableDomain(hostname),
    }, options);
    if (looked) result.hostname_lookup = looked.outcome;
    return result;
  }

  /** Many cells, in order; each distinct address is looked up once. */
  async enrichMany(
    cells: string[],
    options: EnrichOptions,
    adjust?: NetworkAdjust,
  ): Promise<Enrichment[]> {
    const byIp = new Map<string, Promise<Enrichment>>();
    return await Promise.all(cells.map((cell) => {
      const key = String(cell ?? "").trim();
      let pending = byIp.get(key);
      if (!pending) {
        pending = this.enrich(key, options, adjust);
        byIp.set(key, pending);
      }
      return pending.then((r) => ({ ...r }));
    }));
  }
}
