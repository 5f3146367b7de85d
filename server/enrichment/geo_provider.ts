// Geolocation from MMDB city databases: the bundled DB-IP Lite files, or a
// user's MaxMind GeoLite2/GeoIP2 City, DB-IP or IPinfo file (GEO_DB).
import { Buffer } from "node:buffer";
import { Reader } from "maxmind";
import { ipv4ToNumber, ipv6ToWords } from "./ip_input.ts";
import type { Enrichment } from "./types.ts";

export interface GeoFields {
  country_code: string | null;
  region: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
}

// Record shapes of the formats we read: DB-IP Lite as packaged by
// ip-location-db (flat), and MaxMind's nested City model.
interface GeoRecord {
  // DB-IP Lite, flat
  country_code?: string;
  state1?: string;
  latitude?: number;
  longitude?: number;
  // MaxMind City, nested
  country?: { iso_code?: string };
  subdivisions?: { names?: { en?: string } }[];
  location?: { latitude?: number; longitude?: number };
  // a string in DB-IP, an object in MaxMind
  city?: string | { names?: { en?: string } };
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

const names = new Map<string, string>();

/** "US" -> "United States"; memoised because Intl lookups are slow per row. */
export function countryName(code: string | null): string | null {
  if (!code) return null;
  let name = names.get(code);
  if (name === undefined) {
    try {
      name = regionNames.of(code.toUpperCase()) ?? code;
    } catch {
      name = code;
    }
    names.set(code, name);
  }
  return name;
}

function toGeo(record: GeoRecord): GeoFields {
  if (typeof record.city === "object" || record.country || record.location) {
    const city = typeof record.city === "object"
      ? record.city.names?.en
      : record.city;
    return {
      country_code: record.country?.iso_code ?? record.country_code ?? null,
      region: record.subdivisions?.[0]?.names?.en ?? null,
      city: city || null,
      latitude: record.location?.latitude ?? null,
      longitude: record.location?.longitude ?? null,
    };
  }
  return {
    country_code: record.country_code || null,
    region: record.state1 || null,
    city: (record.city as string) || null,
    latitude: round(record.latitude),
    longitude: round(record.longitude),
  };
}

// DB-IP stores float32 coordinates: 37.422000885009766 is 37.422.
function round(value: number | undefined): number | null {
  return value === undefined ? null : Math.round(value * 1e4) / 1e4;
}

// Records decoded from the database, by their offset in it: addresses of
// one place share a record, and decoding it was most of a lookup's time.
// Decoded records are only read, never changed, so sharing them is safe.
const CACHED_RECORDS = 20_000;

function recordCache() {
  const records = new Map<number, unknown>();
  return {
    get: (offset: number) => records.get(offset),
    set: (offset: number, value: unknown) => {
      if (records.size >= CACHED_RECORDS) records.clear();
      records.set(offset, value);
    },
  };
}

// Places by data pointer: a few flat fields each, so more of them than of
// decoded records.
const CACHED_PLACES = 32_768;

/** A place as the enrichment shows it: GeoFields and the country's name. */
export interface Place extends GeoFields {
  country: string | null;
  /** Tells places apart: the same key, the same place (its data record). */
  key: number;
}

// mmdb-lib's Reader has what we need, typed private.
interface ReaderInternals {
  metadata: {
    nodeCount: number;
    recordSize: number;
    nodeByteSize: number;
    searchTreeSize: number;
    ipVersion: number;
  };
  ipv4StartNodeNumber: number;
  resolveDataPointer(pointer: number): unknown;
}

/**
 * One MMDB file's search tree, walked from an address's bits straight off
 * the bytes (mmdb-lib parses the address text and reads each node through
 * Buffer methods: most of a lookup's time). The place of each data record
 * is built once and kept by its pointer.
 */
class Tree {
  readonly ipVersion: number;
  #bytes: Uint8Array;
  #nodeCount: number;
  #nodeBytes: number;
  #recordSize: number;
  #ipv4Start: number;
  #reader: ReaderInternals;
  #places = new Map<number, Place | null>();

