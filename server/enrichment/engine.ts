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
  addHostName,
  composeEnrichment,
  failedEnrichment,
  type Located as LocatedPieces,
  markNoData,
  type Network,
} from "./compose.ts";
import type { Enrichment, EnrichOptions } from "./types.ts";

export type { Network };

/** An address's place (with its key) and organisation: see Engine.locate. */
export interface Located extends LocatedPieces {
  place: Place | null;
}

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

export class Engine {
  readonly geo: GeoProvider;
  readonly asn: AsnTable;
  readonly classifier: IspClassifier;
  readonly dns: ReverseDns;
  /** By ASN table index: an organisation is classified once, not per lookup. */
  #networks: (Network | undefined)[];
  #mmdbNetworks = new Map<string, Network>();

  constructor(data: EngineData, dns: DnsSettings) {
    this.geo = new GeoProvider(data.geo);
    this.asn = new AsnTable(data.asn);
    this.classifier = new IspClassifier(data.classifier);
    this.dns = new ReverseDns(dns);
    this.#networks = new Array(this.asn.orgCount);
  }

  #networkFrom(info: AsnInfo): Network {
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
      return this.#networks[index] ??= this.#networkFrom(this.asn.info(index));
    }
    const info = this.asn.lookupMmdb(ip, version);
    if (!info) return null;
    // ASN MMDB answers: one object per organisation too, within a bound.
    const key = `${info.asn}\t${info.org}`;
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
    return {
      place: options.geolocation ? this.geo.place(ip, version) : null,
      network: this.#networkOf(ip, version),
    };
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

  /** Adds host name and domain (reverse DNS) to a result of enrichParsed. */
  async addHostname(result: Enrichment): Promise<Enrichment> {
    if (!result.success) return result;
    const hostname = await this.dns.lookup(result.ip);
    return addHostName(result, {
      hostname,
      domain: registrableDomain(hostname),
    });
  }

  /** Marks a valid address for which no requested field had any value. */
  static checkFound(result: Enrichment): Enrichment {
    return markNoData(result);
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
