// AS number and organisation by IP range, from ip-location-db CSVs
// (RouteViews, NRO, DB-IP) or an ASN MMDB. The tables are sorted typed arrays
// in shared memory: built once in the main thread, searched by every worker.
import Papa from "papaparse";
import { addressWords, ipv4ToNumber, ipv6ToWords } from "./ip_input.ts";
import {
  MmdbDatabase,
  MmdbError,
  type MmdbFile,
  openCheckedMmdb,
} from "./mmdb_database.ts";
import { type NetworkFields, readNetworkFields } from "./network_fields.ts";
import { readSimple, simpleShape } from "./asn_csv.ts";
import {
  type SharedStrings,
  shareStrings,
  shareUint32,
  stringAt,
} from "./shared_file.ts";

export interface AsnInfo {
  asn: number;
  org: string;
  /**
   * What a user's richer MMDB files say beyond the AS (MaxMind ISP,
   * Connection-Type, Enterprise; IPinfo company and type fields), when any.
   */
  vendor?: VendorFields;
}

/** The fields of a user's own databases the classification reads. */
export type VendorFields = Pick<
  NetworkFields,
  "company" | "connectionType" | "userType" | "companyType" | "asType"
>;

const VENDOR_KEYS = [
  "company",
  "connectionType",
  "userType",
  "companyType",
  "asType",
] as const;

/** Structured-cloneable form, sent to workers. */
export interface AsnTableData {
  v4Start: Uint32Array;
  v4End: Uint32Array;
  v4Org: Uint32Array;
  /** Four words per range, most significant first. */
  v6Start: Uint32Array;
  v6End: Uint32Array;
  v6Org: Uint32Array;
  asns: Uint32Array;
  /** By organisation index, its name, in shared memory too. */
  orgs: SharedStrings;
  /** ASN MMDB files, searched when the CSV tables have no answer. */
  mmdb: MmdbFile[];
}

/** Ranges of one address family as they are read, before sorting. */
export interface Builder {
  start: number[];
  end: number[];
  org: number[];
}

function compareWords(
  a: ArrayLike<number>,
  ai: number,
  b: ArrayLike<number>,
): number {
  for (let k = 0; k < 4; k++) {
    const d = a[ai + k] - b[k];
    if (d !== 0) return d;
  }
  return 0;
}

export async function loadAsnTable(paths: string[]): Promise<AsnTableData> {
  const orgIndex = new Map<string, number>();
  const asns: number[] = [];
  const orgs: string[] = [];
  const v4: Builder = { start: [], end: [], org: [] };
  const v6: Builder = { start: [], end: [], org: [] };
  const mmdb: MmdbFile[] = [];
  const intern = (asn: number, org: string) => {
    const key = `${asn}\t${org}`;
    let i = orgIndex.get(key);
    if (i === undefined) {
      i = asns.length;
      asns.push(asn);
      orgs.push(org);
      orgIndex.set(key, i);
    }
    return i;
  };
  const add = (start: string, end: string, orgId: number) => {
    if (start.includes(":")) {
      v6.start.push(...ipv6ToWords(start));
      v6.end.push(...ipv6ToWords(end));
      v6.org.push(orgId);
    } else {
      const isNum = !start.includes(".");
      v4.start.push(isNum ? Number(start) : ipv4ToNumber(start));
      v4.end.push(isNum ? Number(end) : ipv4ToNumber(end));
      v4.org.push(orgId);
    }
  };
  for (const path of paths) {
    if (path.endsWith(".mmdb")) {
      mmdb.push(await openCheckedMmdb(path));
      continue;
    }
    const bytes = await Deno.readFile(path);
    if (simpleShape(bytes)) {
      readSimple(bytes, v4, intern, add);
      continue;
    }
    const text = new TextDecoder().decode(bytes);
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    for (const [start, end, asn, org] of rows) {
      add(start, end, intern(Number(asn), org ?? ""));
    }
  }
  sortV4(v4);
  sortV6(v6);
  return {
    v4Start: shareUint32(v4.start),
    v4End: shareUint32(v4.end),
    v4Org: shareUint32(v4.org),
    v6Start: shareUint32(v6.start),
    v6End: shareUint32(v6.end),
    v6Org: shareUint32(v6.org),
    asns: shareUint32(asns),
    orgs: shareStrings(orgs),
    mmdb,
  };
}

// Sources are sorted already; sorting again keeps a user's own files safe.
function sortV4(b: Builder) {
  let sorted = true;
  for (let i = 1; i < b.start.length && sorted; i++) {
    sorted = b.start[i - 1] <= b.start[i];
  }
  if (sorted) return;
  const order = b.start.map((_, i) => i);
  order.sort((x, y) => b.start[x] - b.start[y]);
  if (order.every((v, i) => v === i)) return;
  b.start = order.map((i) => b.start[i]);
  b.end = order.map((i) => b.end[i]);
  b.org = order.map((i) => b.org[i]);
}

