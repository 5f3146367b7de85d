// The enrichment engine: one entry point for the job runner, the lookup API
// and the benchmark. Free of HTTP and storage.
import {
  type AsnInfo,
  AsnTable,
  type AsnTableData,
  loadAsnTable,
} from "./asn_table.ts";
import { GeoProvider, loadGeoDatabases, type Place } from "./geo_provider.ts";
import { type ParsedIp, parseIp } from "./ip_input.ts";
import {
  type Classification,
  type ClassifierData,
  IspClassifier,
  loadClassifierData,
} from "./isp_classifier.ts";
import {
  type DnsSettings,
  registrableDomain,
  ReverseDns,
} from "./reverse_dns.ts";
import {
  emptyEnrichment,
  type Enrichment,
  type EnrichOptions,
  NO_DATA,
} from "./types.ts";

export { NO_DATA };

/** Everything the engine reads, in shared memory: cheap to send to workers. */
export interface EngineData {
  geo: Uint8Array[];
  asn: AsnTableData;
  classifier: ClassifierData;
}

export interface DataSources {
  geoDb: string[];
  asnDb: string[];
  ispList: string;
  hostingList: string;
}

export async function loadEngineData(
  sources: DataSources,
): Promise<EngineData> {
  const missing = [...sources.geoDb, ...sources.asnDb].filter((path) => {
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
  const [geo, asn, classifier] = await Promise.all([
    loadGeoDatabases(sources.geoDb),
    loadAsnTable(sources.asnDb),
    loadClassifierData(sources.ispList, sources.hostingList),
  ]);
  return { geo, asn, classifier };
}

/** An organisation as the enrichment shows it, built once per organisation. */
export interface Network {
  org: string;
  /** "AS15169 Google LLC". */
  asnText: string;
  kind: Classification | null;
}

/** An address's place and organisation (see Engine.locate). */
export interface Located {
  place: Place | null;
  network: Network | null;
}

export class Engine {
  readonly geo: GeoProvider;
  readonly asn: AsnTable;
  readonly classifier: IspClassifier;
  readonly dns: ReverseDns;
  /** By ASN table index; classifying ran name rules per lookup before. */
  #networks: (Network | undefined)[];
  #mmdbNetworks = new Map<string, Network>();

  constructor(data: EngineData, dns: DnsSettings) {
    this.geo = new GeoProvider(data.geo);
    this.asn = new AsnTable(data.asn);
    this.classifier = new IspClassifier(data.classifier);
    this.dns = new ReverseDns(dns);
    this.#networks = new Array(this.asn.orgCount);
  }

  #network(info: AsnInfo): Network {
    return {
      org: info.org,
      asnText: `AS${info.asn}${info.org ? ` ${info.org}` : ""}`,
      kind: this.classifier.classify(info.asn, info.org),
    };
  }

  /** The organisation of an address, or null when no source knows it. */
  #networkOf(ip: string, version: 4 | 6): Network | null {
    const index = this.asn.lookupIndex(ip, version);
    if (index >= 0) {
      return this.#networks[index] ??= this.#network(this.asn.info(index));
    }
    const info = this.asn.lookupMmdb(ip, version);
    if (!info) return null;
    // ASN MMDB answers: one object per organisation too, within a bound.
    const key = `${info.asn}\t${info.org}`;
    let network = this.#mmdbNetworks.get(key);
    if (!network) {
      if (this.#mmdbNetworks.size >= 50_000) this.#mmdbNetworks.clear();
      network = this.#network(info);
      this.#mmdbNetworks.set(key, network);
    }
    return network;
  }

  /**
   * What an address's enrichment is made of, before the host name: its
   * place and its organisation (objects shared by every address that has
   * them). `compose` turns them into the enrichment.
   */
  locate(ip: string, version: 4 | 6, options: EnrichOptions): Located {
    return {
      place: options.geolocation ? this.geo.place(ip, version) : null,
      network: this.#networkOf(ip, version),
    };
  }

  /** The enrichment of a public address from what `locate` found. */
  static compose(
    ip: string,
    { place, network }: Located,
    options: EnrichOptions,
  ): Enrichment {
    const result = emptyEnrichment(ip);
    result.success = true;
    if (place) {
      result.country_code = place.country_code;
      result.country = place.country;
      result.region = place.region;
      result.city = place.city;
      result.latitude = place.latitude;
      result.longitude = place.longitude;
    }
    // With no organisation known, classify(null, null) is null.
    const kind = network ? network.kind : null;
    // Filtering applies whatever the options: it is the product's promise.
    result.ispFiltered = kind?.consumer ?? false;
    if (options.company && kind) {
      result.network_type = kind.networkType;
      result.company = kind.consumer ? null : network!.org || null;
    }
    if (options.network && network) {
      result.isp = network.org || null;
      result.asn = network.asnText;
    }
    return result;
  }

  /** Every field but the host name: synchronous, no I/O. */
  enrichParsed(parsed: ParsedIp, options: EnrichOptions): Enrichment {
    if (!parsed.ok) {
      const result = emptyEnrichment(parsed.ip);
      result.error = parsed.error;
      return result;
    }
    return Engine.compose(
      parsed.ip,
      this.locate(parsed.ip, parsed.version, options),
      options,
    );
  }

  /** Adds host name and domain (reverse DNS) to a result of enrichParsed. */
  async addHostname(result: Enrichment): Promise<Enrichment> {
    if (!result.success) return result;
    result.hostname = await this.dns.lookup(result.ip);
    result.domain = registrableDomain(result.hostname);
    return result;
  }

  /** Marks a valid address for which no requested field had any value. */
  static checkFound(result: Enrichment): Enrichment {
    if (!result.success) return result;
    const found = result.country_code || result.city || result.hostname ||
      result.company || result.network_type || result.isp || result.asn;
    if (!found) {
      result.success = false;
      result.error = NO_DATA;
    }
    return result;
  }

  async enrich(cell: string, options: EnrichOptions): Promise<Enrichment> {
    const result = this.enrichParsed(parseIp(cell), options);
    if (options.domain) await this.addHostname(result);
    return Engine.checkFound(result);
  }

  /** Many cells, in order; each distinct address is looked up once. */
  async enrichMany(
    cells: string[],
    options: EnrichOptions,
  ): Promise<Enrichment[]> {
    const byIp = new Map<string, Promise<Enrichment>>();
    return await Promise.all(cells.map((cell) => {
      const key = String(cell ?? "").trim();
      let pending = byIp.get(key);
      if (!pending) {
        pending = this.enrich(key, options);
        byIp.set(key, pending);
      }
      return pending.then((r) => ({ ...r }));
    }));
  }
}
