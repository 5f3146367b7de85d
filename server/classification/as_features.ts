// Per-AS evidence read from the address databases: how much space an AS
// announces and how widely it spreads. Access networks reach hundreds of
// cities in one country; an enterprise or a county sits in one or two;
// hosting in a few data-centre cities. Built once per database version and
// cached in DATA_DIR, so a lookup is one Map probe.
import type { AsnTableData } from "../enrichment/asn_table.ts";
import { stringAt } from "../enrichment/shared_file.ts";
import { HOSTING } from "./name_words.ts";
import { nameTokens } from "./name_tokens.ts";

/** An AS's features, named once here; zeros are an AS of no space. */
const NO_FEATURES = {
  asn: 0,
  /** IPv4 addresses announced. */
  v4: 0,
  /** IPv6 /48 blocks announced. */
  v6: 0,
  /** Distinct cities and regions its sampled addresses geolocate to. */
  cities: 0,
  regions: 0,
  countries: 0,
  /** Country holding most of its sampled IPv4 space ("" when none). */
  country: "",
  /** Its IPv4 space in that country / all geolocated IPv4 space there. */
  countryShare: 0,
  /** IPv4 ranges in the ASN table (a legacy block is one, a pool many). */
  ranges: 0,
  /** Share of its sampled IPv4 space in its largest city (0 when none). */
  topCity: 0,
  /** Share of its geolocated IPv4 space in its main country (0 when none). */
  home: 0,
  /**
   * Of neighbouring samples within one IPv4 range, the share (weighted by
   * the range's size) that geolocate to different cities: an access pool
   * is split city by city, a company's block sits in one place whatever its
   * size.
   */
  mixed: 0,
  /** Mean distance (km) of its located IPv4 space from its centre. */
  radius: 0,
  /**
   * Share of its IPv4 space in early, pre-registry space: IANA's legacy /8s
   * and the class B and C space handed out before the registries.
   */
  legacy: 0,
  /**
   * Share of its IPv4 space in early blocks of at least a /16 that sit in
   * one place (one organisation's class A or B network, however large).
   */
  block: 0,
  /**
   * How much its cities are data-centre cities: the space-weighted mean,
   * over its cities, of the share of the other ASes there whose name says
   * hosting, cloud or data centre (smoothed towards the overall share).
   */
  datacentre: 0,
  /** Share of its IPv4 space in its largest range. */
  largest: 0,
  /** Address-weighted mean size of its IPv4 ranges (sum size² / v4). */
  rangeSize: 0,
  /** Evenness of its sampled space over its cities (entropy / log cities). */
  evenness: 0,
  /**
   * How its space in its main country follows where the country's addresses
   * are (every AS's, a proxy for people): the overlap (sum of minima) of its
   * share by city and the country's share by city over the same cities.
   */
  tracks: 0,
  /** The same overlap against the whole country's cities. */
  covers: 0,
  /**
   * ASes registered under its name (less legal words, name_tokens.ts): a
   * large operator's secondary AS has the features of a small network.
   */
  orgAses: 0,
  /**
   * The summed country share of those ASes (itself included) whose main
   * country is its own: its organisation's share of the country.
   */
  orgShare: 0,
};

export type AsFeatures = typeof NO_FEATURES;

/** Column form: what the cache file holds and lookups index. */
export type AsFeatureColumns = {
  [K in keyof AsFeatures]: AsFeatures[K][];
};

const FEATURE_NAMES = Object.keys(NO_FEATURES) as (keyof AsFeatures)[];

/** Columns of no AS. */
export function emptyFeatureColumns(): AsFeatureColumns {
  return Object.fromEntries(
    FEATURE_NAMES.map((name) => [name, []]),
  ) as unknown as AsFeatureColumns;
}

/** Where an address geolocates (GeoProvider is one). */
export interface PlaceSource {
  place(ip: string, version: 4 | 6): {
    country_code: string | null;
    region: string | null;
    city: string | null;
    latitude?: number | null;
    longitude?: number | null;
  } | null;
}