function sortV6(b: Builder) {
  const n = b.org.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) {
    sorted =
      compareWords(b.start, (i - 1) * 4, b.start.slice(i * 4, i * 4 + 4)) <= 0;
  }
  if (sorted) return;
  const order = Array.from({ length: n }, (_, i) => i);
  const key = (i: number) => b.start.slice(i * 4, i * 4 + 4);
  order.sort((x, y) => compareWords(b.start, x * 4, key(y)));
  if (order.every((v, i) => v === i)) return;
  const pick = (arr: number[], width: number) =>
    order.flatMap((i) => arr.slice(i * width, i * width + width));
  b.start = pick(b.start, 4);
  b.end = pick(b.end, 4);
  b.org = pick(b.org, 1);
}

/**
 * For each /16 block p of addresses' first 32-bit word, the number of
 * ranges that start before it (`starts`: one range every `stride` words): a
 * search looks only at the ranges around the address's block.
 */
function blockIndex(starts: Uint32Array, stride: number): Uint32Array {
  const index = new Uint32Array(65537);
  const count = starts.length / stride;
  let i = 0;
  for (let p = 0; p <= 65536; p++) {
    const blockStart = p * 65536;
    while (i < count && starts[i * stride] < blockStart) i++;
    index[p] = i;
  }
  return index;
}

export class AsnTable {
  #readers: MmdbDatabase[];
  /** See blockIndex. */
  #v4Block: Uint32Array;
  #v6Block: Uint32Array;

  constructor(readonly data: AsnTableData) {
    this.#readers = data.mmdb.map((file) => new MmdbDatabase(file));
    this.#v4Block = blockIndex(data.v4Start, 1);
    this.#v6Block = blockIndex(data.v6Start, 4);
  }

  get size(): number {
    return this.data.v4Org.length + this.data.v6Org.length;
  }

  /** Organisations known to the tables (indexes of lookupIndex). */
  get orgCount(): number {
    return this.data.orgs.ends.length;
  }

  /** The AS number and organisation of a table index. */
  info(index: number): AsnInfo {
    return {
      asn: this.data.asns[index],
      org: stringAt(this.data.orgs, index),
    };
  }

  lookup(ip: string, version: 4 | 6): AsnInfo | null {
    const words = addressWords(ip, version);
    const i = this.indexOf(words);
    return i >= 0 ? this.info(i) : this.mmdbInfo(words);
  }

  /**
   * The table index of an address's organisation, the address given as its
   * words (see addressWords); -1: not in the tables.
   */
  indexOf(words: ArrayLike<number>): number {
    return words.length === 1 ? this.#findV4(words[0]) : this.#findV6(words);
  }

  /**
   * The ASN MMDB files' answer, for addresses the tables do not have. A
   * record that cannot be decoded, or whose fields have the wrong types, is
   * no answer (the file was checked when opened; this is a record the
   * check's sample did not reach).
   */
  mmdbInfo(words: ArrayLike<number>): AsnInfo | null {
    if (this.#readers.length === 0) return null;
    // The AS from the first file that has it; the richer fields from any
    // (a Connection-Type file has no AS, an ISP file no connection type).
    let info: AsnInfo | null = null;
    let vendor: VendorFields | undefined;
    for (const reader of this.#readers) {
      const record = reader.recordOf(words);
      if (record === 0) continue;
      const fields = fieldsOf(reader, record);
      if (!fields) continue;
      if (!info && fields.asn) {
        info = { asn: fields.asn, org: fields.asOrg ?? "" };
      }
      for (const key of VENDOR_KEYS) {
        if (fields[key] !== null && !vendor?.[key]) {
          vendor ??= {
            company: null,
            connectionType: null,
            userType: null,
            companyType: null,
            asType: null,
          };
          vendor[key] = fields[key];
        }
      }
    }
    if (info && vendor) info.vendor = vendor;
    return info;
  }

  // The last range starting at or before an address is among those starting
  // in its block, or the last one before it.
  #findV4(n: number): number {
    const { v4Start, v4End, v4Org } = this.data;
    const block = n >>> 16;
    let lo = Math.max(0, this.#v4Block[block] - 1);
    let hi = this.#v4Block[block + 1] - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (v4Start[mid] <= n) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found >= 0 && n <= v4End[found] ? v4Org[found] : -1;
  }

  #findV6(words: ArrayLike<number>): number {
    const { v6Start, v6End, v6Org } = this.data;
    const block = words[0] >>> 16;
    let lo = Math.max(0, this.#v6Block[block] - 1);
    let hi = this.#v6Block[block + 1] - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (compareWords(v6Start, mid * 4, words) <= 0) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found >= 0 && compareWords(v6End, found * 4, words) >= 0
      ? v6Org[found]
      : -1;
  }
}

/**
 * The network fields of an MMDB record (MaxMind ASN, ISP, Connection-Type
 * or Enterprise, IPinfo ASN or company files); null if it cannot be read.
 */
function fieldsOf(
  reader: MmdbDatabase,
  record: number,
): NetworkFields | null {
  try {
    return readNetworkFields(reader.decodeRecord(record));
  } catch (error) {
    if (error instanceof MmdbError) return null;
    throw error;
  }
}
