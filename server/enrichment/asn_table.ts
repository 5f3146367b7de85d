// AS number and organisation by IP range, from ip-location-db CSVs
// (RouteViews, NRO, DB-IP) or an ASN MMDB. The tables are sorted typed arrays
// in shared memory: built once in the main thread, searched by every worker.
import Papa from "papaparse";
import { ipv4ToNumber, ipv6ToWords } from "./ip_input.ts";
import { MmdbDatabase, MmdbError, openCheckedMmdb } from "./mmdb_database.ts";
import { readNetworkFields } from "./network_fields.ts";
import { shareUint32 } from "./shared_file.ts";

export interface AsnInfo {
  asn: number;
  org: string;
}

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
  orgs: string[];
  /** ASN MMDB files, searched when the CSV tables have no answer. */
  mmdb: Uint8Array[];
}

interface Builder {
  start: number[];
  end: number[];
  org: number[];
}

function compareWords(a: ArrayLike<number>, ai: number, b: number[]): number {
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
  const mmdb: Uint8Array[] = [];
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
    orgs,
    mmdb,
  };
}

// The bundled CSVs (600,000 lines) are read straight from their bytes, with
// the rows papaparse would give: parsing them whole took some 400 MB at
// start. This needs the common shape; anything else is parsed as before.
const COMMA = 44;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const utf8 = new TextDecoder();

function lineEnd(bytes: Uint8Array, from: number): number {
  const end = bytes.indexOf(LF, from);
  return end < 0 ? bytes.length : end;
}