/** An AS's sums while the tables are walked. */
function newAcc() {
  return {
    v4: 0,
    v6: 0,
    cities: new Set<number>(),
    regions: new Set<number>(),
    /** IPv4 addresses by country code. */
    byCountry: new Map<string, number>(),
    ranges: 0,
    /** Sampled IPv4 addresses by city id. */
    byCity: new Map<number, number>(),
    /** Neighbouring sample pairs within a range, and those in two cities. */
    pairs: 0,
    split: 0,
    /** Located IPv4 samples: weight, weighted coordinates (unit vectors). */
    located: 0,
    x: 0,
    y: 0,
    z: 0,
    /** Coordinates of located samples and their weights, for the radius. */
    points: [] as number[],
    legacy: 0,
    block: 0,
    largest: 0,
    squares: 0,
    /** Its name says hosting, cloud or data centre. */
    hosting: false,
    /** Its organisation: its name's words (nameTokens), joined. */
    org: "",
  };
}
type Acc = ReturnType<typeof newAcc>;

// Samples per range: start and middle, plus one per 4k addresses (at most
// 256) so a few huge ranges of a cable operator still show its spread, and
// how an address pool splits by city.
const SAMPLE_SPACING = 4096;
function v4Samples(size: number): number {
  return Math.min(256, Math.max(2, Math.ceil(size / SAMPLE_SPACING)));
}

/**
 * The /8s IANA's IPv4 address space registry marks LEGACY (class A
 * networks of early organisations: agencies, universities, companies), as
 * runs from first to last.
 */
const LEGACY_A = [
  [3, 4],
  [6, 9],
  [11, 13],
  [15, 22],
  [25, 26],
  [28, 30],
  [32, 35],
  [38, 38],
  [40, 40],
  [44, 45],
  [47, 48],
  [51, 57],
];

/**
 * Handed out before the registries: the legacy /8s, 128.0.0.0-172.255.255.255
 * and 192.0.0.0/8.
 */
function isLegacy(start: number): boolean {
  const a = start >>> 24;
  return LEGACY_A.some(([first, last]) => a >= first && a <= last) ||
    (a >= 128 && a < 173) || a === 192;
}

/** An early block: at least a /16 whose neighbouring samples rarely part. */
const BLOCK_SIZE = 65536;
const BLOCK_SPLIT = 0.2;

/** Weight of the overall share in a city's data-centre share. */
const DATACENTRE_PRIOR = 5;

