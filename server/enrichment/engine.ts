// The enrichment engine: one entry point for the job runner, the lookup API
// and the benchmark. Free of HTTP and storage.
import { AsnTable, type AsnTableData, loadAsnTable } from "./asn_table.ts";
import { GeoProvider } from "./geo_provider.ts";
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
import { readShared } from "./shared_file.ts";
import {
  emptyEnrichment,
  type Enrichment,
  type EnrichOptions,
} from "./types.ts";

export const NO_DATA = "No data found for this address";

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
    Promise.all(sources.geoDb.map(readShared)),
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

  constructor(data: EngineData, dns: DnsSettings) {
    this.geo = new GeoProvider(data.geo);
    this.asn = new AsnTable(data.asn);
    this.classifier = new IspClassifier(data.classifier);
    this.dns = new ReverseDns(dns);
  }

  /** Every field but the host name: synchronous, no I/O. */
  enrichParsed(parsed: ParsedIp, options: EnrichOptions): Enrichment {
    const result = emptyEnrichment(parsed.ip);
    if (!parsed.ok) {
      result.error = parsed.error;
      return result;
    }
    result.success = true;
    if (options.geolocation) this.geo.fill(result, parsed.version);
    const info = this.asn.lookup(parsed.ip, parsed.version);
    const kind = this.classifier.classify(info?.asn ?? null, info?.org ?? null);
    // Filtering applies whatever the options: it is the product's promise.
    result.ispFiltered = kind?.consumer ?? false;
    if (options.company && kind) {
      result.network_type = kind.networkType;
      result.company = kind.consumer ? null : info?.org || null;
    }
    if (options.network && info) {
      result.isp = info.org || null;
      result.asn = `AS${info.asn}${info.org ? ` ${info.org}` : ""}`;
    }
    return result;
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