function bomLength(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/**
 * LF line ends, a comma delimiter (as papaparse would guess it), at least
 * four fields on every line, and quoted fields that close on their line.
 */
function simpleShape(bytes: Uint8Array): boolean {
  if (bytes.length <= 65536 || bytes.indexOf(CR) >= 0) return false;
  const from = bomLength(bytes);
  const sample = utf8.decode(
    bytes.subarray(from, bytes.lastIndexOf(LF, 65536) + 1),
  );
  if (Papa.parse(sample, { preview: 100 }).meta.delimiter !== ",") {
    return false;
  }
  for (let line = from; line < bytes.length;) {
    const end = lineEnd(bytes, line);
    if (end > line) {
      const quote = bytes.indexOf(QUOTE, line);
      if (quote >= 0 && quote < end) {
        const row = quotedRow(utf8.decode(bytes.subarray(line, end)));
        if (!row || row.length < 4) return false;
      } else {
        let commas = 0;
        for (let i = line; i < end && commas < 3; i++) {
          if (bytes[i] === COMMA) commas++;
        }
        if (commas < 3) return false;
      }
    }
    line = end + 1;
  }
  return true;
}

/**
 * The fields of one line with quoted fields, when every quote opens a field
 * and closes it right before a comma or the line end (where papaparse and
 * RFC 4180 agree); null for any other use of quotes.
 */
function quotedRow(line: string): string[] | null {
  const fields: string[] = [];
  let at = 0;
  for (;;) {
    if (line.charCodeAt(at) === QUOTE) {
      let value = "";
      let from = at + 1;
      for (;;) {
        const close = line.indexOf('"', from);
        if (close < 0) return null;
        value += line.slice(from, close);
        if (line.charCodeAt(close + 1) === QUOTE) {
          value += '"';
          from = close + 2;
          continue;
        }
        at = close + 1;
        break;
      }
      fields.push(value);
      if (at === line.length) return fields;
      if (line.charCodeAt(at) !== COMMA) return null;
      at++;
    } else {
      const comma = line.indexOf(",", at);
      const to = comma < 0 ? line.length : comma;
      const value = line.slice(at, to);
      if (value.includes('"')) return null;
      fields.push(value);
      if (comma < 0) return fields;
      at = comma + 1;
    }
  }
}

/** A field of ASCII digits as a number; NaN for anything else. */
function digits(bytes: Uint8Array, from: number, to: number): number {
  if (to <= from || to - from > 15) return NaN;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = bytes[i] - 48;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

function readSimple(
  bytes: Uint8Array,
  v4: Builder,
  intern: (asn: number, org: string) => number,
  add: (start: string, end: string, orgId: number) => void,
): void {
  let orgFrom = -1;
  let orgTo = -1;
  let orgAsn = NaN;
  let orgId = -1;
  for (let line = bomLength(bytes); line < bytes.length;) {
    const end = lineEnd(bytes, line);
    const quote = bytes.indexOf(QUOTE, line);
    if (end === line) {
      // an empty line: skipped
    } else if (quote >= 0 && quote < end) {
      const [start, last, asn, org] = quotedRow(
        utf8.decode(bytes.subarray(line, end)),
      )!;
      add(start, last, intern(Number(asn), org));
      orgFrom = -1;
    } else {
      const c1 = bytes.indexOf(COMMA, line);
      const c2 = bytes.indexOf(COMMA, c1 + 1);
      const c3 = bytes.indexOf(COMMA, c2 + 1);
      const c4 = bytes.indexOf(COMMA, c3 + 1);
      const to = c4 >= 0 && c4 < end ? c4 : end;
      let asn = digits(bytes, c2 + 1, c3);
      if (Number.isNaN(asn)) {
        asn = Number(utf8.decode(bytes.subarray(c2 + 1, c3)));
      }
      // Neighbouring ranges mostly belong to the same organisation.
      let same = asn === orgAsn && to - (c3 + 1) === orgTo - orgFrom;
      for (let i = 0; same && i < orgTo - orgFrom; i++) {
        same = bytes[c3 + 1 + i] === bytes[orgFrom + i];
      }
      if (!same) {
        orgId = intern(asn, utf8.decode(bytes.subarray(c3 + 1, to)));
        orgAsn = asn;
        orgFrom = c3 + 1;
        orgTo = to;
      }
      const start = digits(bytes, line, c1);
      const last = digits(bytes, c1 + 1, c2);
      if (!Number.isNaN(start) && !Number.isNaN(last)) {
        v4.start.push(start);
        v4.end.push(last);
        v4.org.push(orgId);
      } else {
        add(
          utf8.decode(bytes.subarray(line, c1)),
          utf8.decode(bytes.subarray(c1 + 1, c2)),
          orgId,
        );
      }
    }
    line = end + 1;
  }
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

export class AsnTable {
  #readers: MmdbDatabase[];
  /**
   * For each /16 block p, the number of IPv4 ranges that start before it:
   * a search looks only at the ranges around the address's block.
   */
  #v4Block: Uint32Array;

  constructor(readonly data: AsnTableData) {
    this.#readers = data.mmdb.map((bytes) => new MmdbDatabase(bytes));
    const starts = data.v4Start;
    this.#v4Block = new Uint32Array(65537);
    let i = 0;
    for (let p = 0; p <= 65536; p++) {
      const blockStart = p * 65536;
      while (i < starts.length && starts[i] < blockStart) i++;
      this.#v4Block[p] = i;
    }
  }

  get size(): number {
    return this.data.v4Org.length + this.data.v6Org.length;
  }

  /** Organisations known to the tables (indexes of lookupIndex). */
  get orgCount(): number {
    return this.data.orgs.length;
  }

  /** The AS number and organisation of a table index. */
  info(index: number): AsnInfo {
    return { asn: this.data.asns[index], org: this.data.orgs[index] };
  }

  lookup(ip: string, version: 4 | 6): AsnInfo | null {
    const i = this.lookupIndex(ip, version);
    return i >= 0 ? this.info(i) : this.lookupMmdb(ip, version);
  }

  /** The table index of an address's organisation; -1: not in the tables. */
  lookupIndex(ip: string, version: 4 | 6): number {
    return version === 4
      ? this.#findV4(ipv4ToNumber(ip))
      : this.#findV6(ipv6ToWords(ip));
  }

  /**
   * The ASN MMDB files' answer, for addresses the tables do not have. A
   * record that cannot be decoded, or whose fields have the wrong types, is
   * no answer (the file was checked when opened; this is a record the
   * check's sample did not reach).
   */
  lookupMmdb(ip: string, version: 4 | 6): AsnInfo | null {
    if (this.#readers.length === 0) return null;
    const words = version === 4 ? [ipv4ToNumber(ip)] : ipv6ToWords(ip);
    for (const reader of this.#readers) {
      const node = reader.recordOf(words);
      if (node === 0) continue;
      const info = asnOf(reader, node);
      if (info) return info;
    }
    return null;
  }

  #findV4(n: number): number {
    const { v4Start, v4End, v4Org } = this.data;
    // The last range starting at or before n is among those starting in
    // n's block, or the last one before it.
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

  #findV6(words: number[]): number {
    const { v6Start, v6End, v6Org } = this.data;
    let lo = 0, hi = v6Org.length - 1, found = -1;
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
 * AS number and organisation of an MMDB record (MaxMind ASN, ISP or
 * Enterprise, IPinfo ASN or company files); null if it has none or cannot
 * be read.
 */
function asnOf(reader: MmdbDatabase, node: number): AsnInfo | null {
  try {
    const { asn, asOrg } = readNetworkFields(reader.decodeRecord(node));
    return asn ? { asn, org: asOrg ?? "" } : null;
  } catch (error) {
    if (error instanceof MmdbError) return null;
    throw error;
  }
}
