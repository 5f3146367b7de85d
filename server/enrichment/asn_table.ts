// AS number and organisation by IP range, from ip-location-db CSVs
// (RouteViews, NRO, DB-IP) or an ASN MMDB. The tables are sorted typed arrays
// in shared memory: built once in the main thread, searched by every worker.
import { Buffer } from "node:buffer";
import Papa from "papaparse";
import { Reader } from "maxmind";
import { ipv4ToNumber, ipv6ToWords } from "./ip_input.ts";
import { readShared, shareUint32 } from "./shared_file.ts";

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
  for (const path of paths) {
    if (path.endsWith(".mmdb")) {
      mmdb.push(await readShared(path));
      continue;
    }
    const text = await Deno.readTextFile(path);
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    for (const [start, end, asn, org] of rows) {
      const orgId = intern(Number(asn), org ?? "");
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

// Sources are sorted already; sorting again keeps a user's own files safe.
function sortV4(b: Builder) {
  const order = b.start.map((_, i) => i);
  order.sort((x, y) => b.start[x] - b.start[y]);
  if (order.every((v, i) => v === i)) return;
  b.start = order.map((i) => b.start[i]);
  b.end = order.map((i) => b.end[i]);
  b.org = order.map((i) => b.org[i]);
}

function sortV6(b: Builder) {
  const n = b.org.length;
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
  // maxmind's types admit only its own record models; ASN files vary.
  // deno-lint-ignore no-explicit-any
  #readers: Reader<any>[];

  constructor(readonly data: AsnTableData) {
    this.#readers = data.mmdb.map((bytes) =>
      new Reader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    );
  }

  get size(): number {
    return this.data.v4Org.length + this.data.v6Org.length;
  }

  lookup(ip: string, version: 4 | 6): AsnInfo | null {
    const i = version === 4 ? this.#findV4(ipv4ToNumber(ip)) : this.#findV6(
      ipv6ToWords(ip),
    );
    if (i >= 0) return { asn: this.data.asns[i], org: this.data.orgs[i] };
    for (const reader of this.#readers) {
      if (version === 6 && reader.metadata.ipVersion === 4) continue;
      const record = reader.get(ip) as {
        autonomous_system_number?: number;
        autonomous_system_organization?: string;
      } | null;
      if (record?.autonomous_system_number) {
        return {
          asn: record.autonomous_system_number,
          org: record.autonomous_system_organization ?? "",
        };
      }
    }
    return null;
  }

  #findV4(n: number): number {
    const { v4Start, v4End, v4Org } = this.data;
    let lo = 0, hi = v4Start.length - 1, found = -1;
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
