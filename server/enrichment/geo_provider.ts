// Geolocation from MMDB city databases: the bundled DB-IP Lite files, or a
// user's MaxMind GeoLite2/GeoIP2 City, DB-IP or IPinfo file (GEO_DB).
import { addressWords } from "./ip_input.ts";
import { MmdbDatabase, MmdbError, type MmdbFile } from "./mmdb_database.ts";
import type { MmdbOpenInput } from "./mmdb_open_worker.ts";
import { runOnThread } from "../one_shot_thread.ts";
import type { VendorFields } from "./asn_table.ts";
import { readNetworkFields } from "./network_fields.ts";

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

/** Country names by their code's two character codes (< 128 each), as met. */
const names: (string | undefined)[] = new Array(128 * 128).fill(undefined);

/** "US" -> "United States"; kept because Intl lookups are slow per row. */
export function countryName(code: string | null): string | null {
  if (!code) return null;
  const first = code.charCodeAt(0);
  const second = code.charCodeAt(1);
  const at = code.length === 2 && first < 128 && second < 128
    ? first * 128 + second
    : -1;
  let name = at >= 0 ? names[at] : undefined;
  if (name === undefined) {
    try {
      name = regionNames.of(code.toUpperCase()) ?? code;
    } catch {
      name = code;
    }
    if (at >= 0) names[at] = name;
  }
  return name;
}

// DB-IP stores float32 coordinates: 37.422000885009766 is 37.422.
function round(value: number | undefined): number | null {
  return value === undefined ? null : Math.round(value * 1e4) / 1e4;
}

/** The answer for an address whose database record cannot be decoded. */
export const CORRUPT_RECORD = "the database record for this address is corrupt";

/** A place as the enrichment shows it: GeoFields and the country's name. */
export interface Place extends GeoFields {
  country: string | null;
  /** Tells places apart: the same key, the same place (its data record). */
  key: number;
  /**
   * Set when the address's record is corrupt (every field is then null):
   * the row's error, in words a user reads.
   */
  error?: string;
  /**
   * A MaxMind Enterprise (or City-with-traits) record's ISP, organisation,
   * connection and user types, for the classification; absent otherwise.
   */
  vendor?: VendorFields;
}

/**
 * Places kept by data pointer, for single lookups: decoding a record is most
 * of a lookup's time, and the same addresses come back.
 */
export const CACHED_PLACES = 32_768;
/**
 * The places kept by a PostgreSQL worker's job engines: a process of its
 * own, whose later chunks of a job meet its earlier chunks' records again.
 */
export const JOB_CACHED_PLACES = 131_072;

/**
 * One city file's places. The place of each data record is built once and
 * kept by its record, `cachedPlaces` of them (0: none): a job's chunk
 * numbers its own places by record key as long as it needs them
 * (RowResults), while places kept across its chunks, long enough to reach
 * V8's old generation, raised the server's peak memory far more than they
 * saved CPU.
 */
class CityFile {
  readonly ipVersion: number;
  #db: MmdbDatabase;
  #places: Map<number, Place | null> | null;

  /** `index` of `count` files: keys of places differ between files. */
  constructor(
    file: MmdbFile,
    readonly index: number,
    readonly count: number,
    readonly cachedPlaces: number,
  ) {
    this.#db = new MmdbDatabase(file);
    this.ipVersion = this.#db.ipVersion;
    this.#places = cachedPlaces > 0 ? new Map() : null;
  }

  get databaseType(): string {
    return this.#db.metadata.databaseType;
  }

  /**
   * The key of the data record of an address given as 32-bit words (1 for
   * IPv4, 4 for IPv6); -1: none.
   */
  recordKey(words: ArrayLike<number>): number {
    const record = this.#db.recordOf(words);
    return record === 0 ? -1 : record * this.count + this.index;
  }

  /** The place of a record key of this file (decoded, or kept). */
  place(key: number): Place | null {
    const record = (key - this.index) / this.count;
    const places = this.#places;
    let place = places?.get(record);
    if (place === undefined) {
      place = this.#decode(record, key);
      if (places) {
        if (places.size >= this.cachedPlaces) places.clear();
        places.set(record, place);
      }
    }
    return place;
  }

  // A record that cannot be decoded, or whose fields are not what the
  // format says (a latitude that is no latitude), is no place: the row says
  // so rather than showing it or failing the request.
  #decode(record: number, key: number): Place | null {
    try {
      const value = this.#db.decodeRecord(record);
      if (value === null || typeof value !== "object") return null;
      const place = toPlace(value as GeoRecord, key);
      const vendor = vendorOf(value);
      if (vendor) place.vendor = vendor;
      return place;
    } catch (error) {
      if (!(error instanceof MmdbError || error instanceof TypeError)) {
        throw error;
      }
      return {
        ...toPlace({}, key),
        error: `${CORRUPT_RECORD} (${error.message})`,
      };
    }
  }
}