function v4Text(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

function v6Text(w: ArrayLike<number>): string {
  const parts: string[] = [];
  for (let i = 0; i < 4; i++) {
    parts.push((w[i] >>> 16).toString(16), (w[i] & 0xffff).toString(16));
  }
  return parts.join(":");
}

/** Walks every range of the ASN tables and samples the city database. */
export function buildAsFeatures(
  table: AsnTableData,
  geo: PlaceSource,
): AsFeatureColumns {
  const byAsn = new Map<number, Acc>();
  const cityIds = new Map<string, number>();
  const regionIds = new Map<string, number>();
  const countryTotal = new Map<string, number>();
  /** Sampled IPv4 space of every AS by city id, and each city's country. */
  const cityTotal: number[] = [];
  const cityCountry: string[] = [];
  const acc = (asn: number): Acc => {
    let a = byAsn.get(asn);
    if (!a) {
      a = newAcc();
      byAsn.set(asn, a);
    }
    return a;
  };
  const id = (ids: Map<string, number>, key: string) => {
    let i = ids.get(key);
    if (i === undefined) ids.set(key, i = ids.size);
    return i;
  };
  /** The city id of the sample (-1: none, -2: not located). */
  const sample = (
    a: Acc,
    ip: string,
    version: 4 | 6,
    weight: number,
  ): number => {
    const place = geo.place(ip, version);
    if (!place?.country_code) return -2;
    const cc = place.country_code;
    const region = `${cc}|${place.region ?? ""}`;
    a.regions.add(id(regionIds, region));
    const city = place.city ? id(cityIds, `${region}|${place.city}`) : -1;
    if (city >= 0) a.cities.add(city);
    if (weight > 0) {
      if (city >= 0) {
        a.byCity.set(city, (a.byCity.get(city) ?? 0) + weight);
        cityTotal[city] = (cityTotal[city] ?? 0) + weight;
        cityCountry[city] = cc;
      }
      a.byCountry.set(cc, (a.byCountry.get(cc) ?? 0) + weight);
      countryTotal.set(cc, (countryTotal.get(cc) ?? 0) + weight);
      const lat = place.latitude, lon = place.longitude;
      if (typeof lat === "number" && typeof lon === "number") {
        const f = Math.PI / 180, c = Math.cos(lat * f);
        const x = c * Math.cos(lon * f), y = c * Math.sin(lon * f);
        const z = Math.sin(lat * f);
        a.located += weight;
        a.x += weight * x;
        a.y += weight * y;
        a.z += weight * z;
        a.points.push(x, y, z, weight);
      }
    }
    return city;
  };

  const { v4Start, v4End, v4Org, v6Start, v6End, v6Org, asns, orgs } = table;
  /** What an AS's name says, read at its first range. */
  const named = (a: Acc, org: number) => {
    const name = stringAt(orgs, org);
    a.hosting = HOSTING.test(name);
    a.org = nameTokens(name).join(" ");
  };
  for (let i = 0; i < v4Org.length; i++) {
    const asn = asns[v4Org[i]];
    if (!asn) continue;
    const a = acc(asn);
    if (!a.ranges) named(a, v4Org[i]);
    const size = v4End[i] - v4Start[i] + 1;
    a.v4 += size;
    a.ranges++;
    const legacy = isLegacy(v4Start[i]);
    if (legacy) a.legacy += size;
    if (size > a.largest) a.largest = size;
    a.squares += size * size;
    const k = v4Samples(size);
    let previous = -3, pairs = 0, split = 0;
    for (let s = 0; s < k; s++) {
      const at = v4Start[i] + Math.floor((size * s) / k);
      const city = sample(a, v4Text(at), 4, size / k);
      if (previous >= 0 && city >= 0) {
        pairs++;
        if (city !== previous) split++;
      }
      previous = city;
    }
    a.pairs += pairs * size;
    a.split += split * size;
    if (legacy && size >= BLOCK_SIZE && split <= BLOCK_SPLIT * pairs) {
      a.block += size;
    }
  }
  const words = new Uint32Array(4);
  for (let i = 0; i < v6Org.length; i++) {
    const asn = asns[v6Org[i]];
    if (!asn) continue;
    const a = acc(asn);
    if (!a.ranges && !a.v6) named(a, v6Org[i]);
    const o = i * 4;
    // /48 blocks: the top 48 bits of end minus start, plus one.
    const hi = (v6End[o] - v6Start[o]) * 65536 +
      ((v6End[o + 1] >>> 16) - (v6Start[o + 1] >>> 16));
    a.v6 += hi + 1;
    words.set(v6Start.subarray(o, o + 4));
    sample(a, v6Text(words), 6, 0);
    // the middle of the range, on its first 64 bits
    const mid =
      (v6Start[o + 1] + Math.floor((v6End[o + 1] - v6Start[o + 1]) / 2)) >>> 0;
    words[1] = v6End[o] === v6Start[o] ? mid : 0x80000000;
    words[0] = v6End[o] === v6Start[o]
      ? v6Start[o]
      : v6Start[o] + Math.floor((v6End[o] - v6Start[o]) / 2);
    sample(a, v6Text(words), 6, 0);
  }

  const out = emptyFeatureColumns();

  const datacentre = datacentreShares(byAsn);
  for (const [asn, a] of byAsn) {
    let country = "";
    let most = 0, located = 0;
    for (const [cc, n] of a.byCountry) {
      located += n;
      if (n > most) [country, most] = [cc, n];
    }
    out.asn.push(asn);
    out.v4.push(a.v4);
    out.v6.push(a.v6);
    out.cities.push(a.cities.size);
    out.regions.push(a.regions.size);
    out.countries.push(countCountries(a.regions, regionIds));
    out.country.push(country);
    out.countryShare.push(
      country ? Math.round((most / countryTotal.get(country)!) * 1e6) / 1e6 : 0,
    );
    out.ranges.push(a.ranges);
    let top = 0, placed = 0;
    for (const n of a.byCity.values()) {
      placed += n;
      if (n > top) top = n;
    }
    out.topCity.push(placed ? Math.round((top / placed) * 1e4) / 1e4 : 0);
    out.home.push(located ? Math.round((most / located) * 1e4) / 1e4 : 0);
    out.mixed.push(a.pairs ? Math.round((a.split / a.pairs) * 1e4) / 1e4 : 0);
    out.radius.push(Math.round(radiusKm(a)));
    out.legacy.push(a.v4 ? Math.round((a.legacy / a.v4) * 1e4) / 1e4 : 0);
    out.block.push(a.v4 ? Math.round((a.block / a.v4) * 1e4) / 1e4 : 0);
    out.datacentre.push(datacentre.get(asn) ?? 0);
    out.largest.push(a.v4 ? Math.round((a.largest / a.v4) * 1e4) / 1e4 : 0);
    out.rangeSize.push(a.v4 ? Math.round(a.squares / a.v4) : 0);
    let entropy = 0;
    for (const n of a.byCity.values()) {
      entropy -= (n / placed) * Math.log(n / placed);
    }
    out.evenness.push(
      a.byCity.size > 1
        ? Math.round((entropy / Math.log(a.byCity.size)) * 1e4) / 1e4
        : 0,
    );
    const [tracks, covers] = overlap(a, country, cityTotal, cityCountry);
    out.tracks.push(tracks);
    out.covers.push(covers);
  }
  organisations(byAsn, out);
  return out;
}

/** Each AS's organisation columns (orgAses, orgShare) from the others. */
function organisations(byAsn: Map<number, Acc>, out: AsFeatureColumns) {
  const ases = new Map<string, number>();
  const share = new Map<string, number>();
  const org: string[] = [];
  out.asn.forEach((asn, i) => {
    const a = byAsn.get(asn)!;
    org.push(a.org || `AS${asn}`);
    ases.set(org[i], (ases.get(org[i]) ?? 0) + 1);
    const key = `${org[i]}|${out.country[i]}`;
    share.set(key, (share.get(key) ?? 0) + out.countryShare[i]);
  });
  out.asn.forEach((_, i) => {
    out.orgAses.push(ases.get(org[i])!);
    out.orgShare.push(
      Math.round(share.get(`${org[i]}|${out.country[i]}`)! * 1e6) / 1e6,
    );
  });
}

/**
 * Each AS's data-centre footprint: over its sampled IPv4 space by city, the
 * mean share of the other ASes in that city whose name says hosting (each
 * city's share smoothed towards the overall one, so a city of two ASes says
 * little).
 */
function datacentreShares(byAsn: Map<number, Acc>): Map<number, number> {
  const ases: number[] = [], hosting: number[] = [];
  let all = 0, named = 0;
  for (const a of byAsn.values()) {
    if (!a.byCity.size) continue;
    all++;
    if (a.hosting) named++;
    for (const city of a.byCity.keys()) {
      ases[city] = (ases[city] ?? 0) + 1;
      if (a.hosting) hosting[city] = (hosting[city] ?? 0) + 1;
    }
  }
  const overall = all ? named / all : 0;
  const out = new Map<number, number>();
  for (const [asn, a] of byAsn) {
    let sum = 0, weight = 0;
    for (const [city, n] of a.byCity) {
      const others = ases[city] - 1;
      const h = (hosting[city] ?? 0) - (a.hosting ? 1 : 0);
      sum += n * (h + DATACENTRE_PRIOR * overall) / (others + DATACENTRE_PRIOR);
      weight += n;
    }
    out.set(asn, weight ? Math.round((sum / weight) * 1e4) / 1e4 : 0);
  }
  return out;
}

/**
 * The overlap of an AS's space by city in `country` with every AS's space
 * by city there: over its own cities (does its space follow where the
 * addresses are?) and over the whole country (does it reach them?).
 */
function overlap(
  a: Acc,
  country: string,
  cityTotal: number[],
  cityCountry: string[],
): [number, number] {
  if (!country) return [0, 0];
  let own = 0, theirs = 0;
  for (const [city, n] of a.byCity) {
    if (cityCountry[city] !== country) continue;
    own += n;
    theirs += cityTotal[city];
  }
  if (!own) return [0, 0];
  const all = countryCityTotal(country, cityTotal, cityCountry);
  let tracks = 0, covers = 0;
  for (const [city, n] of a.byCity) {
    if (cityCountry[city] !== country) continue;
    tracks += Math.min(n / own, cityTotal[city] / theirs);
    covers += Math.min(n / own, cityTotal[city] / all);
  }
  return [Math.round(tracks * 1e4) / 1e4, Math.round(covers * 1e4) / 1e4];
}

const countryTotals = new WeakMap<number[], Map<string, number>>();
function countryCityTotal(
  country: string,
  cityTotal: number[],
  cityCountry: string[],
): number {
  let totals = countryTotals.get(cityTotal);
  if (!totals) {
    totals = new Map();
    cityTotal.forEach((n, city) => {
      const cc = cityCountry[city];
      totals!.set(cc, (totals!.get(cc) ?? 0) + n);
    });
    countryTotals.set(cityTotal, totals);
  }
  return totals.get(country) ?? 0;
}

/** Weighted mean great-circle distance (km) of located space from its centre. */
function radiusKm(a: Acc): number {
  const norm = Math.hypot(a.x, a.y, a.z);
  if (!a.located || !norm) return 0;
  const cx = a.x / norm, cy = a.y / norm, cz = a.z / norm;
  let sum = 0;
  const p = a.points;
  for (let i = 0; i < p.length; i += 4) {
    const dot = Math.min(1, p[i] * cx + p[i + 1] * cy + p[i + 2] * cz);
    sum += p[i + 3] * Math.acos(dot);
  }
  return (6371 * sum) / a.located;
}

function countCountries(regions: Set<number>, ids: Map<string, number>) {
  // Region keys start with the country code; ids are dense, so invert once.
  const names = regionNames.get(ids) ?? invert(ids);
  const seen = new Set<string>();
  for (const r of regions) seen.add(names[r].slice(0, 2));
  return seen.size;
}

const regionNames = new WeakMap<Map<string, number>, string[]>();
function invert(ids: Map<string, number>): string[] {
  const names: string[] = [];
  for (const [k, v] of ids) names[v] = k;
  regionNames.set(ids, names);
  return names;
}

/**
 * The columns in shared memory, so that job threads read the one copy
 * instead of a clone each: numbers as floats, a country code's two letters
 * as one number (0: none).
 */
export type SharedFeatureColumns = {
  [K in keyof AsFeatureColumns]: K extends "country" ? Uint16Array<
      SharedArrayBuffer
    >
    : Float64Array<SharedArrayBuffer>;
};

export function shareColumns(columns: AsFeatureColumns): SharedFeatureColumns {
  const shared: Record<
    string,
    Uint16Array<SharedArrayBuffer> | Float64Array<SharedArrayBuffer>
  > = {};
  for (const [name, values] of Object.entries(columns)) {
    if (name === "country") {
      const codes = new Uint16Array(
        new SharedArrayBuffer(values.length * Uint16Array.BYTES_PER_ELEMENT),
      );
      (values as string[]).forEach((code, i) => {
        if (code.length === 2) {
          codes[i] = (code.charCodeAt(0) << 8) | code.charCodeAt(1);
        }
      });
      shared[name] = codes;
      continue;
    }
    const floats = new Float64Array(
      new SharedArrayBuffer(values.length * Float64Array.BYTES_PER_ELEMENT),
    );
    floats.set(values as number[]);
    shared[name] = floats;
  }
  return shared as SharedFeatureColumns;
}

/** Row i's country code, from either form of the column. */
function countryAt(country: string[] | Uint16Array, i: number): string {
  const code = country[i];
  if (typeof code === "string") return code;
  return code ? String.fromCharCode(code >> 8, code & 255) : "";
}

/** O(1) lookups by AS number over the column form. */
export class AsFeatureIndex {
  #row = new Map<number, number>();

  constructor(readonly columns: AsFeatureColumns | SharedFeatureColumns) {
    const { asn } = columns;
    for (let i = 0; i < asn.length; i++) this.#row.set(asn[i], i);
  }

  get size(): number {
    return this.#row.size;
  }

  get(asn: number): AsFeatures | null {
    const i = this.#row.get(asn);
    if (i === undefined) return null;
    const row: Record<string, number | string> = {};
    for (const name of FEATURE_NAMES) row[name] = this.columns[name][i];
    row.country = countryAt(this.columns.country, i);
    return row as AsFeatures;
  }
}