  /** `index` of `count` files: keys of places differ between files. */
  constructor(
    bytes: Uint8Array,
    readonly index: number,
    readonly count: number,
  ) {
    // deno-lint-ignore no-explicit-any
    const reader = new Reader<any>(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      { cache: recordCache() },
    ) as unknown as ReaderInternals;
    const { metadata } = reader;
    if (![24, 28, 32].includes(metadata.recordSize)) {
      throw new Error(`unsupported MMDB record size ${metadata.recordSize}`);
    }
    this.ipVersion = metadata.ipVersion;
    this.#bytes = bytes;
    this.#reader = reader;
    this.#nodeCount = metadata.nodeCount;
    this.#nodeBytes = metadata.nodeByteSize;
    this.#recordSize = metadata.recordSize;
    this.#ipv4Start = reader.ipv4StartNodeNumber;
  }

  #child(node: number, right: boolean): number {
    const b = this.#bytes;
    const o = node * this.#nodeBytes;
    switch (this.#recordSize) {
      case 24:
        return right
          ? (b[o + 3] << 16) | (b[o + 4] << 8) | b[o + 5]
          : (b[o] << 16) | (b[o + 1] << 8) | b[o + 2];
      case 28:
        return right
          ? ((b[o + 3] & 0x0f) << 24) | (b[o + 4] << 16) | (b[o + 5] << 8) |
            b[o + 6]
          : ((b[o + 3] & 0xf0) << 20) | (b[o] << 16) | (b[o + 1] << 8) |
            b[o + 2];
      default:
        return (right
          ? (b[o + 4] << 24) | (b[o + 5] << 16) | (b[o + 6] << 8) | b[o + 7]
          : (b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>>
          0;
    }
  }

  /** The place of an address given as 32-bit words (1 for IPv4, 4 for IPv6). */
  lookup(words: ArrayLike<number>): Place | null {
    const nodeCount = this.#nodeCount;
    let node = words.length === 1 ? this.#ipv4Start : 0;
    for (let w = 0; w < words.length && node < nodeCount; w++) {
      const word = words[w];
      for (let bit = 31; bit >= 0 && node < nodeCount; bit--) {
        node = this.#child(node, ((word >>> bit) & 1) === 1);
      }
    }
    if (node <= nodeCount) return null;
    let place = this.#places.get(node);
    if (place === undefined) {
      const record = this.#reader.resolveDataPointer(node) as
        | GeoRecord
        | null
        | undefined;
      place = record
        ? toPlace(toGeo(record), node * this.count + this.index)
        : null;
      if (this.#places.size >= CACHED_PLACES) this.#places.clear();
      this.#places.set(node, place);
    }
    return place;
  }
}

function toPlace(geo: GeoFields, key: number): Place {
  return { ...geo, country: countryName(geo.country_code), key };
}

const v4Word = [0];

export class GeoProvider {
  #v4: Tree | null = null;
  #v6: Tree | null = null;

  /** `files` are MMDB contents, typically in shared memory. */
  constructor(files: Uint8Array[]) {
    for (const [index, bytes] of files.entries()) {
      const tree = new Tree(bytes, index, files.length);
      if (tree.ipVersion === 4) this.#v4 ??= tree;
      else {
        this.#v6 ??= tree;
      }
    }
  }

  /** The place of a public address (canonical text, as parseIp gives it). */
  place(ip: string, version: 4 | 6): Place | null {
    if (version === 4) {
      const tree = this.#v4 ?? this.#v6;
      if (!tree) return null;
      v4Word[0] = ipv4ToNumber(ip);
      return tree.lookup(v4Word);
    }
    return this.#v6?.lookup(ipv6ToWords(ip)) ?? null;
  }

  lookup(ip: string, version: 4 | 6): GeoFields | null {
    const place = this.place(ip, version);
    if (!place) return null;
    const { country: _, key: _key, ...geo } = place;
    return geo;
  }

  fill(target: Enrichment, version: 4 | 6): void {
    const place = this.place(target.ip, version);
    if (!place) return;
    target.country_code = place.country_code;
    target.country = place.country;
    target.region = place.region;
    target.city = place.city;
    target.latitude = place.latitude;
    target.longitude = place.longitude;
  }
}