/** The traits a richer file carries (Enterprise), or undefined. */
function vendorOf(record: object): VendorFields | undefined {
  const traits = (record as { traits?: unknown }).traits;
  if (!traits || typeof traits !== "object") return undefined;
  try {
    const { company, connectionType, userType } = readNetworkFields(
      { traits } as Parameters<typeof readNetworkFields>[0],
    );
    if (!company && !connectionType && !userType) return undefined;
    return {
      company,
      connectionType,
      userType,
      companyType: null,
      asType: null,
    };
  } catch {
    return undefined; // traits of the wrong types: the place still stands
  }
}

function text(value: unknown, field: string): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value !== "string") throw new MmdbError(`${field} is no text`);
  return value;
}

function coordinate(value: unknown, limit: number, field: string) {
  if (value === null || value === undefined) return null;
  if (typeof value !== "number" || !(Math.abs(value) <= limit)) {
    throw new MmdbError(`${field} ${String(value)} is out of range`);
  }
  return value;
}

/** A country code as the format has it: two letters. */
function countryCode(value: unknown): string | null {
  const code = text(value, "country code");
  if (
    code !== null && !(code.length === 2 && letter(code, 0) && letter(code, 1))
  ) {
    throw new MmdbError(`country code "${code}" is not two letters`);
  }
  return code;
}

function letter(code: string, at: number): boolean {
  const c = code.charCodeAt(at) | 0x20;
  return c >= 0x61 && c <= 0x7a;
}

/**
 * City MMDB files, checked and read into shared memory when opened: one that
 * fails is refused with one line naming it and what is wrong (`verified`: a
 * bundled package's, whose tree is not checked: openCheckedMmdb). Each file
 * on a thread of its own: making its ranges is work that must not stall the
 * HTTP thread while a running server switches to new data, and the whole
 * file, read for it, goes with the thread.
 */
export function loadGeoDatabases(
  paths: string[],
  verified = false,
): Promise<MmdbFile[]> {
  return Promise.all(paths.map((path) =>
    runOnThread<MmdbOpenInput, MmdbFile>(
      new URL("./mmdb_open_worker.ts", import.meta.url),
      "mmdb-open",
      { path, verified },
      null,
    )
  ));
}

/**
 * The place of a record, in either shape, its fields checked for the types
 * and ranges they must have (throws MmdbError): one object, as every record
 * read makes one.
 */
function toPlace(record: GeoRecord, key: number): Place {
  if (typeof record.city === "object" || record.country || record.location) {
    const city = typeof record.city === "object"
      ? record.city.names?.en
      : record.city;
    const code = countryCode(record.country?.iso_code ?? record.country_code);
    return {
      country_code: code,
      region: text(record.subdivisions?.[0]?.names?.en, "region"),
      city: text(city || null, "city"),
      latitude: coordinate(record.location?.latitude, 90, "latitude"),
      longitude: coordinate(record.location?.longitude, 180, "longitude"),
      country: countryName(code),
      key,
    };
  }
  const code = countryCode(record.country_code || null);
  return {
    country_code: code,
    region: text(record.state1 || null, "region"),
    city: text(record.city || null, "city"),
    latitude: coordinate(round(record.latitude), 90, "latitude"),
    longitude: coordinate(round(record.longitude), 180, "longitude"),
    country: countryName(code),
    key,
  };
}

export class GeoProvider {
  #v4: CityFile | null = null;
  #v6: CityFile | null = null;
  /** By file index: a record key's file (see CityFile.recordKey). */
  #files: CityFile[] = [];
  /** True when a file may carry traits (Enterprise): read even without geolocation. */
  readonly hasTraits: boolean;

  /**
   * `files`: as loadGeoDatabases reads them; `cachedPlaces`: how many
   * places of recent records to keep (see CityFile).
   */
  constructor(files: MmdbFile[], cachedPlaces = CACHED_PLACES) {
    let traits = false;
    for (const [index, file] of files.entries()) {
      const city = new CityFile(file, index, files.length, cachedPlaces);
      this.#files.push(city);
      traits ||= /enterprise/i.test(city.databaseType);
      if (city.ipVersion === 4) this.#v4 ??= city;
      else {
        this.#v6 ??= city;
      }
    }
    this.hasTraits = traits;
  }

  /** The place of a public address (canonical text, as parseIp gives it). */
  place(ip: string, version: 4 | 6): Place | null {
    return this.placeAt(this.recordKey(addressWords(ip, version)));
  }

  /**
   * The key of an address's record, the address given as its words (see
   * addressWords): the same key, the same place; -1: none.
   */
  recordKey(words: ArrayLike<number>): number {
    const city = words.length === 1 ? this.#v4 ?? this.#v6 : this.#v6;
    return city?.recordKey(words) ?? -1;
  }

  /** The place of a record key (-1: null). */
  placeAt(key: number): Place | null {
    return key < 0 ? null : this.#files[key % this.#files.length].place(key);
  }

  lookup(ip: string, version: 4 | 6): GeoFields | null {
    const place = this.place(ip, version);
    if (!place) return null;
    const { country: _, key: _key, error: _error, ...geo } = place;
    return geo;
  }
}
