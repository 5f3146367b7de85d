// Geolocation from MMDB city databases: the bundled DB-IP Lite files, or a
// user's MaxMind GeoLite2/GeoIP2 City, DB-IP or IPinfo file (GEO_DB).
import { Buffer } from "node:buffer";
import { Reader } from "maxmind";
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

export class GeoProvider {
  // maxmind's types admit only its own record models; GeoRecord covers ours.
  // deno-lint-ignore no-explicit-any
  #v4: Reader<any> | null = null;
  // deno-lint-ignore no-explicit-any
  #v6: Reader<any> | null = null;

  /** `files` are MMDB contents, typically in shared memory. */
  constructor(files: Uint8Array[]) {
    for (const bytes of files) {
      const reader = new Reader(
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        { cache: recordCache() },
      );
      if (reader.metadata.ipVersion === 4) this.#v4 ??= reader;
      else {
        this.#v6 ??= reader;
      }
    }
  }

  lookup(ip: string, version: 4 | 6): GeoFields | null {
    const reader = version === 4 ? (this.#v4 ?? this.#v6) : this.#v6;
    const record = reader?.get(ip) as GeoRecord | null | undefined;
    return record ? toGeo(record) : null;
  }

  fill(target: Enrichment, version: 4 | 6): void {
    const geo = this.lookup(target.ip, version);
    if (!geo) return;
    target.country_code = geo.country_code;
    target.country = countryName(geo.country_code);
    target.region = geo.region;
    target.city = geo.city;
    target.latitude = geo.latitude;
    target.longitude = geo.longitude;
  }
}
